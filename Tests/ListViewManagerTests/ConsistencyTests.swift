import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

final class SectionZeroPostRow: ListRow, ModelTransfer {
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: Post) { title.text = "first section: " + model.title }
}

/// Cases where the list must stay consistent while things change under it.
final class ConsistencyTests: XCTestCase {
    func testReplacingAShownModelWithAnotherKindSwapsTheRowAndEndsTheOldOne() { onMain {
        var events: [String] = []
        let harness = GtkHarness { manager in
            manager.register(PostRow.self) { mapping in
                mapping.willDisplay { _, post, _ in events.append("post \(post.id) shown") }
                mapping.didEndDisplaying { _, post, _ in events.append("post \(post.id) ended") }
            }
            manager.register(WeatherRow.self) { mapping in
                mapping.willDisplay { _, weather, _ in events.append("\(weather) shown") }
                mapping.configure { _, weather, _ in events.append("\(weather) configured") }
            }
            manager.memoryStorage.addItems([Post(id: 1, title: "a")])
        }
        events = []
        try? harness.manager.memoryStorage.replaceItem(Post(id: 1, title: ""), with: Weather.sunny)
        harness.waitForFrames()
        XCTAssertEqual(events, ["post 1 ended", "sunny configured", "sunny shown"])
        XCTAssertTrue(harness.boundRowsByPosition[0] is WeatherRow)
        harness.close()
    } }

    func testAReplacedStorageNoLongerDrivesTheList() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.memoryStorage.addItems([Post(id: 1, title: "a"), Post(id: 2, title: "b")])
        }
        let old = harness.manager.memoryStorage!
        let fresh = MemoryStorage()
        fresh.addItems([Post(id: 10, title: "x")])
        harness.manager.storage = fresh
        XCTAssertNil(old.delegate)
        XCTAssertEqual(harness.manager.numberOfRows, 1)
        old.addItems([Post(id: 3, title: "c")], toSection: 2)
        XCTAssertEqual(harness.manager.numberOfRows, 1)
        harness.waitForFrames()
        XCTAssertEqual((harness.boundRowsByPosition[0] as? PostRow)?.title.text, "x")
        harness.close()
    } }

    func testReplacingTheStorageFromInsideAnEmissionWaitsForItToEnd() { onMain {
        var replaced = false
        weak var weakManager: ListViewManager?
        let harness = GtkHarness { manager in
            manager.register(PostRow.self) { mapping in
                mapping.willDisplay { _, post, _ in
                    guard post.id == 99, !replaced else { return }
                    replaced = true
                    let storage = MemoryStorage()
                    storage.addItems([Post(id: 7, title: "replacement")])
                    weakManager?.storage = storage
                }
            }
            manager.memoryStorage.addItems([Post(id: 1, title: "a"), Post(id: 2, title: "b")])
        }
        weakManager = harness.manager
        let recorder = ItemsChangedRecorder(harness.manager.bridge.listModel, describe: describeRowItem)
        let storage = harness.manager.memoryStorage!
        storage.performUpdates {
            try? storage.insertItem(Post(id: 99, title: "new"), to: IndexPath(item: 0, section: 0))
            storage.addItems([Post(id: 98, title: "z")], toSection: 0)
        }
        harness.waitForFrames()
        XCTAssertTrue(replaced)
        XCTAssertEqual(recorder.take(), ["0+1", "3+1", "0-4+1"])
        XCTAssertEqual(recorder.shadow, recorder.fetchAll())
        XCTAssertEqual(harness.manager.numberOfRows, 1)
        recorder.disconnect()
        harness.close()
    } }

    /// An app that navigates (a folder opened by activating it, a detail list by selecting a
    /// row) replaces the storage from inside GTK's activation and selection: the list then
    /// shows the new storage's rows, and the old selection ends with its `didDeselect`.
    func testReplacingTheStorageFromAnActivationOrSelectionHandler() { onMain {
        var events: [String] = []
        weak var weakManager: ListViewManager?
        @MainActor func open(_ titles: [String]) {
            let storage = MemoryStorage()
            storage.addItems(titles.enumerated().map { Post(id: 100 + $0.offset, title: $0.element) })
            weakManager?.storage = storage
        }
        let harness = GtkHarness(selectionMode: .single) { manager in
            manager.register(PostRow.self)
            manager.didActivate(PostRow.self) { _, post, _ in
                events.append("activate \(post.title)")
                open(["inside \(post.title)", "second"])
            }
            manager.didSelect(PostRow.self) { _, post, _ in
                events.append("select \(post.title)")
                if post.title == "second" { open(["detail"]) }
            }
            manager.didDeselect(PostRow.self) { _, post, _ in events.append("deselect \(post.title)") }
            manager.memoryStorage.addItems([Post(id: 1, title: "a"), Post(id: 2, title: "b")])
        }
        weakManager = harness.manager
        harness.activateRow(1)
        harness.waitForFrames()
        XCTAssertEqual(events, ["activate b"])
        XCTAssertEqual(harness.manager.numberOfRows, 2)
        XCTAssertEqual((harness.boundRowsByPosition[0] as? PostRow)?.title.text, "inside b")
        events = []
        harness.selectRow(1)
        harness.waitForFrames()
        // The selection goes with the old rows, said as when any storage replaces another.
        XCTAssertEqual(events, ["select second", "deselect second"])
        XCTAssertEqual(harness.manager.numberOfRows, 1)
        XCTAssertEqual((harness.boundRowsByPosition[0] as? PostRow)?.title.text, "detail")
        XCTAssertEqual(harness.manager.selectedIndexPaths, [], "the new storage's rows start unselected")
        harness.close()
    } }

    func testSwitchingToSingleSelectionSelectsNothing() { onMain {
        let harness = GtkHarness(selectionMode: .multiple) { manager in
            manager.register(PostRow.self)
            manager.memoryStorage.setSectionHeaderModels(["H"])
            manager.memoryStorage.addItems([Post(id: 1, title: "a")])
        }
        harness.manager.selectionMode = .single
        XCTAssertEqual(harness.manager.selectedIndexPaths, [])
        XCTAssertEqual(gtk_selection_model_is_selected(harness.manager.selectionModel, 0), 0, "not even the header row")
        harness.close()
    } }

    func testARowThatMovesIntoAnotherConditionGetsTheRowTypeThatFits() { onMain {
        let harness = GtkHarness { manager in
            manager.register(SectionZeroPostRow.self) { $0.condition = .section(0) }
            manager.register(PostRow.self)
            manager.memoryStorage.addItems([Post(id: 1, title: "s0")], toSection: 0)
            manager.memoryStorage.addItems([Post(id: 2, title: "s1")], toSection: 1)
        }
        XCTAssertTrue(harness.boundRowsByPosition[1] is PostRow)
        harness.manager.memoryStorage.deleteSections(IndexSet(integer: 0))
        harness.waitForFrames()
        XCTAssertEqual((harness.boundRowsByPosition[0] as? SectionZeroPostRow)?.title.text, "first section: s1")
        harness.close()
    } }

    func testOnceCaughtUpTheListReadsTheStorageItselfNotACopy() { onMain {
        let harness = GtkHarness { $0.register(PostRow.self) }
        let storage = harness.manager.memoryStorage!
        storage.addItems((0..<1000).map { Post(id: $0, title: "") })
        // A snapshot kept after the update would make every later change copy the section.
        XCTAssertTrue(harness.manager.bridge.models as AnyObject === storage)
        harness.close()
    } }
}
