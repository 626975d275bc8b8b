import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// A sectioned grid in a real window: sections as full-width headers and footers around
/// strips of tiles, laid out by the width, following storage changes with splices of strips.
final class SectionedGridTests: XCTestCase {
    /// Three sections ("Day 0"…"Day 2", footers "10 photos") of 10 posts each, tiles 150 wide.
    @MainActor
    private final class Fixture {
        let harness: GtkHarness
        let grid: SectionedGridViewManager
        var selected: [String] = []

        init(selectionMode: SelectionMode = .single, width: Int32 = 720, columns: Int = 4,
             configure: (SectionedGridViewManager) -> Void = { _ in }) {
            var made: SectionedGridViewManager!
            var record: (String) -> Void = { _ in }
            harness = GtkHarness(showing: {
                let grid = SectionedGridViewManager(selectionMode: selectionMode, maxColumns: 7)
                grid.itemSize = (width: 150, height: 60)
                grid.register(PostRow.self)
                grid.memoryStorage.setSectionHeaderModels((0..<3).map { "Day \($0)" })
                grid.memoryStorage.setSectionFooterModels((0..<3).map { _ in "10 photos" })
                for section in 0..<3 {
                    grid.memoryStorage.addItems((0..<10).map { Post(id: section * 10 + $0, title: "post \(section * 10 + $0)") }, toSection: section)
                }
                grid.didSelect(PostRow.self) { _, post, indexPath in record("select \(post.id) [\(indexPath.section),\(indexPath.item)]") }
                grid.didDeselect(PostRow.self) { _, post, _ in record("deselect \(post.id)") }
                configure(grid)
                made = grid
                return grid
            })
            grid = made
            record = { [unowned self] in selected.append($0) }
            setWidth(width, columns: columns)
        }

        /// Makes the grid's scrolled window `width` pixels wide and waits for the re-flow to
        /// `columns` columns (a tile is 174 pixels wide: 150 and a row's margins).
        func setWidth(_ width: Int32, columns: Int) {
            gtk_widget_set_halign(harness.list, GTK_ALIGN_START)
            gtk_widget_set_size_request(harness.list, width, -1)
            harness.waitForFrames()
            harness.wait(until: { grid.columns == columns }, "\(columns) columns at \(width) pixels, not \(grid.columns)")
            harness.waitForFrames()
        }

        /// The tile slots on screen, by the position of the item each shows.
        var tiles: [Int: UnsafeMutablePointer<GtkWidget>] {
            Dictionary(grid.stripFactory.boundTiles.map { ($0.position, $0.slot) }, uniquingKeysWith: { first, _ in first })
        }

        func tile(_ indexPath: IndexPath) -> UnsafeMutablePointer<GtkWidget> {
            tiles[grid.position(of: indexPath)!]!
        }

        func width(of widget: UnsafeMutablePointer<GtkWidget>) -> Int {
            Int(gtk_widget_get_width(widget))
        }

        func take() -> [String] {
            defer { selected = [] }
            return selected
        }
    }

    func testTilesFlowInStripsAsWideAsTheGridAllowsAndHeadersSpanIt() { onMain {
        let fixture = Fixture(width: 380, columns: 2)
        for (width, columns) in [(Int32(380), 2), (560, 3), (900, 5)] {
            fixture.setWidth(width, columns: columns)
            XCTAssertEqual(fixture.grid.columns, columns, "\(width) pixels")
            let grid = fixture.grid
            // The first section: its header, ceil(10 / columns) strips, its footer.
            XCTAssertEqual(grid.stripRow(at: 0), .header(section: 0))
            XCTAssertEqual(grid.stripRow(at: 1), .strip(section: 0, items: 0..<columns))
            let strips = (10 + columns - 1) / columns
            XCTAssertEqual(grid.stripRow(at: 1 + strips), .footer(section: 0), "\(width) pixels")
            // Each tile a column wide; the header row as wide as the grid.
            let listWidth = fixture.width(of: grid.view)
            for item in 0..<columns {
                let tile = fixture.tile(IndexPath(item: item, section: 0))
                XCTAssertEqual(Double(fixture.width(of: tile)), Double(listWidth) / Double(columns), accuracy: 2, "tile \(item) at \(width) pixels")
            }
            let header = grid.boundRows(at: grid.bridge.layout.position(of: .header(section: 0))!).first!.row.row
            let headerSlot = grid.stripFactory.slot(containing: header.rootWidget)!
            XCTAssertEqual(Double(fixture.width(of: headerSlot)), Double(listWidth), accuracy: 4,
                           "the header spans the grid (less the padding of GTK's row) at \(width) pixels")
            XCTAssertEqual((grid.row(at: IndexPath(item: columns, section: 0)) as? PostRow)?.title.text, "post \(columns)",
                           "the first tile of the second strip")
        }
        fixture.harness.close()
    } }

