import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// A selected item stays selected as it moves and as items come and go around it; a
/// removed one is deselected with `didDeselect`.
final class SelectionFollowsItemsTests: XCTestCase {
    /// "Today": posts 1, 2, 3; "Earlier": posts 4, 5. Events are recorded in `events`.
    @MainActor
    private final class Fixture {
        let harness: GtkHarness
        var events: [String] = []
        var storage: MemoryStorage { harness.manager.memoryStorage }

        init(_ mode: SelectionMode = .single) {
            var recorded: (String) -> Void = { _ in }
            harness = GtkHarness(selectionMode: mode) { manager in
                manager.register(PostRow.self)
                manager.didSelect(PostRow.self) { _, post, indexPath in recorded("select \(post.id) \(describe(indexPath))") }
                manager.didDeselect(PostRow.self) { _, post, indexPath in recorded("row deselect \(post.id) \(describe(indexPath))") }
                manager.didDeselect(model: Post.self) { post, indexPath in recorded("deselect \(post.title) \(describe(indexPath))") }
                manager.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
                manager.memoryStorage.addItems((1...3).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
                manager.memoryStorage.addItems((4...5).map { Post(id: $0, title: "post \($0)") }, toSection: 1)
            }
            recorded = { [unowned self] in events.append($0) }
        }

        /// The GTK positions selected in the selection model, and the titles their rows show.
        var selectedInGTK: [String] {
            harness.manager.selection.selectedPositions().map { position in
                (harness.boundRowsByPosition[position] as? PostRow)?.title.text ?? "position \(position) not shown"
            }
        }

        func take() -> [String] {
            defer { events = [] }
            return events
        }
    }

    func testASelectedItemStaysSelectedWhenItMovesAndWhenItemsComeAndGoAroundIt() throws { try onMain {
        let fixture = Fixture()
        fixture.harness.selectRow(2)  // post 2
        XCTAssertEqual(fixture.take(), ["select 2 [0,1]"])

        fixture.storage.moveItem(at: IndexPath(item: 1, section: 0), to: IndexPath(item: 1, section: 1))
        fixture.harness.waitForFrames(1)
        XCTAssertEqual(fixture.harness.manager.selectedIndexPaths, [IndexPath(item: 1, section: 1)])
        XCTAssertEqual(fixture.selectedInGTK, ["post 2"])

        try fixture.storage.insertItem(Post(id: 6, title: "post 6"), to: IndexPath(item: 0, section: 1))
        fixture.storage.removeItems(at: [IndexPath(item: 0, section: 0)])
        fixture.harness.waitForFrames(1)
        XCTAssertEqual(fixture.harness.manager.selectedIndexPaths, [IndexPath(item: 2, section: 1)])
        XCTAssertEqual(fixture.selectedInGTK, ["post 2"])

        fixture.storage.moveSection(1, toSection: 0)
        fixture.harness.waitForFrames(1)
        XCTAssertEqual(fixture.harness.manager.selectedIndexPaths, [IndexPath(item: 2, section: 0)])
        XCTAssertEqual(fixture.selectedInGTK, ["post 2"])

        fixture.storage.reloadItem(Post(id: 2, title: "post 2, edited"))
        fixture.harness.waitForFrames(1)
        XCTAssertEqual(fixture.selectedInGTK, ["post 2, edited"])
        XCTAssertEqual(fixture.take(), [], "following an item fires no selection events")

        fixture.storage.removeItems(at: [IndexPath(item: 2, section: 0)])
        fixture.harness.waitForFrames(1)
        XCTAssertEqual(fixture.take(), ["row deselect 2 [0,2]", "deselect post 2, edited [0,2]"])
        XCTAssertEqual(fixture.harness.manager.selectedIndexPaths, [])
        XCTAssertEqual(fixture.selectedInGTK, [])
        fixture.harness.close()
    } }

    func testInMultipleModeMovedItemsStaySelectedAndRemovedOnesAreDeselected() { onMain {
        let fixture = Fixture(.multiple)
        fixture.harness.selectRow(1, modify: true)  // post 1
        fixture.harness.selectRow(3, modify: true)  // post 3
        fixture.harness.selectRow(6, modify: true)  // post 5
        XCTAssertEqual(fixture.take(), ["select 1 [0,0]", "select 3 [0,2]", "select 5 [1,1]"])

        fixture.storage.performUpdates {
            fixture.storage.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 0, section: 1))
            fixture.storage.removeItems(at: [IndexPath(item: 1, section: 0)])  // post 3, now second
            fixture.storage.addItem(Post(id: 7, title: "post 7"), toSection: 0)
        }
        fixture.harness.waitForFrames(1)
        XCTAssertEqual(fixture.take(), ["row deselect 3 [0,2]", "deselect post 3 [0,2]"])
        XCTAssertEqual(fixture.harness.manager.selectedIndexPaths, [IndexPath(item: 0, section: 1), IndexPath(item: 2, section: 1)])
        XCTAssertEqual(fixture.selectedInGTK, ["post 1", "post 5"])

        // The user's next change of selection is reported against the followed state.
        fixture.harness.selectRow(4, modify: true)  // post 1 again: deselects it
        XCTAssertEqual(fixture.take(), ["row deselect 1 [1,0]", "deselect post 1 [1,0]"])
        fixture.harness.close()
    } }

    func testReloadingEveryItemDropsTheSelectionWithDidDeselect() { onMain {
        let fixture = Fixture()
        fixture.harness.selectRow(3)  // post 3
        _ = fixture.take()
        fixture.storage.setItemsForAllSections([[Post(id: 8, title: "post 8")]])
        fixture.harness.waitForFrames(1)
        XCTAssertEqual(fixture.take(), ["row deselect 3 [0,2]", "deselect post 3 [0,2]"])
        XCTAssertEqual(fixture.harness.manager.selectedIndexPaths, [])
        fixture.harness.close()
    } }
}

private func describe(_ indexPath: IndexPath) -> String {
    "[\(indexPath.section),\(indexPath.item)]"
}
