import CGtk
import CGtkTestShims
import Foundation
@testable import ListViewManager
import ModelStorage
import XCTest
import GtkTestSupport

/// A `TreeStorage` in a real list view: rows indented under their parents with an expander
/// arrow, GTK's tree keys and a click on the arrow expanding and collapsing, children read
/// later with a "Loading…" row, `didExpand` and `didCollapse`, one `items-changed` per
/// expansion.
final class TreeTests: XCTestCase {
    struct Folder: Identifiable, Hashable {
        let id: String
    }

    @MainActor
    final class FolderRow: ListRow, ModelTransfer {
        let name = Label()
        required init() {
            super.init()
            append(name)
        }
        func update(with model: Folder) { name.text = model.id }
    }

    @MainActor
    private final class Fixture {
        let harness: GtkHarness
        let tree: TreeStorage
        var events: [String] = []
        var manager: ListViewManager { harness.manager }

        /// A window showing `items`, with `registering` run before `FolderRow` is registered
        /// (a mapping registered first is tried first).
        init(_ items: [TreeItem], registering: (ListViewManager) -> Void = { _ in }) {
            let tree = TreeStorage(items: items)
            self.tree = tree
            var recorded: (String) -> Void = { _ in }
            harness = GtkHarness { manager in
                manager.storage = tree
                registering(manager)
                manager.register(FolderRow.self)
                manager.didExpand(model: Folder.self) { folder, path in recorded("expand \(folder.id) \(path.shortDescription)") }
                manager.didCollapse(model: Folder.self) { folder, path in recorded("collapse \(folder.id) \(path.shortDescription)") }
            }
            recorded = { [unowned self] in events.append($0) }
        }

        /// What the rows GTK shows say, in order, each indented by two spaces per level.
        var shownRows: [String] {
            harness.boundRowsByPosition.sorted { $0.key < $1.key }.map { position, row in
                let depth = tree.depth(ofRow: position) ?? 0
                let text: String
                switch row {
                case let row as FolderRow: text = row.name.text
                case let row as SubfolderRow: text = row.name.text
                case let row as ChildrenLoadingRow: text = row.label.text
                case let row as ChildrenLoadingFailedRow: text = row.label.text
                default: text = "\(type(of: row))"
                }
                return String(repeating: "  ", count: depth) + text
            }
        }

        func listItem(showing id: String) -> OpaquePointer {
            let position = (0..<tree.rowCount).first { (tree.item(at: IndexPath(item: $0, section: 0)) as? Folder)?.id == id }!
            return manager.factory.boundListItem(at: position)!
        }

        func press(_ keys: [String], on id: String) {
            let widget = gtk_widget_get_parent(gtk_list_item_get_child(listItem(showing: id))!)!
            harness.press(keys, focusing: widget)
            harness.waitForFrames()
        }

        /// The expander arrow of the row showing `id`.
        func arrow(of id: String) -> UnsafeMutablePointer<GtkWidget> {
            gtk_widget_get_first_child(manager.factory.disclosure(of: listItem(showing: id))!.box.pointer)!
        }

        var focusedID: String? {
            manager.focusedIndexPath.flatMap { tree.item(at: $0) as? Folder }?.id
        }
    }

    private static func folder(_ id: String, _ children: [TreeItem]) -> TreeItem {
        TreeItem(Folder(id: id), children: children)
    }

    private static func leaf(_ id: String) -> TreeItem {
        TreeItem(Folder(id: id))
    }

    private static var music: [TreeItem] { [
        folder("Music", [leaf("Bach"), folder("Satie", [leaf("Gymnopédie")])]),
        folder("Notes", []),
        leaf("Todo"),
    ] }