    func testStorageChangesSpliceOnlyTheStripsFromTheChangeToItsSectionsEnd() { onMain {
        let fixture = Fixture()  // 4 columns: each section is a header, 3 strips, a footer
        let grid = fixture.grid
        let strips = ItemsChangedRecorder(grid.strips.listModel, describe: describeRowItem)
        let storage = grid.memoryStorage!
        try? storage.insertItem(Post(id: 100, title: "new"), to: IndexPath(item: 3, section: 1))
        XCTAssertEqual(strips.take(), ["6-3+3"], "section 1's strips from item 3 (strip 0) on; 11 items still take 3 strips")
        try? storage.insertItem(Post(id: 101, title: "newer"), to: IndexPath(item: 11, section: 1))
        XCTAssertEqual(strips.take(), ["8-1+1"], "only the last strip, which had room")
        try? storage.insertItem(Post(id: 102, title: "newest"), to: IndexPath(item: 12, section: 1))
        XCTAssertEqual(strips.take(), ["9+1"], "a strip more, after the last")
        storage.moveItem(at: IndexPath(item: 9, section: 0), to: IndexPath(item: 0, section: 2))
        XCTAssertEqual(strips.take(), ["3-1+1", "12-3+3"], "the last strip of section 0 is re-laid out, and section 2 from its first")
        try? storage.replaceItem(Post(id: 21, title: "post 21"), with: Post(id: 21, title: "retitled"))
        XCTAssertEqual(strips.take(), [], "a content update splices nothing")
        fixture.harness.waitForFrames()
        XCTAssertEqual((grid.row(at: IndexPath(item: 2, section: 2)) as? PostRow)?.title.text, "retitled", "the tile was updated in place")
        XCTAssertEqual(strips.shadow, strips.fetchAll(), "the splices replayed give the model GTK sees")
        XCTAssertEqual((grid.row(at: IndexPath(item: 0, section: 2)) as? PostRow)?.title.text, "post 9")
        strips.disconnect()
        fixture.harness.close()
    } }

    func testClicksSelectTilesAndTheSelectionSurvivesAReflow() { onMain {
        let fixture = Fixture(selectionMode: .multiple)
        let grid = fixture.grid
        fixture.harness.click(fixture.tile(IndexPath(item: 1, section: 0)))
        XCTAssertEqual(fixture.take(), ["select 1 [0,1]"])
        fixture.harness.click(fixture.tile(IndexPath(item: 2, section: 1)), keys: ["ctrl"])
        XCTAssertEqual(fixture.take(), ["select 12 [1,2]"])
        fixture.harness.click(fixture.tile(IndexPath(item: 0, section: 1)), keys: ["shift"])
        XCTAssertEqual(grid.selectedIndexPaths, [IndexPath(item: 0, section: 1), IndexPath(item: 1, section: 1), IndexPath(item: 2, section: 1)],
                       "Shift selects the range from the last click, and only it")
        XCTAssertEqual(Set(fixture.take()), ["deselect 1", "select 10 [1,0]", "select 11 [1,1]"])
        let isSelected = { (indexPath: IndexPath) in gtk_widget_get_state_flags(fixture.tile(indexPath)).rawValue & GTK_STATE_FLAG_SELECTED.rawValue != 0 }
        XCTAssertTrue(isSelected(IndexPath(item: 1, section: 1)))
        XCTAssertFalse(isSelected(IndexPath(item: 1, section: 0)))

        XCTAssertEqual(grid.focusedIndexPath, IndexPath(item: 0, section: 1), "the last tile clicked has the focus")
        fixture.setWidth(380, columns: 2)
        XCTAssertEqual(grid.selectedIndexPaths, [IndexPath(item: 0, section: 1), IndexPath(item: 1, section: 1), IndexPath(item: 2, section: 1)],
                       "a re-flow keeps the selection")
        fixture.harness.wait(until: { grid.focusedIndexPath == IndexPath(item: 0, section: 1) },
                             "and the focus on its item, whose tile is another now, not \(String(describing: grid.focusedIndexPath))")
        XCTAssertEqual(fixture.take(), [], "and fires nothing")
        grid.scrollTo(IndexPath(item: 1, section: 1))
        fixture.harness.waitForFrames()
        XCTAssertTrue(isSelected(IndexPath(item: 1, section: 1)), "and the tiles show it")
        fixture.harness.close()
    } }

