import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// Real keys move the focus over the rows that cannot take it (headers, footers, items
/// `canFocus` refuses) to the nearest item, select as GTK's keys do, and fire `didFocus`.
final class KeyboardFocusTests: XCTestCase {
    /// "Today": posts 1, 2 and a footer; "Earlier": posts 3 (cannot take the focus), 4, 5
    /// and a footer.
    @MainActor
    private final class Fixture {
        let harness: GtkHarness
        var focused: [String] = []
        var manager: ListViewManager { harness.manager }

        init(_ mode: SelectionMode = .single) {
            var recorded: (String) -> Void = { _ in }
            harness = GtkHarness(selectionMode: mode) { manager in
                manager.register(PostRow.self) { mapping in
                    mapping.didFocus { row, post, _ in recorded("row \(row.title.text) \(post.id)") }
                }
                manager.didFocus(model: Post.self) { post, indexPath in recorded("model \(post.id) [\(indexPath.section),\(indexPath.item)]") }
                manager.canFocus(withItem: Post.self) { post, _ in post.id != 3 }
                manager.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
                manager.memoryStorage.setSectionFooterModels(["2 posts", "3 posts"])
                manager.memoryStorage.addItems((1...2).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
                manager.memoryStorage.addItems((3...5).map { Post(id: $0, title: "post \($0)") }, toSection: 1)
            }
            recorded = { [unowned self] in focused.append($0) }
        }

        static func indexPath(_ id: Int) -> IndexPath {
            id <= 2 ? IndexPath(item: id - 1, section: 0) : IndexPath(item: id - 3, section: 1)
        }

        /// Presses `keys` with the focus on post `id`'s row.
        func press(_ keys: [String], from id: Int) {
            let position = manager.position(of: Self.indexPath(id))!
            harness.press(keys, focusing: harness.viewManager.factory.itemWidget(at: position)!)
            harness.waitForFrames()
        }

        var focusedID: Int? {
            manager.focusedIndexPath.map { $0.section == 0 ? $0.item + 1 : $0.item + 3 }
        }

        var selectedIDs: [Int] {
            manager.selectedIndexPaths.map { $0.section == 0 ? $0.item + 1 : $0.item + 3 }
        }
    }

    func testArrowKeysCrossHeadersFootersAndRowsThatCannotTakeTheFocus() { onMain {
        let fixture = Fixture()
        fixture.press(["Down"], from: 2)
        XCTAssertEqual(fixture.focusedID, 4, "past the footer, the header and post 3")
        XCTAssertEqual(fixture.selectedIDs, [4], "the key selects, as GTK's arrow keys do")
        fixture.press(["Up"], from: 4)
        XCTAssertEqual(fixture.focusedID, 2)
        XCTAssertEqual(fixture.selectedIDs, [2])
        fixture.press(["Up"], from: 1)
        XCTAssertEqual(fixture.focusedID, 1, "the first item is as far up as the focus goes")
        XCTAssertEqual(fixture.selectedIDs, [2], "and the key changes nothing there")
        fixture.press(["Down"], from: 5)
        XCTAssertEqual(fixture.focusedID, 5, "the last item is as far down as the focus goes")
        fixture.harness.close()
    } }

    func testHomeAndEndLandOnTheFirstAndLastItems() { onMain {
        let fixture = Fixture()
        fixture.press(["End"], from: 1)
        XCTAssertEqual(fixture.focusedID, 5)
        XCTAssertEqual(fixture.selectedIDs, [5])
        fixture.press(["Home"], from: 4)
        XCTAssertEqual(fixture.focusedID, 1)
        XCTAssertEqual(fixture.selectedIDs, [1])
        fixture.harness.close()
    } }

    func testControlMovesTheFocusOnlyAndShiftExtendsTheSelection() { onMain {
        let fixture = Fixture(.multiple)
        fixture.harness.selectRow(fixture.manager.position(of: Fixture.indexPath(2))!)  // as a click: the anchor of ranges
        fixture.press(["ctrl+Down"], from: 2)
        XCTAssertEqual(fixture.focusedID, 4)
        XCTAssertEqual(fixture.selectedIDs, [2])
        fixture.press(["shift+Up"], from: 4)
        XCTAssertEqual(fixture.focusedID, 2)
        XCTAssertEqual(fixture.selectedIDs, [2])
        fixture.press(["shift+End"], from: 2)
        XCTAssertEqual(fixture.focusedID, 5)
        XCTAssertEqual(fixture.selectedIDs, [2, 3, 4, 5], "the range, without the footer and the header")
        fixture.harness.close()
    } }

    func testDidFocusFiresForTheRowAndTheModelTheFocusMovesTo() { onMain {
        let fixture = Fixture()
        fixture.press(["Down"], from: 1)
        fixture.press(["Down"], from: 2)
        XCTAssertEqual(fixture.focused, ["row post 1 1", "model 1 [0,0]", "row post 2 2", "model 2 [0,1]",
                                         "row post 4 4", "model 4 [1,1]"])
        fixture.harness.close()
    } }

    func testFocusMovesTheKeyboardFocusToAnItemFarOffScreenWithoutSelectingIt() { onMain {
        var focused: [Int] = []
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.canFocus(withItem: Post.self) { post, _ in post.id != 3 }
            manager.didFocus(model: Post.self) { post, _ in focused.append(post.id) }
            manager.memoryStorage.addItems((0..<500).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
        }
        let manager = harness.manager!
        harness.waitForFrames()
        focused = []  // the window gave its first row the focus
        XCTAssertFalse(manager.focus(IndexPath(item: 3, section: 0)), "canFocus refuses post 3")
        XCTAssertFalse(manager.focus(IndexPath(item: 500, section: 0)), "there is no item 500")
        XCTAssertTrue(manager.focus(IndexPath(item: 420, section: 0)))
        harness.wait(until: { manager.focusedIndexPath == IndexPath(item: 420, section: 0) }, "the focus on post 420")
        XCTAssertEqual(focused, [420])
        XCTAssertEqual(manager.selectedIndexPaths, [], "focusing selects nothing")
        XCTAssertTrue(manager.focus(IndexPath(item: 1, section: 0)))
        harness.wait(until: { manager.focusedIndexPath == IndexPath(item: 1, section: 0) }, "the focus back on post 1")
        XCTAssertEqual(focused, [420, 1])
        harness.close()
    } }
}
