import CGtk
import Foundation
@testable import ListViewManager
import TestSupport
import XCTest
import GtkTestSupport

final class UpdaterTests: XCTestCase {
    @MainActor
    private static func makeHarness(_ configure: (ListViewManager) -> Void = { _ in }) -> (GtkHarness, ItemsChangedRecorder) {
        let harness = GtkHarness { manager in
            manager.register(CountingPostRow.self) { $0.condition = .section(2) }
            manager.register(PostRow.self)
            configure(manager)
        }
        let recorder = ItemsChangedRecorder(harness.manager.bridge.listModel, describe: describeRowItem)
        return (harness, recorder)
    }

    func testEveryStorageOperationEmitsExactlyTheExpectedSplices() { onMain {
        let (harness, recorder) = Self.makeHarness()
        let storage = harness.manager.memoryStorage!
        storage.setSectionHeaderModels(["A", "B"])
        XCTAssertEqual(recorder.take(), ["0+2"])
        storage.addItems((0..<3).map { Post(id: $0, title: "\($0)") }, toSection: 0)
        XCTAssertEqual(recorder.take(), ["1+3"])
        try? storage.insertItem(Post(id: 10, title: "10"), to: IndexPath(item: 0, section: 1))
        XCTAssertEqual(recorder.take(), ["5+1"])
        try? storage.removeItem(Post(id: 1, title: ""))
        XCTAssertEqual(recorder.take(), ["2-1"])
        storage.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 1, section: 1))
        XCTAssertEqual(recorder.take(), ["1-1", "4+1"])
        storage.performUpdates {
            for index in 0..<100 { storage.addItem(Post(id: 100 + index, title: ""), toSection: 1) }
        }
        XCTAssertEqual(recorder.take(), ["5+100"], "a batch of adjacent inserts is one signal")
        storage.moveSection(1, toSection: 0)
        XCTAssertEqual(recorder.take(), ["0+103", "105-103"])
        storage.deleteSections(IndexSet(integer: 0))
        XCTAssertEqual(recorder.take(), ["0-103"])
        storage.setItemsForAllSections([[Post(id: 5, title: "5")]])
        XCTAssertEqual(recorder.take(), ["0-2+2"])
        XCTAssertEqual(recorder.shadow, recorder.fetchAll(), "the model answered consistently between emissions")
        recorder.assertConsumed()
        harness.close()
    } }

    func testAContentUpdateRebindsThatOneRowAndEmitsNothing() { onMain {
        let (harness, recorder) = Self.makeHarness()
        let storage = harness.manager.memoryStorage!
        storage.addItems((0..<50).map { Post(id: $0, title: "Post \($0)") }, toSection: 2)
        XCTAssertEqual(recorder.take(), ["0+50"])
        harness.waitForFrames()
        CountingPostRow.updates = []
        storage.reloadItem(Post(id: 3, title: "Edited"))
        harness.waitForFrames()
        XCTAssertEqual(recorder.take(), [], "no items-changed for a content update")
        XCTAssertEqual(CountingPostRow.updates, [3], "exactly that row was updated")
        XCTAssertEqual((harness.manager.row(at: IndexPath(item: 3, section: 2)) as? CountingPostRow)?.title.text, "Edited")

        // An insert above shifts every row; GTK rebinds them all, but they keep their items: no row is updated again.
        CountingPostRow.updates = []
        try? storage.insertItem(Post(id: 99, title: "New"), to: IndexPath(item: 0, section: 2))
        harness.waitForFrames()
        XCTAssertEqual(recorder.take(), ["0+1"])
        XCTAssertEqual(CountingPostRow.updates, [99])
        recorder.assertConsumed()
        harness.close()
    } }

    func testARowGTKKeepsButDoesNotShowTakesItsNewContentWhenShown() { onMain {
        let (harness, recorder) = Self.makeHarness()
        let storage = harness.manager.memoryStorage!
        storage.addItems((0..<500).map { Post(id: $0, title: "Post \($0)") }, toSection: 2)
        harness.waitForFrames()
        // A row GTK keeps bound below the window (GTK 4.8 keeps 200, GTK 4.12 and later a few
        // beyond the screen), not shown.
        let hidden = harness.manager.factory.boundRows.first { gtk_widget_get_mapped($0.row.row.rootWidget) == 0 }
        guard case .item(let indexPath)? = hidden?.row.flatRow, let row = hidden?.row.row as? CountingPostRow else {
            return XCTFail("GTK keeps every bound row shown")
        }
        let before = row.title.text
        CountingPostRow.updates = []
        storage.reloadItem(Post(id: indexPath.item, title: "Edited while hidden"))
        harness.waitForFrames()
        XCTAssertEqual(CountingPostRow.updates, [], "a row not shown is not updated")
        XCTAssertEqual(row.title.text, before)
        XCTAssertEqual((harness.manager.storage.item(at: indexPath) as? Post)?.title, "Edited while hidden")

        // Shown, it takes its new content in the layout that maps it.
        @MainActor func boundRow(at indexPath: IndexPath) -> CountingPostRow? {
            harness.manager.factory.boundRows.first { $0.row.flatRow == .item(indexPath) }?.row.row as? CountingPostRow
        }
        harness.manager.scrollTo(indexPath)
        harness.wait(until: { boundRow(at: indexPath).map { gtk_widget_get_mapped($0.rootWidget) != 0 } == true }, "the row shown")
        XCTAssertEqual(boundRow(at: indexPath)?.title.text, "Edited while hidden")
        XCTAssertEqual(recorder.take(), ["0+500"], "a content update is no splice")

        // A hidden row handed out by the manager shows its item's content.
        let other = harness.manager.factory.boundRows.first { gtk_widget_get_mapped($0.row.row.rootWidget) == 0 }
        guard case .item(let otherPath)? = other?.row.flatRow else { return XCTFail("GTK keeps every bound row shown") }
        storage.reloadItem(Post(id: otherPath.item, title: "Asked for while hidden"))
        harness.waitForFrames()
        XCTAssertEqual((harness.manager.row(at: otherPath) as? CountingPostRow)?.title.text, "Asked for while hidden")
        harness.close()
    } }

    func testALargeReplacementIsARemovalThenAnInsertionSoGTKAsksOnlyForShownRows() { onMain {
        let (harness, recorder) = Self.makeHarness()
        let storage = harness.manager.memoryStorage!
        storage.addItems((0..<3000).map { Post(id: $0, title: "\($0)") })
        XCTAssertEqual(recorder.take(), ["0+3000"])
        harness.waitForFrames()
        storage.setItems((0..<3000).map { Post(id: 10_000 + $0, title: "new \($0)") })
        XCTAssertEqual(recorder.take(), ["0-3000", "0+3000"])
        XCTAssertEqual(recorder.shadow, recorder.fetchAll())
        recorder.assertConsumed()
        recorder.disconnect()
        harness.waitForFrames()
        // Without the recorder asking: GTK asks only for the rows it shows, not all 3,000.
        let requests = harness.manager.itemRequestCount
        storage.setItems((0..<3000).map { Post(id: 20_000 + $0, title: "newer \($0)") })
        harness.waitForFrames()
        XCTAssertLessThan(harness.manager.itemRequestCount - requests, 1000)
        XCTAssertEqual((harness.boundRowsByPosition[0] as? PostRow)?.title.text, "newer 0")
        harness.close()
    } }

    func testUpdateHooksRunAroundEachUpdate() { onMain {
        let (harness, recorder) = Self.makeHarness()
        var log: [String] = []
        harness.manager.contentUpdater.willUpdateContent = { log.append("will \($0?.description ?? "reload")") }
        harness.manager.contentUpdater.didUpdateContent = { _ in log.append("did \(harness.manager.numberOfRows)") }
        harness.manager.memoryStorage.addItem(Post(id: 1, title: "x"))
        XCTAssertEqual(log, ["will StorageUpdate(insert section 0; insert items 0 in section 0)", "did 1"])
        XCTAssertEqual(recorder.take(), ["0+1"])
        recorder.assertConsumed()
        harness.close()
    } }

    func testStorageChangesFromEventHandlersAreAppliedRightAfter() { onMain {
        var added = false
        let (harness, recorder) = Self.makeHarness { manager in
            manager.willDisplay(PostRow.self) { _, post, _ in
                // A handler running inside GTK's bind, inside an items-changed emission.
                guard post.id == 1, !added else { return }
                added = true
                manager.memoryStorage.addItem(Post(id: 2, title: "added from willDisplay"))
                manager.memoryStorage.setSectionHeaderModel("Header", forSection: 0)
            }
            manager.didSelect(PostRow.self) { _, post, indexPath in
                try? manager.memoryStorage.removeItem(post)
            }
        }
        harness.manager.memoryStorage.addItem(Post(id: 1, title: "first"))
        harness.waitForFrames()
        XCTAssertEqual(recorder.take(), ["0+1", "1+1", "0+1"])
        XCTAssertEqual(recorder.shadow, recorder.fetchAll())
        XCTAssertEqual(harness.manager.numberOfRows, 3)
        XCTAssertEqual((harness.boundRowsByPosition[2] as? PostRow)?.title.text, "added from willDisplay")
        harness.selectRow(1)
        harness.waitForFrames()
        XCTAssertEqual(recorder.take(), ["1-1"])
        XCTAssertEqual(harness.manager.memoryStorage.items(inSection: 0)?.count, 1)
        XCTAssertEqual(recorder.shadow, recorder.fetchAll())
        recorder.assertConsumed()
        harness.close()
    } }

    func testEmptySectionHeadersFollowTheConfiguration() { onMain {
        let (harness, recorder) = Self.makeHarness { manager in
            manager.configuration.displayHeaderOnEmptySection = false
        }
        let storage = harness.manager.memoryStorage!
        storage.setSectionHeaderModels(["A"])
        XCTAssertEqual(recorder.take(), [])
        storage.addItem(Post(id: 1, title: "x"))
        XCTAssertEqual(recorder.take(), ["0+2"])
        harness.manager.configuration.displayHeaderOnEmptySection = true
        XCTAssertEqual(recorder.take(), ["0-2+2"])
        recorder.assertConsumed()
        harness.close()
    } }

    func testTheStorageUpdaterCanBeReplaced() { onMain {
        let logging = UpdateRecorder()
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

    func testAnUpdaterKeptAfterItsManagerIsGoneAppliesNothing() { onMain {
        let storage = MemoryStorage()
        var applied = 0
        var kept: ListViewUpdater?
        do {
            let manager = ListViewManager(storage: storage)
            manager.register(PostRow.self)
            manager.contentUpdater.didUpdateContent = { _ in applied += 1 }
            kept = manager.contentUpdater
            storage.addItem(Post(id: 1, title: "a"))
            XCTAssertEqual(manager.numberOfRows, 1)
        }
        XCTAssertEqual(applied, 1)
        // An app's replacement updater that outlived the manager still passes updates on.
        kept?.storageDidPerformUpdate(StorageUpdate())
        kept?.storageNeedsReloading()
        XCTAssertEqual(applied, 1)
    } }

    func testAHandlerThatLetsGoOfTheManagerDuringAnUpdateLetsTheUpdateFinish() { onMain {
        let storage = MemoryStorage()
        storage.addItems([Post(id: 1, title: "a"), Post(id: 2, title: "b")])
        var manager: ListViewManager? = ListViewManager(storage: storage)
        manager?.register(PostRow.self)
        var deselected: [Int] = []
        manager?.didDeselect(model: Post.self) { post, _ in
            deselected.append(post.id)
            manager = nil  // the app's last reference, dropped before the splices
        }
        XCTAssertEqual(manager?.select(IndexPath(item: 0, section: 0)), true)
        // The update's participants after the selection (the bound rows, the pinned
        // header) still reach the manager; it goes once the update is applied.
        storage.removeItems(at: [IndexPath(item: 0, section: 0)])
        XCTAssertEqual(deselected, [1])
        XCTAssertNil(manager)
        storage.addItem(Post(id: 3, title: "c"))  // nothing follows the storage any more
        XCTAssertEqual(storage.items(inSection: 0)?.count, 2)
    } }
}