    func testKeysMoveBetweenTilesAcrossStripsAndSectionsAndSelectAsTheyGo() { onMain {
        let fixture = Fixture()  // 4 columns: each section's items in strips 0-3, 4-7, 8-9
        let grid = fixture.grid
        var activated: [Int] = []
        grid.didActivate(PostRow.self) { _, post, _ in activated.append(post.id) }
        @MainActor func press(_ keys: [String], from indexPath: IndexPath) -> IndexPath? {
            fixture.harness.press(keys, focusing: fixture.tile(indexPath))
            fixture.harness.waitForFrames()
            return grid.focusedIndexPath
        }
        let path = { (section: Int, item: Int) in IndexPath(item: item, section: section) }
        XCTAssertEqual(press(["Down"], from: path(0, 1)), path(0, 5))
        XCTAssertEqual(grid.selectedIndexPaths, [path(0, 5)], "the key selects where it lands")
        XCTAssertEqual(press(["Down"], from: path(0, 2)), path(0, 6))
        XCTAssertEqual(press(["Down"], from: path(0, 6)), path(0, 9), "the last tile of a shorter strip")
        XCTAssertEqual(press(["Down"], from: path(0, 9)), path(1, 1), "past the footer and the header, in the same column")
        XCTAssertEqual(press(["Up"], from: path(1, 0)), path(0, 8), "up into the last strip of the section above")
        XCTAssertEqual(press(["Right"], from: path(0, 9)), path(1, 0), "Right goes on to the next section's first item")
        XCTAssertEqual(press(["Left"], from: path(1, 0)), path(0, 9))
        XCTAssertEqual(press(["End"], from: path(0, 0)), path(2, 9))
        XCTAssertEqual(press(["Home"], from: path(2, 9)), path(0, 0))
        XCTAssertEqual(press(["Up"], from: path(0, 0)), path(0, 0), "the first strip is as far up as it goes")
        XCTAssertEqual(grid.selectedIndexPaths, [path(0, 0)])
        XCTAssertEqual(press(["ctrl+Right"], from: path(0, 0)), path(0, 1))
        XCTAssertEqual(grid.selectedIndexPaths, [path(0, 0)], "with Control the focus moves alone")
        _ = press(["Return"], from: path(1, 3))
        XCTAssertEqual(activated, [13], "Enter activates")
        var focused: [Int] = []
        grid.didFocus(model: Post.self) { post, _ in focused.append(post.id) }
        XCTAssertTrue(grid.focus(path(2, 8)))
        fixture.harness.wait(until: { grid.focusedIndexPath == path(2, 8) }, "the focus on post 28")
        XCTAssertEqual(focused, [28], "didFocus names the tile's item")
        fixture.harness.close()
    } }

    func testMenusDeletionTooltipsAndHoverActOnTheTileUnderThePointerOrTheFocus() { onMain {
        var highlighted: [Int] = []
        let fixture = Fixture { grid in
            grid.contextMenu(PostRow.self) { _, post, _ in [MenuEntry("Open \(post.id)") { _ in }, .delete] }
            grid.canDelete(withItem: Post.self) { post, _ in post.id != 12 }
            grid.configuration.removesDeletedItems = true
            grid.tooltip(model: Post.self) { post, indexPath in "\(post.title), item \(indexPath.item) of section \(indexPath.section)" }
            grid.didHighlight(model: Post.self) { post, _ in highlighted.append(post.id) }
        }
        let grid = fixture.grid
        fixture.harness.click(fixture.tile(IndexPath(item: 2, section: 0)), button: 3)
        XCTAssertEqual(grid.shownContextMenuTitles, ["Open 2", "Delete"], "the menu of the tile clicked")
        grid.contextMenus.close()
        fixture.harness.waitForFrames()

        fixture.harness.hover(fixture.tile(IndexPath(item: 3, section: 1)), untilTooltip: "post 13, item 3 of section 1")

        highlighted = []  // (the pointer went to tile 2 for its menu)
        fixture.harness.hover(fixture.tile(IndexPath(item: 1, section: 0)))
        fixture.harness.hover(fixture.tile(IndexPath(item: 1, section: 1)))
        XCTAssertEqual(highlighted, [1, 11], "the pointer over a tile highlights its item")

        fixture.harness.click(fixture.tile(IndexPath(item: 1, section: 1)))
        fixture.harness.press(["Delete"], focusing: fixture.tile(IndexPath(item: 1, section: 1)))
        fixture.harness.waitForFrames()
        let ids = (grid.memoryStorage.items(inSection: 1) ?? []).compactMap { ($0 as? Post)?.id }
        XCTAssertEqual(ids, [10, 12, 13, 14, 15, 16, 17, 18, 19], "Delete removed the focused, selected tile's item")
        XCTAssertEqual((grid.row(at: IndexPath(item: 1, section: 1)) as? PostRow)?.title.text, "post 12", "and the tiles after it moved up")
        fixture.harness.close()
    } }

