import CGtk
import CGtkShims
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
            cgtk_shims_widget_activate_action(popover, "context.entry-\(index)", nil)
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

    func testARightButtonReleasedOverTheMenuThatPoppedUpChoosesNothing() { onMain {
        let fixture = Fixture()
        fixture.harness.click(fixture.row(3), button: 3, holding: 0.5)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Open post 4", "Delete", "Share"], "still open after the release")
        XCTAssertEqual(fixture.chosen, [])
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

    // MARK: Sections, submenus, icons, disabled and destructive entries, accelerators

    /// Two sections of posts (1…3 "Today", 4…5 "Earlier") with header and footer rows:
    /// positions 0 header, 1…3 posts, 4 footer, 5 header, 6…7 posts, 8 footer.
    @MainActor
    private final class SectionedFixture {
        let harness: GtkHarness
        var chosen: [String] = []
        var anomalies: [String] = []
        var manager: ListViewManager { harness.manager }

        init(selectionMode: SelectionMode = .single, gtkSectionHeaders: Bool = false,
             menus: (ListViewManager, @escaping @MainActor (String) -> Void) -> Void) {
            var record: @MainActor (String) -> Void = { _ in }
            harness = GtkHarness(selectionMode: selectionMode) { manager in
                manager.configuration.usesGTKSectionHeaders = gtkSectionHeaders
                manager.register(PostRow.self)
                manager.canDelete(withItem: Post.self) { post, _ in post.id != 2 }
                manager.configuration.removesDeletedItems = true
                menus(manager) { record($0) }
                manager.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
                manager.memoryStorage.setSectionFooterModels(["3 posts", "2 posts"])
                manager.memoryStorage.addItems((1...3).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
                manager.memoryStorage.addItems((4...5).map { Post(id: $0, title: "post \($0)") }, toSection: 1)
            }
            harness.manager.anomalyHandler.anomalyAction = { [unowned self] in anomalies.append($0.description) }
            record = { [unowned self] in chosen.append($0) }
        }

        /// The row widget at `position`.
        func row(_ position: Int) -> UnsafeMutablePointer<GtkWidget> {
            harness.boundRowsByPosition[position]!.rootWidget
        }

        /// GTK's widget for the row at `position`, which takes the keyboard focus.
        func focusableRow(_ position: Int) -> UnsafeMutablePointer<GtkWidget> {
            manager.itemWidget(of: harness.boundRowsByPosition[position]!)!
        }

        var popover: UnsafeMutablePointer<GtkWidget> { manager.contextMenus.popover! }

        /// The GMenu model of the menu shown, described (see `MenuReading.describe`).
        var shownModel: [String] {
            guard let model = manager.contextMenus.model else { return [] }
            return MenuReading.describe(model.menuModel)
        }

        /// The entries of the menu page GTK shows now, once its slide is over.
        func shownEntries(file: StaticString = #filePath, line: UInt = #line) -> [String] {
            var page: UnsafeMutablePointer<GtkWidget>?
            harness.wait(until: {
                page = MenuReading.shownPage(of: popover)
                return page != nil
            }, "a menu page", file: file, line: line)
            guard let page else { return [] }
            return MenuReading.modelButtons(in: page).map { MenuReading.shownEntry($0).description }
        }

        /// Clicks the entry showing `text` in the menu shown, with the mouse.
        func click(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
            let button = MenuReading.modelButtons(in: popover).first { gtk_widget_get_mapped($0) != 0 && MenuReading.shownEntry($0).text == text }
            guard let button else { return XCTFail("no entry \(text) shown", file: file, line: line) }
            harness.click(button, file: file, line: line)
        }

        func close() {
            harness.close()
        }
    }

    /// Post rows with every kind of entry.
    @MainActor
    private static func richMenus(_ manager: ListViewManager, _ record: @escaping @MainActor (String) -> Void) {
        manager.contextMenu(PostRow.self) { _, post, _ in
            [
                MenuEntry("Open", icon: "document-open", accelerator: "<Control>o") { indexPath in
                    record("open \(post.id) at [\(indexPath.section),\(indexPath.item)]")
                },
                .section("Share", [
                    MenuEntry("Copy link", accelerator: "<Control><Shift>c") { _ in record("copy \(post.id)") },
                    MenuEntry("Email", accelerator: "<Control>e", isEnabled: false) { _ in record("email \(post.id)") },
                ]),
                .section(icons: true, [
                    MenuEntry("Star", icon: "starred") { _ in record("star \(post.id)") },
                ]),
                .submenu("Move to", [
                    MenuEntry("Archive") { indexPath in record("archive \(post.id) at [\(indexPath.section),\(indexPath.item)]") },
                    MenuEntry("Drafts") { _ in record("drafts \(post.id)") },
                ]),
                .section([.delete]),
            ]
        }
    }

    func testSectionsSubmenusIconsAndAcceleratorsAreInTheMenuModelGTKShows() { onMain {
        let fixture = SectionedFixture(menus: Self.richMenus)
        fixture.harness.click(fixture.row(3), button: 3)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Open", "Copy link", "Email", "Star", "Archive", "Drafts", "Delete"])
        XCTAssertEqual(fixture.shownModel, [
            "Open ⌨<Control>o {document-open}",
            "section Share",
            "  Copy link ⌨<Control><Shift>c",
            "  Email ⌨<Control>e",
            "section (icons)",
            "  Star {starred}",
            "submenu Move to",
            "  Archive",
            "  Drafts",
            "section",
            "  Delete",
        ])
        // What GTK made of it: accelerators shown as labels, the disabled entry greyed out,
        // the icon section as an icon button, the submenu behind its entry, Delete in red.
        XCTAssertEqual(fixture.shownEntries(), [
            "Open ⌨Ctrl+O",
            "Copy link ⌨Shift+Ctrl+C",
            "Email ⌨Ctrl+E (disabled)",
            " {starred}",
            "Move to",
            "Delete (destructive)",
        ])
        fixture.close()
    } }

    func testADestructiveEntryIsShownInTheErrorColourAndDescribedAsDestructive() throws { try onMain {
        let fixture = SectionedFixture(menus: Self.richMenus)
        fixture.harness.click(fixture.row(1), button: 3)
        _ = fixture.shownEntries()
        let delete = try XCTUnwrap(MenuReading.modelButton("Delete", in: fixture.popover))
        let open = try XCTUnwrap(MenuReading.modelButton("Open", in: fixture.popover))
        func color(_ widget: UnsafeMutablePointer<GtkWidget>) -> GdkRGBA {
            var rgba = GdkRGBA()
            gtk_style_context_get_color(gtk_widget_get_style_context(widget), &rgba)
            return rgba
        }
        XCTAssertGreaterThan(color(delete).red - color(delete).green, 0.4, "Delete is red")
        XCTAssertLessThan(abs(color(open).red - color(open).green), 0.1, "Open is not")
        fixture.close()
    } }

    func testADisabledEntryCannotBeChosenAndAnEnabledOneActsOnItsRow() { onMain {
        let fixture = SectionedFixture(menus: Self.richMenus)
        fixture.harness.click(fixture.row(2), button: 3)
        _ = fixture.shownEntries()
        fixture.click("Email")
        XCTAssertEqual(fixture.chosen, [], "a click on a disabled entry does nothing")
        XCTAssertNotNil(fixture.manager.shownContextMenuTitles, "and leaves the menu open")
        cgtk_shims_widget_activate_action(fixture.popover, "context.entry-2", nil)
        XCTAssertEqual(fixture.chosen, [], "its action is disabled too")

        fixture.click("Copy link")
        XCTAssertEqual(fixture.chosen, ["copy 2"])
        XCTAssertNil(fixture.manager.shownContextMenuTitles, "choosing an entry closes the menu")
        fixture.close()
    } }

    func testASubmenuOpensFromItsEntryAndItsEntriesActOnTheRow() { onMain {
        let fixture = SectionedFixture(menus: Self.richMenus)
        fixture.harness.click(fixture.row(3), button: 3)
        _ = fixture.shownEntries()
        fixture.click("Move to")
        XCTAssertEqual(fixture.shownEntries(), ["Move to", "Archive", "Drafts"], "the submenu, under its title")
        fixture.click("Archive")
        XCTAssertEqual(fixture.chosen, ["archive 3 at [0,2]"])
        fixture.close()
    } }

    func testAnAcceleratorRunsTheEntryOfTheFocusedRowWithNoMenuOpen() { onMain {
        let fixture = SectionedFixture(menus: Self.richMenus)
        fixture.harness.press(["ctrl+o"], focusing: fixture.focusableRow(2))
        XCTAssertEqual(fixture.chosen, ["open 2 at [0,1]"])
        XCTAssertNil(fixture.manager.shownContextMenuTitles, "no menu opened")
        fixture.harness.press(["ctrl+shift+c", "ctrl+o"], focusing: fixture.focusableRow(7))
        XCTAssertEqual(fixture.chosen, ["open 2 at [0,1]", "copy 5", "open 5 at [1,1]"])
        fixture.harness.press(["ctrl+e", "ctrl+k"], focusing: fixture.focusableRow(6))
        XCTAssertEqual(fixture.chosen.count, 3, "a disabled entry's accelerator and an unknown key do nothing")
        fixture.close()
    } }

    func testAnAcceleratorGTKCannotReadIsAnAnomalyAndIsNotShown() { onMain {
        let fixture = SectionedFixture { manager, record in
            manager.contextMenu(PostRow.self) { _, _, _ in [MenuEntry("Odd", accelerator: "<Control>") { _ in record("odd") }] }
        }
        fixture.harness.click(fixture.row(1), button: 3)
        XCTAssertEqual(fixture.shownModel, ["Odd"])
        XCTAssertEqual(fixture.anomalies, ["ListViewManagerAnomaly.invalidMenuAccelerator(Odd, <Control>)"])
        fixture.close()
    } }

    // MARK: Header and footer menus

    @MainActor
    private static func sectionMenus(_ manager: ListViewManager, _ record: @escaping @MainActor (String) -> Void) {
        manager.contextMenuHeader(TitleRow.self) { row, title, indexPath in
            [MenuEntry("Collapse \(row.label.text)") { indexPath in record("collapse \(title) in section \(indexPath.section)") }, .delete]
        }
        manager.contextMenuFooter(TitleRow.self) { _, footer, _ in
            [MenuEntry("Summary", for: String.self) { models, indexPaths in record("summary \(models) at \(indexPaths.map(\.section))") }]
        }
        manager.contextMenu(PostRow.self) { _, post, _ in [MenuEntry("Open") { _ in record("open \(post.id)") }] }
    }

    func testAHeaderRowsMenuActsOnItsSectionWhereverItMoved() { onMain {
        let fixture = SectionedFixture(menus: Self.sectionMenus)
        fixture.harness.click(fixture.row(5), button: 3)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Collapse Earlier"], "no Delete: a header cannot be deleted")
        fixture.manager.memoryStorage.insertSection(SectionModel(items: [Post(id: 9, title: "post 9")], headerModel: "Pinned"), atIndex: 0)
        fixture.harness.waitForFrames()
        fixture.click("Collapse Earlier")
        XCTAssertEqual(fixture.chosen, ["collapse Earlier in section 2"], "the section moved down by one")

        fixture.harness.click(fixture.row(0), button: 3)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Collapse Pinned"])
        fixture.manager.memoryStorage.deleteSections(IndexSet([0]))
        fixture.click("Collapse Pinned")
        XCTAssertEqual(fixture.chosen.count, 1, "nothing ran for a deleted section")
        XCTAssertEqual(fixture.anomalies, ["ListViewManagerAnomaly.menuActionForRemovedItem(Collapse Pinned)"])
        fixture.close()
    } }

    func testARightClickOnASectionHeaderGTKShowsItselfOpensItsSectionsMenu() { onMain {
        // GTK 4.12 and later show the headers themselves; GTK 4.8 shows them as rows. The menu
        // is the same either way.
        let fixture = SectionedFixture(gtkSectionHeaders: true, menus: Self.sectionMenus)
        let manager = fixture.manager
        XCTAssertEqual(manager.showsNativeSectionHeaders, cgtk_shims_gtk_at_least(12) != 0)
        let header: UnsafeMutablePointer<GtkWidget>
        if manager.showsNativeSectionHeaders {
            guard let earlier = manager.headerFactory?.boundRows.first(where: { $0.row.flatRow == .header(section: 1) }) else {
                return XCTFail("GTK shows the header of section 1")
            }
            header = earlier.row.row.rootWidget
        } else {
            header = fixture.row(5)
        }
        fixture.harness.click(header, button: 3)
        XCTAssertEqual(manager.shownContextMenuTitles, ["Collapse Earlier"])
        fixture.click("Collapse Earlier")
        XCTAssertEqual(fixture.chosen, ["collapse Earlier in section 1"])
        fixture.close()
    } }

    func testAFooterRowsMenuGetsItsModel() { onMain {
        let fixture = SectionedFixture(menus: Self.sectionMenus)
        fixture.harness.click(fixture.row(4), button: 3)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Summary"])
        fixture.click("Summary")
        XCTAssertEqual(fixture.chosen, ["summary [\"3 posts\"] at [0]"])
        fixture.harness.click(fixture.row(2), button: 3)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Open"], "an item's own menu")
        fixture.close()
    } }

    // MARK: Selection menus

    @MainActor
    private static func selectionMenus(_ manager: ListViewManager, _ record: @escaping @MainActor (String) -> Void) {
        manager.contextMenu(PostRow.self) { _, post, _ in [MenuEntry("Open \(post.id)") { _ in record("open \(post.id)") }] }
        manager.contextMenu(forSelection: Post.self) { posts, _ in
            [
                MenuEntry("Archive \(posts.count) posts", for: Post.self, accelerator: "<Control>a") { posts, indexPaths in
                    record("archive \(posts.map(\.id)) at \(indexPaths.map { [$0.section, $0.item] })")
                },
                MenuEntry("Mark read", accelerator: "<Control>r") { indexPath in record("read [\(indexPath.section),\(indexPath.item)]") },
                .delete,
            ]
        }
    }

    func testARightClickOnOneOfSeveralSelectedItemsOpensTheSelectionsMenu() { onMain {
        let fixture = SectionedFixture(selectionMode: .multiple, menus: Self.selectionMenus)
        fixture.harness.click(fixture.row(1))
        fixture.harness.click(fixture.row(6), keys: ["ctrl"])
        fixture.harness.click(fixture.row(3), keys: ["ctrl"])
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [IndexPath(item: 0, section: 0), IndexPath(item: 2, section: 0), IndexPath(item: 0, section: 1)])

        fixture.harness.click(fixture.row(3), button: 3)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Archive 3 posts", "Mark read", "Delete"])
        try? fixture.manager.memoryStorage.insertItem(Post(id: 9, title: "post 9"), to: IndexPath(item: 0, section: 0))
        fixture.harness.waitForFrames()
        fixture.click("Archive 3 posts")
        XCTAssertEqual(fixture.chosen, ["archive [1, 3, 4] at [[0, 1], [0, 3], [1, 0]]"], "every selected item, where it is now")

        fixture.harness.click(fixture.row(3), button: 3)
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Open 2"], "an unselected item's own menu")
        fixture.manager.contextMenus.close()
        fixture.close()
    } }

    func testSelectionMenuEntriesActOnEverySelectedItemFromTheKeyboardToo() { onMain {
        let fixture = SectionedFixture(selectionMode: .multiple, menus: Self.selectionMenus)
        fixture.harness.click(fixture.row(1))
        fixture.harness.click(fixture.row(2), keys: ["ctrl"])
        fixture.harness.click(fixture.row(7), keys: ["ctrl"])
        fixture.harness.press(["ctrl+r"], focusing: fixture.focusableRow(7))
        XCTAssertEqual(fixture.chosen, ["read [1,1]", "read [0,1]", "read [0,0]"], "once per item, the last first")

        fixture.harness.press(["Menu"], focusing: fixture.focusableRow(2))
        XCTAssertEqual(fixture.manager.shownContextMenuTitles, ["Archive 3 posts", "Mark read", "Delete"])
        fixture.click("Delete")
        let ids = (0..<2).map { section in (fixture.manager.memoryStorage.items(inSection: section) ?? []).compactMap { ($0 as? Post)?.id } }
        XCTAssertEqual(ids, [[2, 3], [4]], "the selected items that can be deleted were (post 2 cannot)")
        fixture.close()
    } }
}
