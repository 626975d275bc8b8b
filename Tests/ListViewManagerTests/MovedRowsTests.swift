import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// Rows that an update moves: GTK 4.8 binds each of them again, GTK 4.12 and later only move
/// them, and the manager follows them itself. Either way a row shows and answers for its new
/// place, and an update costs what it moved, not what is on screen.
final class MovedRowsTests: XCTestCase {
    func testAnInsertBelowTheRowsOnScreenLooksAtNoneOfThemAndOneAboveLooksAtThoseAfterIt() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.memoryStorage.addItems((0..<1000).map { Post(id: $0, title: "\($0)") })
        }
        let factory = harness.manager.factory
        let onScreen = harness.boundRowsByPosition.keys.sorted()
        XCTAssertGreaterThan(onScreen.count, 5)
        XCTAssertLessThan(onScreen.last!, 500, "a few rows are on screen, not the whole list")
        let storage = harness.manager.memoryStorage!
        let (followed, updated) = (factory.followedCount, factory.updateCount)

        try? storage.insertItem(Post(id: 5000, title: "far below"), to: IndexPath(item: 900, section: 0))
        harness.waitForFrames()
        XCTAssertEqual(factory.followedCount, followed, "no row on screen is looked at again")
        XCTAssertEqual(factory.updateCount, updated, "nor bound again")

        try? storage.insertItem(Post(id: 5001, title: "third"), to: IndexPath(item: 2, section: 0))
        // GTK 4.8 binds each shifted row again itself; later GTKs leave them to the manager, which
        // looks at the bound rows from the first change on.
        let fromThird = factory.boundRows.filter { gtk_list_item_get_position($0.listItem) >= 2 }.count
        XCTAssertEqual(factory.followedCount - followed, RowFactory.rebindsMovedRows ? 0 : fromThird)
        harness.waitForFrames()
        XCTAssertEqual((harness.boundRowsByPosition[3] as? PostRow)?.title.text, "2")
        harness.close()
    } }

    func testATooltipAndASelectionFilterOnTheIndexPathFollowTheRowsThatMove() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.tooltip(model: Post.self) { post, indexPath in "\(post.title) at \(indexPath.item)" }
            manager.canSelect(withItem: Post.self) { _, indexPath in indexPath.item != 0 }
            manager.memoryStorage.addItems([Post(id: 1, title: "a"), Post(id: 2, title: "b"), Post(id: 3, title: "c")])
        }
        @MainActor func showsTooltip(_ position: Int, _ text: String) {
            harness.hover(harness.boundRowsByPosition[position]!.rootWidget, untilTooltip: text)
        }
        @MainActor func selectable(_ position: Int) -> Bool {
            harness.manager.factory.boundListItem(at: position).map { gtk_list_item_get_selectable($0) != 0 } ?? false
        }
        for (position, text) in ["a at 0", "b at 1", "c at 2"].enumerated() { showsTooltip(position, text) }
        XCTAssertEqual([selectable(0), selectable(1)], [false, true])

        harness.manager.memoryStorage.removeItems(at: [IndexPath(item: 0, section: 0)])
        harness.waitForFrames()
        for (position, text) in ["b at 0", "c at 1"].enumerated() { showsTooltip(position, text) }
        XCTAssertEqual([selectable(0), selectable(1)], [false, true], "the first row cannot be selected, whichever it is")
        harness.selectRow(0)
        XCTAssertEqual(harness.manager.selectedIndexPaths, [])
        harness.close()
    } }
}
