import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// Context menus: opened by a right click, a long press, Shift+F10 and the Menu key;
/// entries typed by row and model; actions that follow their item or report its removal.
final class ContextMenuTests: XCTestCase {
    /// Posts 1…5 in one section and a weather item; posts can be deleted, except post 2.
    @MainActor
    private final class Fixture {
        let harness: GtkHarness
        var chosen: [String] = []
        var anomalies: [String] = []
        var manager: ListViewManager { harness.manager }

        init() {
            var record: (String) -> Void = { _ in }
            harness = GtkHarness { manager in
                manager.register(PostRow.self)
                manager.register(WeatherRow.self)
                manager.canDelete(withItem: Post.self) { post, _ in post.id != 2 }
                manager.configuration.removesDeletedItems = true
                manager.contextMenu(PostRow.self) { row, post, _ in
                    [MenuEntry("Open \(row.title.text)") { indexPath in record("open \(post.id) at [\(indexPath.section),\(indexPath.item)]") }, .delete]
                }
                manager.contextMenu(model: Post.self) { post, _ in
                    [MenuEntry("Share") { _ in record("share \(post.id)") }]
                }
                manager.memoryStorage.addItems((1...5).map { Post(id: $0, title: "post \($0)") } as [Any] + [Weather.sunny])
            }
            harness.manager.anomalyHandler.anomalyAction = { [unowned self] in anomalies.append($0.description) }
            record = { [unowned self] in chosen.append($0) }
        }

        /// The row widget at `position`.
        func row(_ position: Int) -> UnsafeMutablePointer<GtkWidget> {
            harness.boundRowsByPosition[position]!.rootWidget
        }

        /// Chooses entry `index` of the shown menu, as clicking it does (its action).
        func choose(_ index: Int) {
            guard let popover = manager.contextMenus.popover else { return XCTFail("no menu") }
            gtk_widget_activate_action_variant(popover, "context.entry-\(index)", nil)
            harness.iterate()
        }

        /// Closes the window (and with it any menu left open).
        func close() {
            harness.close()
            XCTAssertNil(manager.shownContextMenuTitles)
        }
    }

    func testARightClickOpensTheRowsMenuAndAnEntryRunsItsTypedAction() throws { try onMain {
        let fixture = Fixture()
        XCTAssertNil(fixture.manager.shownContextMenuTitles)
        fixture.harness.click(fixture.row(2), button: 3)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Open post 3", "Delete", "Share"])
        fixture.choose(0)
        XCTAssertEqual(fixture.chosen, ["open 3 at [0,2]"])
        XCTAssertNil(fixture.manager.shownContextMenuTitles, "choosing an entry closes the menu")

        fixture.harness.click(fixture.row(1), button: 3)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Open post 2", "Share"], "post 2 can't be deleted: no Delete entry")
        fixture.harness.press(["Escape"], focusing: try XCTUnwrap(fixture.manager.contextMenus.popover))
        XCTAssertNil(fixture.manager.shownContextMenuTitles, "Escape closes the menu")
        fixture.harness.click(fixture.row(5), button: 3)
        XCTAssertNil(fixture.manager.shownContextMenuTitles, "the weather row has no menu")
        fixture.close()
    } }

    func testALongPressOpensTheMenu() { onMain {
        let fixture = Fixture()
        fixture.harness.click(fixture.row(3), holding: 1.0)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Open post 4", "Delete", "Share"])
        fixture.close()
    } }

    func testShiftF10AndTheMenuKeyOpenTheMenuOfTheFocusedRow() { onMain {
        let fixture = Fixture()
        fixture.harness.selectRow(4)
        fixture.harness.press(["shift+F10"], focusing: gtk_widget_get_parent(fixture.row(4))!)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Open post 5", "Delete", "Share"])
        fixture.manager.contextMenus.close()
        fixture.harness.iterate()
        fixture.harness.press(["Menu"], focusing: gtk_widget_get_parent(fixture.row(0))!)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Open post 1", "Delete", "Share"])
        fixture.close()
    } }

    func testEntriesFollowTheirItemAndAChosenEntryOfARemovedItemIsAnAnomaly() throws { try onMain {
        let fixture = Fixture()
        XCTAssertTrue(fixture.manager.openContextMenu(at: IndexPath(item: 2, section: 0)))
        try fixture.manager.memoryStorage.insertItem(Post(id: 9, title: "post 9"), to: IndexPath(item: 0, section: 0))
        fixture.choose(0)
        XCTAssertEqual(fixture.chosen, ["open 3 at [0,3]"], "the item moved down by one")

        XCTAssertTrue(fixture.manager.openContextMenu(at: IndexPath(item: 3, section: 0)))
        fixture.manager.memoryStorage.removeItems(at: [IndexPath(item: 3, section: 0)])
        fixture.choose(0)
        XCTAssertEqual(fixture.chosen, ["open 3 at [0,3]"], "nothing more ran")
        XCTAssertEqual(fixture.anomalies, ["ListViewManagerAnomaly.menuActionForRemovedItem(Open post 3)"])
        fixture.close()
    } }

    func testTheDeleteEntryDeletesLikeTheDeleteKey() { onMain {
        let fixture = Fixture()
        XCTAssertTrue(fixture.manager.openContextMenu(at: IndexPath(item: 0, section: 0)))
        fixture.choose(1)
        let ids = (fixture.manager.memoryStorage.items(inSection: 0) ?? []).compactMap { ($0 as? Post)?.id }
        XCTAssertEqual(ids, [2, 3, 4, 5])
        fixture.close()
    } }
}
