import CGtk
import CGtkShims
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// A column view with `usesGTKSectionHeaders`: on GTK 4.12 and later each section's header
/// spans the columns as the view's own GtkListHeader, through columns added, removed and
/// updates; GTK 4.8's column view has no sections, and header models are an anomaly there.
final class ColumnSectionHeaderTests: XCTestCase {
    /// The texts the column view's section headers show, in order.
    @MainActor
    private static func headerTexts(_ manager: ColumnViewManager) -> [String] {
        let headerType = g_type_from_name("GtkListHeaderWidget")
        guard headerType != 0 else { return [] }
        var texts: [String] = []
        var child = gtk_widget_get_first_child(manager.kind.listBase(manager.view))
        while let widget = child {
            if cgtk_shims_instance_is_a(UnsafeMutableRawPointer(widget), headerType) != 0, let text = ShownSections.visibleText(in: widget) {
                texts.append(text)
            }
            child = gtk_widget_get_next_sibling(widget)
        }
        return texts
    }

    func testSectionHeadersSpanTheColumnsThroughColumnChangesAndUpdates() { onMain {
        openTestDisplay()
        let native = cgtk_shims_gtk_at_least(12) != 0
        let manager = ColumnViewManager()
        var anomalies: [ListViewManagerAnomaly] = []
        manager.anomalyHandler.anomalyAction = { anomalies.append($0) }
        manager.configuration.usesGTKSectionHeaders = true
        manager.registerHeader(BannerRow.self)
        manager.addColumn(TableColumn("Title", \Book.title))
        manager.memoryStorage.setSectionHeaderModels([Banner(text: "new"), Banner(text: "old")])
        manager.memoryStorage.addItems(Array(ColumnViewManagerTests.books.prefix(2)), toSection: 0)
        manager.memoryStorage.addItems(Array(ColumnViewManagerTests.books.suffix(2)), toSection: 1)
        let harness = GtkHarness(showing: { manager })
        XCTAssertEqual(manager.showsNativeSectionHeaders, native)
        XCTAssertEqual(manager.numberOfRows, 4, "items only: headers are the view's own, or not shown")
        XCTAssertEqual(Self.headerTexts(manager), native ? ["NEW", "OLD"] : [])
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view))!
        XCTAssertEqual(gtk_adjustment_get_value(adjustment), 0, "the table opens at its top, the first header in view")
        if !native {
            XCTAssertTrue(anomalies.contains { if case .supplementaryRowsNotShown = $0 { true } else { false } })
        }

        // A column added while the headers show (GTK traps if it has a header factory then).
        let year = TableColumn("Year", text: { (book: Book) in String(book.year) })
        manager.addColumn(year)
        harness.waitForFrames()
        XCTAssertEqual(Self.headerTexts(manager), native ? ["NEW", "OLD"] : [])
        XCTAssertEqual(harness.boundRowsByPosition.count, 4)

        manager.memoryStorage.insertSection(SectionModel(items: [Book(id: 9, title: "Fresh", author: "Ed Ray", year: 2024)],
                                                         headerModel: Banner(text: "newest")), atIndex: 0)
        manager.memoryStorage.deleteSections(IndexSet(integer: 2))
        harness.waitForFrames()
        XCTAssertEqual(Self.headerTexts(manager), native ? ["NEWEST", "NEW"] : [])
        XCTAssertEqual(manager.numberOfRows, 3)

        XCTAssertTrue(manager.removeColumn(year))
        manager.configuration.usesGTKSectionHeaders = false
        harness.waitForFrames()
        XCTAssertEqual(Self.headerTexts(manager), [])
        manager.configuration.usesGTKSectionHeaders = true
        manager.setColumns([TableColumn("Title", \Book.title), TableColumn("Author", cell: AuthorCell.self)])
        harness.waitForFrames()
        XCTAssertEqual(Self.headerTexts(manager), native ? ["NEWEST", "NEW"] : [])
        harness.close()
    } }
}
