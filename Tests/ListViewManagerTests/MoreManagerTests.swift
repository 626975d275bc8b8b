import CGtk
import Foundation
@testable import ListViewManager
import XCTest

class Animal {
    let name: String
    init(name: String) { self.name = name }
}

final class Dog: Animal {}

final class AnimalRow: Row, ModelTransfer {
    let name = Label()
    required init() { super.init(); append(name) }
    func update(with model: Animal) { name.text = "\(type(of: model)) \(model.name)" }
}

/// A row for an optional model type: models are stored unwrapped, and still match.
final class MaybePostRow: Row, ModelTransfer {
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: Post?) { title.text = model?.title ?? "none" }
}

/// Logs every update, then passes it on to the manager's own updater.
final class LoggingUpdater: StorageUpdating {
    weak var next: ListViewUpdater?
    var log: [String] = []

    func storageDidPerformUpdate(_ update: StorageUpdate) {
        log.append(update.description)
        next?.storageDidPerformUpdate(update)
    }

    func storageNeedsReloading() {
        log.append("reload")
        next?.storageNeedsReloading()
    }
}

final class MoreManagerTests: XCTestCase {
    func testSubclassesAndOptionalModelTypesFindTheirMapping() { onMain {
        let harness = GtkHarness { manager in
            manager.register(AnimalRow.self)
            manager.register(MaybePostRow.self)
            manager.memoryStorage.addItems([Dog(name: "Rex"), Animal(name: "Generic")] as [Animal])
            manager.memoryStorage.addItem(Post(id: 1, title: "optional") as Post?)
        }
        let rows = harness.boundRowsByPosition
        XCTAssertEqual((rows[0] as? AnimalRow)?.name.text, "Dog Rex")
        XCTAssertEqual((rows[1] as? AnimalRow)?.name.text, "Animal Generic")
        XCTAssertEqual((rows[2] as? MaybePostRow)?.title.text, "optional")
        harness.close()
    } }

    func testWithoutSelectionNothingIsSelected() { onMain {
        var selected = 0
        let harness = GtkHarness(selectionMode: .none) { manager in
            manager.register(PostRow.self)
            manager.didSelect(PostRow.self) { _, _, _ in selected += 1 }
            manager.memoryStorage.addItems([Post(id: 1, title: "a")])
        }
        harness.selectRow(0)
        XCTAssertEqual(selected, 0)
        XCTAssertEqual(harness.manager.selectedIndexPaths, [])
        harness.manager.selectionMode = .multiple
        harness.selectRow(0)
        XCTAssertEqual(selected, 1)
        harness.close()
    } }

    func testDidEndDisplayingFiresOnceWhenARowGoesAway() { onMain {
        var events: [String] = []
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.willDisplay(PostRow.self) { _, post, _ in events.append("display \(post.id)") }
            manager.didEndDisplaying(PostRow.self) { _, post, _ in events.append("end \(post.id)") }
            manager.memoryStorage.addItems([Post(id: 1, title: "a"), Post(id: 2, title: "b")])
        }
        XCTAssertEqual(events, ["display 1", "display 2"])
        events = []
        harness.selectRow(1)
        try? harness.manager.memoryStorage.removeItem(Post(id: 1, title: ""))
        harness.waitForFrames()
        XCTAssertEqual(events, ["end 1"], "selection and shifts rebind rows without display events")
        harness.close()
    } }

    func testTheStorageUpdaterCanBeReplaced() { onMain {
        let logging = LoggingUpdater()
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            logging.next = manager.contentUpdater
            manager.storageUpdater = logging
        }
        harness.manager.memoryStorage.addItem(Post(id: 1, title: "a"))
        XCTAssertEqual(logging.log, ["StorageUpdate(insert section 0; insert items 0 in section 0)"])
        XCTAssertEqual(harness.manager.numberOfRows, 1)
        harness.close()
    } }

    func testSingleClickActivationFollowsTheConfiguration() { onMain {
        let harness = GtkHarness { $0.register(PostRow.self) }
        XCTAssertEqual(gtk_list_view_get_single_click_activate(OpaquePointer(harness.manager.listView)), 0)
        harness.manager.configuration.singleClickActivation = true
        XCTAssertEqual(gtk_list_view_get_single_click_activate(OpaquePointer(harness.manager.listView)), 1)
        harness.close()
    } }

    func testSelectingAnItemOffScreenFiresTheModelOnlyEvent() { onMain {
        var events: [String] = []
        let harness = GtkHarness(selectionMode: .multiple) { manager in
            manager.register(PostRow.self)
            manager.didSelect(PostRow.self) { _, post, _ in events.append("row \(post.id)") }
            manager.didSelect(model: Post.self) { post, indexPath in events.append("model \(post.id) at \(indexPath.item)") }
            manager.memoryStorage.addItems((0..<5000).map { Post(id: $0, title: "\($0)") })
        }
        XCTAssertNil(harness.manager.row(at: IndexPath(item: 4000, section: 0)), "not realised")
        harness.manager.select(IndexPath(item: 4000, section: 0))
        harness.manager.select(IndexPath(item: 1, section: 0))
        XCTAssertEqual(events, ["model 4000 at 4000", "row 1", "model 1 at 1"])
        harness.close()
    } }

    func testUnregisteringARowTypeShowsTheFallbackAgain() { onMain {
        var anomalies: [ListViewManagerAnomaly.Kind] = []
        let harness = GtkHarness { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0.kind) }
            manager.register(PostRow.self)
            manager.memoryStorage.addItem(Post(id: 1, title: "a"))
        }
        XCTAssertTrue(harness.boundRowsByPosition[0] is PostRow)
        harness.manager.unregister(PostRow.self)
        XCTAssertTrue(harness.boundRowsByPosition[0] is MissingMappingRow)
        XCTAssertEqual(anomalies, [.noItemMappingFound])
        harness.close()
    } }

    func testAnIdleMainLoopHasNothingToDo() { onMain {
        MainQueue.attachToGLib()
        var ran = false
        DispatchQueue.main.async { ran = true }
        for _ in 0..<3 where !ran { g_main_context_iteration(nil, 1) }
        XCTAssertTrue(ran)
        _ = GtkHarness.drainMainLoop()
        // The main queue's eventfd was read: GLib is not woken again for it.
        XCTAssertEqual(g_main_context_pending(nil), 0)
    } }
}