    /// A window showing 100 sections ("Day 0"…) of 1,000 posts each (post ids 0…99,999), with
    /// `displayed` told of each tile's `willDisplay`.
    @MainActor
    private static func showHundredThousandTiles(displayed: @escaping (IndexPath) -> Void = { _ in }) -> (GtkHarness, SectionedGridViewManager) {
        let harness = GtkHarness(showing: {
            let grid = SectionedGridViewManager(maxColumns: 7)
            grid.itemSize = (width: 150, height: 60)
            grid.register(PostRow.self)
            grid.memoryStorage.setSectionHeaderModels((0..<100).map { "Day \($0)" })
            grid.memoryStorage.setItemsForAllSections((0..<100).map { section in
                (0..<1000).map { Post(id: section * 1000 + $0, title: "post \(section * 1000 + $0)") }
            })
            grid.willDisplay(PostRow.self) { _, _, indexPath in displayed(indexPath) }
            return grid
        })
        let grid = harness.viewManager as! SectionedGridViewManager
        harness.waitForFrames()
        harness.wait(until: { grid.columns > 1 }, "the grid laid out by its width")
        harness.waitForFrames()
        return (harness, grid)
    }

    func testAReflowKeepsTheItemAtTheTopAtTheTop() { onMain {
        let (harness, grid) = Self.showHundredThousandTiles()
        XCTAssertTrue(grid.scrollTo(IndexPath(item: 500, section: 60)))
        harness.waitForFrames()
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(grid.view))!
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + 25)  // the top strip partly scrolled away
        harness.waitForFrames()
        let before = try! XCTUnwrap(grid.stripFactory.topItem())
        guard case .item(let top)? = grid.bridge.layout.row(at: before.position) else { return XCTFail("an item at the top") }
        for width: Int32 in [420, 900] {
            gtk_widget_set_halign(harness.list, GTK_ALIGN_START)
            gtk_widget_set_size_request(harness.list, width, -1)
            let columns = grid.columns
            harness.wait(until: { grid.columns != columns }, "a re-flow at \(width) pixels")
            harness.waitForFrames()
            let after = try! XCTUnwrap(grid.stripFactory.topItem())
            guard case .strip(let section, let items)? = grid.stripPosition(of: top).flatMap(grid.stripRow(at:)) else { return XCTFail("the strip of \(top)") }
            guard case .item(let first)? = grid.bridge.layout.row(at: after.position) else { return XCTFail("an item at the top") }
            XCTAssertEqual(first, IndexPath(item: items.lowerBound, section: section), "the strip of the item that was at the top is at the top at \(width) pixels")
            XCTAssertEqual(Double(after.y), Double(before.y), accuracy: 2, "as far scrolled as it was")
        }
        harness.close()
    } }

    func testOnlyTilesNearTheVisiblePartAreBoundAndAnInsertBindsOnlyItsChangedStrips() { onMain {
        var displayed: [IndexPath] = []
        let (harness, grid) = Self.showHundredThousandTiles { displayed.append($0) }
        // The tiles on screen: GTK maps the rows it shows, and keeps far more (200 on GTK 4.8).
        let onScreen = { grid.stripFactory.boundTiles.filter { gtk_widget_get_mapped($0.slot) != 0 } }
        let limit = { 2 * onScreen().count + grid.columns }  // and half as many strips again before and after
        XCTAssertGreaterThan(onScreen().count, grid.columns, "a screenful of tiles is shown")
        XCTAssertLessThanOrEqual(grid.stripFactory.boundTiles.count, limit(), "100,000 tiles, and only those near the screen are bound")

        displayed = []
        let target = IndexPath(item: 500, section: 60)
        XCTAssertTrue(grid.scrollTo(target))
        harness.wait(until: { grid.row(at: target) != nil }, "the tile scrolled to is shown")
        harness.waitForFrames()
        XCTAssertEqual((grid.row(at: target) as? PostRow)?.title.text, "post 60500")
        XCTAssertLessThanOrEqual(displayed.count, limit(), "a jump binds the tiles near where it lands, not the strips GTK keeps")
        XCTAssertTrue(displayed.allSatisfy { $0.section == 60 }, "all of them in section 60: \(displayed.prefix(8))")
        // Jumps about: the tiles left behind give their rows to the ones shown, so the rows
        // made stay about a few screenfuls, however far the grid is scrolled.
        for section in stride(from: 5, to: 100, by: 10) {
            XCTAssertTrue(grid.scrollTo(IndexPath(item: 300, section: section)))
            harness.waitForFrames()
        }
        XCTAssertLessThanOrEqual(grid.createdRowCount, 4 * onScreen().count + 128, "rows made, with \(onScreen().count) tiles on screen")
        XCTAssertTrue(grid.scrollTo(target))
        harness.wait(until: { grid.row(at: target) != nil }, "the tile scrolled to is shown again")
        harness.waitForFrames()

        // An insert on screen binds again only tiles of the strips from its own to the section's end.
        let firstShown = onScreen().map(\.position).min()!
        guard case .item(let top)? = grid.bridge.layout.row(at: firstShown) else { return XCTFail("an item at the top") }
        let inserted = IndexPath(item: top.item + 2 * grid.columns + 1, section: 60)
        let stripStart = inserted.item - inserted.item % grid.columns
        displayed = []
        try? grid.memoryStorage.insertItem(Post(id: -1, title: "new"), to: inserted)
        harness.waitForFrames()
        XCTAssertEqual((grid.row(at: inserted) as? PostRow)?.title.text, "new")
        XCTAssertTrue(displayed.contains(inserted), "the new tile is shown")
        XCTAssertTrue(displayed.allSatisfy { $0.section == 60 && $0.item >= stripStart },
                      "no tile before the insertion's strip is bound again: \(displayed.filter { $0.item < stripStart }.prefix(8))")
        XCTAssertLessThanOrEqual(displayed.count, limit(), "and only those near the screen")
        harness.close()
    } }

    func testScrollingShowsEachStripsTilesInItsOwnSlotsAndMakesNoRowsAfterTheFirstScreens() { onMain {
        let (harness, grid) = Self.showHundredThousandTiles()
        let stripFactory = grid.stripFactory!
        let scroll = Self.scroller(harness, grid)
        let movedBefore = stripFactory.slotsMoved
        scroll(4)
        let rowsMade = grid.createdRowCount
        scroll(4)
        // Moving a slot to another strip would cost GTK an accessibility event for its removal
        // and its insertion, and its measure and style again, on every frame.
        XCTAssertEqual(stripFactory.slotsMoved, movedBefore, "no tile slot went to another strip while scrolling: each strip shows its tiles in its own")
        XCTAssertEqual(grid.createdRowCount, rowsMade, "no row made after the first screens")
        // A waiting strip keeps its slots, empty, and the height of a strip laid out: the
        // grid's scrolling stays true.
        let waiting = stripFactory.strips.values.filter { $0.waiting && !$0.slots.isEmpty }
        XCTAssertFalse(waiting.isEmpty, "strips wait with their slots")
        for strip in waiting {
            var height: Int32 = 0
            gtk_widget_measure(strip.box, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width(grid.view), &height, nil, nil, nil)
            XCTAssertEqual(height, stripFactory.stripHeight, "a waiting strip is as tall as one laid out")
        }
        // Jumps about, and scrolls on from the last: the rows made stay bounded, and the
        // scrolling still moves no slot.
        let onScreen = { stripFactory.boundTiles.filter { gtk_widget_get_mapped($0.slot) != 0 }.count }
        for section in stride(from: 5, to: 100, by: 10) {
            XCTAssertTrue(grid.scrollTo(IndexPath(item: 300, section: section)))
            harness.waitForFrames()
        }
        XCTAssertLessThanOrEqual(grid.createdRowCount, 4 * onScreen() + 128, "rows made, with \(onScreen()) tiles on screen")
        let movedByJumps = stripFactory.slotsMoved
        scroll(2)
        XCTAssertEqual(stripFactory.slotsMoved, movedByJumps, "no tile slot went to another strip while scrolling after the jumps")
        harness.close()
    } }

    func testPastTheSlotsKeptTheStripsComingTakeThoseOfTheFarthestWaitingStrips() { onMain {
        let (harness, grid) = Self.showHundredThousandTiles()
        let stripFactory = grid.stripFactory!
        stripFactory.maximumKeptSlots = 8
        let scroll = Self.scroller(harness, grid)
        let rowsMade = grid.createdRowCount
        scroll(6)
        let onScreen = stripFactory.boundTiles.filter { gtk_widget_get_mapped($0.slot) != 0 }
        XCTAssertGreaterThan(stripFactory.slotsMoved, 0, "slots went from waiting strips to the strips coming")
        XCTAssertLessThanOrEqual(grid.createdRowCount, rowsMade + onScreen.count + 8, "rows made: a screenful more than the first screen's, and the slots kept")
        for (slot, position) in onScreen {
            guard case .item(let indexPath)? = grid.bridge.layout.row(at: position) else { continue }
            let row = grid.row(at: indexPath)
            XCTAssertEqual((row as? PostRow)?.title.text, "post \(indexPath.section * 1000 + indexPath.item)", "the tile of \(indexPath)")
            XCTAssertEqual(row.flatMap { stripFactory.slot(containing: $0.rootWidget) }, slot, "in its slot")
        }
        harness.close()
    } }

    /// Scrolls the grid down `screens` screenfuls, as the benchmarks do: 40 pixels a frame.
    @MainActor
    private static func scroller(_ harness: GtkHarness, _ grid: SectionedGridViewManager) -> (Int) -> Void {
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(grid.view))!
        return { screens in
            for _ in 0..<(screens * Int(gtk_adjustment_get_page_size(adjustment)) / 40) {
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + 40)
                harness.waitForFrames(1)
            }
        }
    }

    func testARubberbandSelectsTheTilesItCoversAcrossStripsAndSections() { onMain {
        let fixture = Fixture(selectionMode: .multiple) { $0.rubberbandSelection = true }  // 4 columns
        let grid = fixture.grid
        let paths = { (items: [(Int, Int)]) in items.map { IndexPath(item: $0.1, section: $0.0) } }
        // From the second tile of the first strip to the third of the second: columns 1 and 2.
        fixture.harness.drag(from: fixture.tile(IndexPath(item: 1, section: 0)), to: fixture.tile(IndexPath(item: 6, section: 0)), drop: false)
        fixture.harness.waitForFrames()
        var child = gtk_widget_get_first_child(grid.view)
        var bandShown = false
        while let widget = child {
            if String(cString: gtk_widget_get_css_name(widget)) == "rubberband" { bandShown = true }
            child = gtk_widget_get_next_sibling(widget)
        }
        XCTAssertTrue(bandShown, "GTK draws the band while it is dragged")
        fixture.harness.releaseButton()
        fixture.harness.wait(until: { grid.selectedIndexPaths.count == 4 }, "the band's tiles selected, not \(grid.selectedIndexPaths)")
        XCTAssertEqual(grid.selectedIndexPaths, paths([(0, 1), (0, 2), (0, 5), (0, 6)]))
        XCTAssertEqual(Set(fixture.take()), ["select 1 [0,1]", "select 2 [0,2]", "select 5 [0,5]", "select 6 [0,6]"])
        let isSelected = { (indexPath: IndexPath) in gtk_widget_get_state_flags(fixture.tile(indexPath)).rawValue & GTK_STATE_FLAG_SELECTED.rawValue != 0 }
        XCTAssertTrue(isSelected(IndexPath(item: 5, section: 0)), "the tiles show it")

        // With Control, across the footer and header between two sections: added to the rest.
        fixture.harness.drag(from: fixture.tile(IndexPath(item: 9, section: 0)), to: fixture.tile(IndexPath(item: 2, section: 1)), holding: ["ctrl"])
        fixture.harness.wait(until: { grid.selectedIndexPaths.count > 4 }, "the second band added")
        XCTAssertEqual(grid.selectedIndexPaths, paths([(0, 1), (0, 2), (0, 5), (0, 6), (0, 9), (1, 1), (1, 2)]),
                       "columns 1 and 2 of the strips from section 0's last to section 1's first (its last strip has one tile)")
        // With Shift: the band's tiles leave the selection.
        fixture.harness.drag(from: fixture.tile(IndexPath(item: 2, section: 0)), to: fixture.tile(IndexPath(item: 6, section: 0)), holding: ["shift"])
        fixture.harness.wait(until: { grid.selectedIndexPaths.count < 7 }, "the third band taken out")
        XCTAssertEqual(grid.selectedIndexPaths, paths([(0, 1), (0, 5), (0, 9), (1, 1), (1, 2)]))
        // A plain band replaces the selection.
        fixture.harness.drag(from: fixture.tile(IndexPath(item: 0, section: 1)), to: fixture.tile(IndexPath(item: 4, section: 1)))
        fixture.harness.wait(until: { grid.selectedIndexPaths.count == 2 }, "the fourth band alone, not \(grid.selectedIndexPaths)")
        XCTAssertEqual(grid.selectedIndexPaths, paths([(1, 0), (1, 4)]))
        fixture.harness.close()
    } }

    func testDraggingATileAcrossSectionsMovesItBeforeOrAfterTheTileUnderThePointer() { onMain {
        var moves: [String] = []
        let fixture = Fixture { grid in
            grid.configuration.movesItemsInStorage = true
            grid.canMove(withItem: Post.self) { post, _ in post.id != 3 }
            grid.moveItem(PostRow.self) { _, post, source, destination in
                moves.append("\(post.id) [\(source.section),\(source.item)] -> [\(destination.section),\(destination.item)]")
            }
        }
        let grid = fixture.grid
        let ids = { (section: Int) in (0..<grid.storage.numberOfItems(inSection: section)).compactMap { (grid.storage.item(at: IndexPath(item: $0, section: section)) as? Post)?.id } }
        let hasMark = { (indexPath: IndexPath, mark: String) in
            grid.row(at: indexPath).map { gtk_widget_has_css_class($0.rootWidget, mark) != 0 } ?? false
        }
        // Held over the right half of the third tile of section 1: the line is after it.
        fixture.harness.drag(from: fixture.tile(IndexPath(item: 1, section: 0)), to: fixture.tile(IndexPath(item: 2, section: 1)), across: 0.8, drop: false)
        fixture.harness.wait(until: { hasMark(IndexPath(item: 2, section: 1), "drop-after") }, "the line after the tile under the pointer")
        fixture.harness.releaseButton()
        fixture.harness.wait(until: { !moves.isEmpty }, "the drop")
        XCTAssertEqual(moves, ["1 [0,1] -> [1,3]"])
        XCTAssertEqual(ids(0), [0, 2, 3, 4, 5, 6, 7, 8, 9])
        XCTAssertEqual(ids(1), [10, 11, 12, 1, 13, 14, 15, 16, 17, 18, 19])
        XCTAssertFalse(hasMark(IndexPath(item: 2, section: 1), "drop-after"), "the line goes with the drop")

        // Over the left half of the first tile of section 1: before it, in another strip and section.
        fixture.harness.drag(from: fixture.tile(IndexPath(item: 0, section: 0)), to: fixture.tile(IndexPath(item: 0, section: 1)), across: 0.2, drop: false)
        fixture.harness.wait(until: { hasMark(IndexPath(item: 0, section: 1), "drop-before") }, "the line before the tile under the pointer")
        fixture.harness.releaseButton()
        fixture.harness.wait(until: { moves.count == 2 }, "the second drop")
        XCTAssertEqual(moves.last, "0 [0,0] -> [1,0]")
        XCTAssertEqual(ids(1).prefix(5), [0, 10, 11, 12, 1])
        XCTAssertEqual((grid.row(at: IndexPath(item: 0, section: 1)) as? PostRow)?.title.text, "post 0", "the tiles show the move")

        // Post 3 cannot move: its drop changes nothing.
        fixture.harness.drag(from: fixture.tile(IndexPath(item: 1, section: 0)), to: fixture.tile(IndexPath(item: 2, section: 1)), across: 0.8)
        fixture.harness.waitForFrames()
        XCTAssertEqual(moves.count, 2)
        XCTAssertEqual(ids(0), [2, 3, 4, 5, 6, 7, 8, 9])
        fixture.harness.close()
    } }
}
