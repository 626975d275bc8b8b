import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// Deleting items with the Delete key: `canDelete(withItem:)`, typed `commitDelete`
/// events, and removal from the storage when configured.
final class DeletionTests: XCTestCase {
    /// Posts 1…4 in one section; post 2 can't be deleted.
    @MainActor
    private static func makeHarness(removes: Bool, _ configure: (ListViewManager) -> Void = { _ in }) -> GtkHarness {
        GtkHarness(selectionMode: .multiple) { manager in
            manager.register(PostRow.self)
            manager.configuration.removesDeletedItems = removes
            manager.canDelete(withItem: Post.self) { post, _ in post.id != 2 }
            configure(manager)
            manager.memoryStorage.addItems((1...4).map { Post(id: $0, title: "post \($0)") })
        }
    }

    func testTheDeleteKeyCommitsAndRemovesTheSelectedDeletableItems() { onMain {
        var events: [String] = []
        let harness = Self.makeHarness(removes: true) { manager in
            manager.commitDelete(PostRow.self) { row, post, indexPath in
                events.append("row \(row.title.text) \(post.id) [\(indexPath.section),\(indexPath.item)]")
            }
            manager.commitDelete(model: Post.self) { post, _ in events.append("model \(post.id)") }
        }
        harness.selectRow(0, modify: true)
        harness.selectRow(1, modify: true)
        harness.press(["Delete"], focusing: harness.manager.view)
        harness.wait(until: { !events.isEmpty }, "the Delete key to reach the list")
        XCTAssertEqual(events, ["row post 1 1 [0,0]", "model 1"], "post 2 is not deletable")
        XCTAssertEqual(titles(harness.manager), ["post 2", "post 3", "post 4"])
        XCTAssertEqual(harness.manager.selectedIndexPaths, [IndexPath(item: 0, section: 0)], "post 2 stays selected")
        harness.close()
    } }

    func testWithoutRemovalTheAppRemovesItemsInItsReaction() { onMain {
        var deleted: [Int] = []
        let harness = Self.makeHarness(removes: false) { manager in
            manager.commitDelete(model: Post.self) { post, _ in deleted.append(post.id) }
        }
        harness.selectRow(3)
        XCTAssertEqual(harness.manager.deleteSelectedItems(), [IndexPath(item: 3, section: 0)])
        XCTAssertEqual(deleted, [4])
        XCTAssertEqual(titles(harness.manager), ["post 1", "post 2", "post 3", "post 4"], "the app chose not to remove it")
        XCTAssertEqual(harness.manager.deleteItems(at: [IndexPath(item: 1, section: 0), IndexPath(item: 9, section: 0)]), [],
                       "a non-deletable item and a missing one: nothing happens")
        XCTAssertFalse(harness.manager.canDelete(IndexPath(item: 1, section: 0)))
        harness.close()
    } }

    func testAReactionThatChangesTheStorageWhileTheManagerRemovesIsAnAnomalyAndRemovesNothingMore() { onMain {
        var anomalies: [String] = []
        let harness = Self.makeHarness(removes: true) { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0.description) }
            manager.commitDelete(model: Post.self) { _, indexPath in manager.memoryStorage.removeItems(at: [indexPath]) }
        }
        harness.manager.deleteItems(at: [IndexPath(item: 2, section: 0)])
        XCTAssertEqual(titles(harness.manager), ["post 1", "post 2", "post 4"], "only the reaction's own removal")
        XCTAssertEqual(anomalies, ["ListViewManagerAnomaly.storageChangedDuringDeletion(1 items)"])
        harness.close()
    } }
}

/// The titles of the posts in section 0 of `manager`'s storage.
@MainActor
private func titles(_ manager: ListViewManager) -> [String] {
    (manager.memoryStorage.items(inSection: 0) ?? []).map { ($0 as! Post).title }
}