    func testGTKsTreeKeysExpandCollapseAndMoveBetweenParentAndChild() { onMain {
        let fixture = Fixture(Self.music)
        XCTAssertEqual(fixture.shownRows, ["Music", "Notes", "Todo"])
        fixture.press(["plus"], on: "Music")
        XCTAssertEqual(fixture.shownRows, ["Music", "  Bach", "  Satie", "Notes", "Todo"])
        XCTAssertEqual(fixture.events, ["expand Music [0]"])
        fixture.press(["Right"], on: "Music")
        XCTAssertEqual(fixture.focusedID, "Bach", "Right on an expanded item goes to its first child")
        fixture.press(["Left"], on: "Bach")
        XCTAssertEqual(fixture.focusedID, "Music", "Left on a child goes to its parent")
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [IndexPath(item: 0, section: 0)], "and selects it, as the arrow keys do")
        fixture.press(["minus"], on: "Music")
        XCTAssertEqual(fixture.shownRows, ["Music", "Notes", "Todo"])
        fixture.press(["shift+Right"], on: "Music")
        XCTAssertEqual(fixture.shownRows, ["Music", "  Bach", "  Satie", "Notes", "Todo"])
        fixture.press(["asterisk"], on: "Music")
        XCTAssertEqual(fixture.shownRows, ["Music", "  Bach", "  Satie", "    Gymnopédie", "Notes", "Todo"], "* expands everything below")
        fixture.press(["Left"], on: "Satie")
        XCTAssertEqual(fixture.shownRows, ["Music", "  Bach", "  Satie", "Notes", "Todo"], "Left collapses an expanded item")
        fixture.press(["shift+Left"], on: "Music")
        XCTAssertEqual(fixture.shownRows, ["Music", "Notes", "Todo"])
        fixture.press(["plus"], on: "Notes")
        fixture.press(["plus"], on: "Todo")
        XCTAssertEqual(fixture.shownRows, ["Music", "Notes", "Todo"], "items without children do not expand")
        XCTAssertEqual(fixture.events, ["expand Music [0]", "collapse Music [0]", "expand Music [0]", "expand Satie [0, 1]",
                                        "collapse Satie [0, 1]", "collapse Music [0]"])
        fixture.harness.close()
    } }

    func testAClickOnTheArrowTogglesAndRowsAreIndentedByDepth() { onMain {
        let fixture = Fixture(Self.music)
        fixture.harness.click(fixture.arrow(of: "Music"))
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.shownRows, ["Music", "  Bach", "  Satie", "Notes", "Todo"])
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [], "the arrow does not select the row")
        fixture.harness.click(fixture.arrow(of: "Satie"))
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.shownRows, ["Music", "  Bach", "  Satie", "    Gymnopédie", "Notes", "Todo"])
        if let path = ProcessInfo.processInfo.environment["TREE_SCREENSHOT"] { fixture.harness.screenshot(to: path) }
        XCTAssertEqual(gtk_widget_get_margin_start(fixture.arrow(of: "Gymnopédie")), 32, "two levels of indent")
        XCTAssertEqual(gtk_widget_get_opacity(fixture.arrow(of: "Gymnopédie")), 0, "a leaf shows no arrow")
        XCTAssertEqual(gtk_widget_get_opacity(fixture.arrow(of: "Satie")), 1)
        XCTAssertTrue(gtk_widget_get_state_flags(fixture.arrow(of: "Satie")).rawValue & GTK_STATE_FLAG_CHECKED.rawValue != 0)
        // What screen readers are told of each row (GTK's widget for the row): level and state.
        let itemWidget = { (id: String) in gtk_widget_get_parent(gtk_list_item_get_child(fixture.listItem(showing: id))!)! }
        XCTAssertTrue(cgtk_shims_accessible_tree_item_is(itemWidget("Music"), 1, 1) != 0, "Music: level 1, expanded")
        XCTAssertTrue(cgtk_shims_accessible_tree_item_is(itemWidget("Satie"), 2, 1) != 0, "Satie: level 2, expanded")
        XCTAssertTrue(cgtk_shims_accessible_tree_item_is(itemWidget("Gymnopédie"), 3, -1) != 0, "Gymnopédie: level 3, no children")
        XCTAssertTrue(cgtk_shims_accessible_tree_item_is(itemWidget("Notes"), 1, -1) != 0, "Notes: no children to show")
        fixture.harness.click(fixture.arrow(of: "Music"))
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.shownRows, ["Music", "Notes", "Todo"])
        XCTAssertTrue(cgtk_shims_accessible_tree_item_is(itemWidget("Music"), 1, 0) != 0, "Music: collapsed")
        XCTAssertTrue(fixture.tree.isExpanded(at: [0, 1]), "Satie stays expanded inside its collapsed parent")
        fixture.harness.click(fixture.arrow(of: "Music"))
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.shownRows, ["Music", "  Bach", "  Satie", "    Gymnopédie", "Notes", "Todo"])
        fixture.harness.close()
    } }

    func testChildrenReadLaterShowLoadingThenTheChildrenOrTheError() { onMain {
        let fixture = Fixture([TreeItem(Folder(id: "Photos"), childrenLater: true), Self.leaf("Todo")])
        var deliveries: [(Result<[TreeItem], any Error>) -> Void] = []
        var asked: [String] = []
        fixture.tree.childrenProvider = { model, path, deliver in
            asked.append("\((model as! Folder).id) \(path.shortDescription)")
            deliveries.append(deliver)
        }
        fixture.press(["plus"], on: "Photos")
        XCTAssertEqual(fixture.shownRows, ["Photos", "  Loading…", "Todo"])
        XCTAssertEqual(asked, ["Photos [0]"])
        struct Unreadable: Error, CustomStringConvertible { var description: String { "permission denied" } }
        deliveries.removeFirst()(.failure(Unreadable()))
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.shownRows, ["Photos", "  Could not load: permission denied", "Todo"])
        fixture.press(["minus"], on: "Photos")
        fixture.press(["plus"], on: "Photos")
        XCTAssertEqual(asked, ["Photos [0]", "Photos [0]"], "expanding again after a failure asks again")
        XCTAssertEqual(fixture.shownRows, ["Photos", "  Loading…", "Todo"])
        deliveries.removeFirst()(.success([Self.leaf("Cats"), Self.leaf("Holidays")]))
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.shownRows, ["Photos", "  Cats", "  Holidays", "Todo"])
        fixture.harness.close()
    } }

    func testExpandingAHundredThousandChildrenIsOneItemsChanged() throws { try onMain {
        let children = (0..<100_000).map { Self.leaf("child \($0)") }
        let fixture = Fixture([Self.leaf("Before"), Self.folder("Big", children), Self.leaf("After")])
        let recorder = ItemsChangedRecorder(fixture.manager.bridge.listModel) { _ in "" }
        try fixture.tree.expand(at: [1])
        XCTAssertEqual(recorder.take(), ["2+100000"])
        fixture.harness.waitForFrames()
        XCTAssertEqual(Array(fixture.shownRows.prefix(3)), ["Before", "Big", "  child 0"])
        try fixture.tree.collapse(at: [1])
        XCTAssertEqual(recorder.take(), ["2-100000"])
        try fixture.tree.expandAll()
        XCTAssertEqual(recorder.take(), ["2+100000"], "one place gains rows: one insert")
        recorder.disconnect()
        fixture.harness.close()
    } }

    func testAColumnViewShowsTheTreeInItsFirstColumn() { onMain {
        openTestDisplay()
        let tree = TreeStorage(items: Self.music)
        let manager = ColumnViewManager(storage: tree)
        manager.addColumn(TableColumn("Name", \Folder.id))
        manager.addColumn(TableColumn("Letters", text: { (folder: Folder) in String(folder.id.count) }))
        let harness = GtkHarness(showing: { manager })
        @MainActor func cells(at position: Int) -> [String] {
            manager.columnFactories.map { factory in
                guard let listItem = factory.boundListItem(at: position), let cell = factory.attached[listItem]?.row as? TextCell else { return "-" }
                let margin = factory.disclosure(of: listItem).map { gtk_widget_get_margin_start(gtk_widget_get_first_child($0.box.pointer)) }
                return cell.text + (margin.map { " @\($0)" } ?? "")
            }
        }
        let musicCell = manager.columnFactories[0].boundListItem(at: 0)!
        harness.press(["plus"], focusing: gtk_widget_get_parent(gtk_list_item_get_child(musicCell)!)!)
        harness.waitForFrames()
        XCTAssertEqual(tree.rowCount, 5)
        XCTAssertEqual(cells(at: 0), ["Music @0", "5"], "the first column's cells have the arrow, the others not")
        XCTAssertEqual(cells(at: 2), ["Satie @16", "5"])
        try? tree.expand(at: [0, 1])
        harness.waitForFrames()
        XCTAssertEqual(cells(at: 3), ["Gymnopédie @32", "10"])
        harness.close()
    } }

    func testTheSelectionFollowsItsItemAndMovesToTheItemThatHidesIt() { onMain {
        let fixture = Fixture(Self.music)
        fixture.harness.click(fixture.harness.viewManager.factory.itemWidget(at: 1)!)
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [IndexPath(item: 1, section: 0)], "Notes")
        fixture.press(["plus"], on: "Music")
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [IndexPath(item: 3, section: 0)], "Notes, below Music's children")
        XCTAssertEqual(fixture.focusedID, "Music")
        fixture.press(["Right"], on: "Music")
        XCTAssertEqual(fixture.focusedID, "Bach")
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [IndexPath(item: 1, section: 0)], "Bach")
        fixture.harness.click(fixture.arrow(of: "Music"))
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.shownRows, ["Music", "Notes", "Todo"])
        XCTAssertEqual(fixture.focusedID, "Music", "the focus goes to the item that hid its row")
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [IndexPath(item: 0, section: 0)], "and so does the selection")
        fixture.harness.close()
    } }

    @MainActor
    final class SubfolderRow: ListRow, ModelTransfer {
        let name = Label()
        required init() {
            super.init()
            append(name)
        }
        func update(with model: Folder) { name.text = "sub " + model.id }
    }

    func testAMappingCanApplyAtOneDepthOnly() throws { try onMain {
        let fixture = Fixture(Self.music) { $0.register(SubfolderRow.self) { $0.condition = .depth(1) } }
        try fixture.tree.expandAll()
        fixture.harness.waitForFrames()
        let types = fixture.harness.boundRowsByPosition.sorted { $0.key < $1.key }.map { "\(type(of: $0.value))" }
        XCTAssertEqual(types, ["FolderRow", "SubfolderRow", "SubfolderRow", "FolderRow", "FolderRow", "FolderRow"],
                       "Music, Bach, Satie, Gymnopédie, Notes, Todo: the second level's rows are subfolder rows")
        try fixture.tree.collapse(at: [0, 1])
        try fixture.tree.moveItem(from: [0, 1], to: [1])
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.shownRows, ["Music", "  sub Bach", "Satie", "Notes", "Todo"], "Satie keeps its row, one level up")
        let moved = fixture.harness.boundRowsByPosition.sorted { $0.key < $1.key }.map { "\(type(of: $0.value))" }
        XCTAssertEqual(moved, ["FolderRow", "SubfolderRow", "FolderRow", "FolderRow", "FolderRow"], "a top item's row type")
        XCTAssertEqual(gtk_widget_get_margin_start(fixture.arrow(of: "Satie")), 0, "and a top item's indent")
        fixture.harness.close()
    } }
}
