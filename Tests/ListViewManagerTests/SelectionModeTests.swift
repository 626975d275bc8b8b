import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// The selection modes, and selection of items that are not on screen.
final class SelectionModeTests: XCTestCase {
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

    /// A selection model the manager replaced (its mode changed) may live on in other hands:
    /// changing it asks none of the manager's rules and fires none of its events, and the
    /// manager's selection stays its new model's.
    func testASelectionModelReplacedNoLongerSpeaksForTheManager() { onMain {
        var asked = 0
        var selected: [Int] = []
        let harness = GtkHarness(selectionMode: .single) { manager in
            manager.register(PostRow.self)
            manager.willSelect(model: Post.self) { _, indexPath in
                asked += 1
                return indexPath
            }
            manager.didSelect(model: Post.self) { post, _ in selected.append(post.id) }
            manager.memoryStorage.addItems((0..<3).map { Post(id: $0, title: "\($0)") })
        }
        let old = harness.manager.selectionModel
        g_object_ref(UnsafeMutableRawPointer(old))
        harness.manager.selectionMode = .multiple
        harness.manager.select(IndexPath(item: 0, section: 0))
        XCTAssertEqual(asked, 1)
        XCTAssertEqual(selected, [0])
        gtk_selection_model_select_item(old, 2, 1)
        XCTAssertEqual(asked, 1, "the replaced model asked the manager's rules")
        XCTAssertEqual(selected, [0], "the replaced model fired the manager's events")
        XCTAssertEqual(gtk_selection_model_is_selected(old, 2), 1, "the replaced model still works on its own")
        XCTAssertEqual(harness.manager.selectedIndexPaths, [IndexPath(item: 0, section: 0)])
        g_object_unref(UnsafeMutableRawPointer(old))
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
}
