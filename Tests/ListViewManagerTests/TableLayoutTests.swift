import CGtk
import CGtkShims
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// A table the user arranges (columns hidden from the header's menu, sorted), kept as a
/// `TableLayout` value that is stored as JSON and gives the next table the same
/// arrangement: order, widths, visibility and sort.
final class TableLayoutTests: XCTestCase {
    /// The header menu GTK shows for the column view, once shown.
    @MainActor
    private static func shownHeaderMenu(in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        if MenuReading.typeName(widget) == "GtkPopoverMenu",
           gtk_widget_get_mapped(widget) != 0 { return widget }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let found = Self.shownHeaderMenu(in: current) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    func testTheHeadersMenuHidesAColumnAndTheStoredLayoutArrangesTheNextTable() throws { try onMain {
        let fixture = ColumnViewManagerTests.Fixture()
        var layouts: [TableLayout] = []
        fixture.manager.didChangeTableLayout = { layouts.append($0) }
        XCTAssertEqual(fixture.manager.tableLayout, TableLayout(columns: [.init(id: "Title"), .init(id: "Year", width: 90), .init(id: "Author")]))

        fixture.harness.click(try XCTUnwrap(fixture.header("Year")), button: 3)
        fixture.harness.wait(until: { Self.shownHeaderMenu(in: fixture.manager.view) != nil }, "the header's menu")
        let menu = try XCTUnwrap(Self.shownHeaderMenu(in: fixture.manager.view))
        XCTAssertEqual(MenuReading.modelButtons(in: menu).map { MenuReading.shownEntry($0).text }, ["Title", "Year", "Author"])
        fixture.harness.click(try XCTUnwrap(MenuReading.modelButton("Year", in: menu)))
        fixture.harness.wait(until: { layouts.last?.columns.map(\.isVisible) == [true, false, true] }, "the layout without Year")
        XCTAssertFalse(fixture.year.isVisible)
        XCTAssertEqual(gtk_column_view_column_get_visible(fixture.year.column), 0, "GTK hides the column")
        XCTAssertEqual(layouts.count, 1, "one change, told once")

        fixture.clickHeader("Title")
        fixture.harness.wait(until: { layouts.last?.sortColumn == "Title" }, "the sort in the layout")
        XCTAssertEqual(layouts.last?.sortAscending, true)
        let stored = try JSONEncoder().encode(fixture.manager.tableLayout)
        fixture.harness.close()

        let next = ColumnViewManagerTests.Fixture()
        XCTAssertEqual(next.storedIDs, [1, 2, 3, 4])
        next.manager.tableLayout = try JSONDecoder().decode(TableLayout.self, from: stored)
        next.harness.waitForFrames()
        XCTAssertFalse(next.year.isVisible)
        XCTAssertEqual(next.storedIDs, [2, 4, 1, 3], "sorted by title, as stored")
        XCTAssertEqual(next.manager.tableLayout, try JSONDecoder().decode(TableLayout.self, from: stored))
        next.harness.close()
    } }

    func testALayoutOrdersSizesHidesAndSortsTheColumns() { onMain {
        let fixture = ColumnViewManagerTests.Fixture()
        let layout = TableLayout(columns: [.init(id: "Author", width: 200), .init(id: "Title"), .init(id: "Year", isVisible: false),
                                           .init(id: "No such column")],
                                 sortColumn: "Year", sortAscending: false)
        fixture.manager.tableLayout = layout
        fixture.harness.waitForFrames()
        let columns = gtk_column_view_get_columns(OpaquePointer(fixture.manager.view))!
        let titles = (0..<g_list_model_get_n_items(columns)).map { index -> String in
            let column = g_list_model_get_item(columns, index)!
            defer { g_object_unref(column) }
            return String(cString: gtk_column_view_column_get_title(OpaquePointer(column)))
        }
        XCTAssertEqual(titles, ["Author", "Title", "Year"])
        XCTAssertEqual(gtk_column_view_column_get_fixed_width(fixture.author.column), 200)
        XCTAssertEqual(gtk_column_view_column_get_visible(fixture.year.column), 0)
        XCTAssertEqual(fixture.storedIDs, [4, 1, 3, 2], "newest first")
        XCTAssertEqual(fixture.manager.tableLayout, TableLayout(columns: [.init(id: "Author", width: 200), .init(id: "Title"), .init(id: "Year", isVisible: false)],
                                                                sortColumn: "Year", sortAscending: false))
        XCTAssertEqual(fixture.cells(at: 0).first, "Birch Lane", "cells follow their columns")
        fixture.manager.tableLayout = TableLayout(columns: [.init(id: "Title", isVisible: false), .init(id: "Year", isVisible: false),
                                                            .init(id: "Author", isVisible: false)])
        XCTAssertTrue(fixture.title.isVisible, "a table keeps one column shown")
        fixture.harness.close()
    } }
}
