import CGtk
import CGtkShims
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

struct Book: Equatable {
    let id: Int
    var title: String
    var author: String
    var year: Int
    /// The same book, whatever its edits (the storage finds an item to reload by it).
    static func == (lhs: Book, rhs: Book) -> Bool { lhs.id == rhs.id }
}

/// A typed cell: the author column.
final class AuthorCell: ListRow, ModelTransfer {
    let label = Label()
    required init() { super.init(); append(label) }
    func update(with model: Book) { label.text = model.author }
}

/// A GtkColumnView driven by a ColumnViewManager in a real window: columns with typed and
/// text cells, sorting by header clicks (the storage order follows), typed events.
final class ColumnViewManagerTests: XCTestCase {
    static let books = [
        Book(id: 1, title: "Pear Orchard", author: "Ada Lind", year: 1931),
        Book(id: 2, title: "Apple Valley", author: "Bo Crane", year: 1902),
        Book(id: 3, title: "Quiet Harbour", author: "Cy Moss", year: 1915),
        Book(id: 4, title: "Birch Lane", author: "Di Fenn", year: 1960),
    ]

    @MainActor
    final class Fixture {
        let harness: GtkHarness
        let manager: ColumnViewManager
        var events: [String] = []
        var anomalies: [ListViewManagerAnomaly] = []
        var sortings = 0
        let title = TableColumn("Title", \Book.title)
        let year = TableColumn("Year", text: { (book: Book) in String(book.year) }, sortedBy: { $0.year < $1.year })
        let author = TableColumn("Author", cell: AuthorCell.self)

        init(storage: MemoryStorage? = nil) {
            openTestDisplay()
            let manager = ColumnViewManager(storage: storage)
            self.manager = manager
            var record: (String) -> Void = { _ in }
            var report: (ListViewManagerAnomaly) -> Void = { _ in }
            manager.anomalyHandler.anomalyAction = { report($0) }
            year.fixedWidth = 90
            manager.addColumn(title)
            manager.addColumn(year)
            manager.addColumn(author)
            manager.didSelect(AuthorCell.self) { cell, book, indexPath in record("cell select \(cell.label.text) \(book.id) [\(indexPath.section),\(indexPath.item)]") }
            manager.didSelect(model: Book.self) { book, indexPath in record("select \(book.id) [\(indexPath.section),\(indexPath.item)]") }
            manager.didActivate(model: Book.self) { book, _ in record("activate \(book.title)") }
            manager.didChangeSorting = { [unowned manager] in record("sorted \(manager.memoryStorage.items(inSection: 0)!.compactMap { ($0 as? Book)?.id })") }
            if storage == nil { manager.memoryStorage.addItems(ColumnViewManagerTests.books) }
            harness = GtkHarness(showing: { manager })
            record = { [unowned self] in events.append($0) }
            report = { [unowned self] in anomalies.append($0) }
        }

        /// The texts of the cells on the row at `position`, column by column.
        func cells(at position: Int) -> [String] {
            manager.columnFactories.map { factory in
                guard let listItem = factory.boundListItem(at: position), let cell = factory.attached[listItem]?.row else { return "not shown" }
                switch cell {
                case let text as TextCell: return text.text
                case let author as AuthorCell: return author.label.text
                case let missing as MissingMappingRow: return missing.label.text
                case is EmptyCell: return ""
                default: return "\(type(of: cell))"
                }
            }
        }

        /// The ids of the books in the storage, in order.
        var storedIDs: [Int] { manager.memoryStorage.items(inSection: 0)!.compactMap { ($0 as? Book)?.id } }

        /// The header button of the column titled `title`, found as a user sees it.
        func header(_ title: String) -> UnsafeMutablePointer<GtkWidget>? {
            func search(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
                if cgtk_shims_instance_is_a(UnsafeMutableRawPointer(widget), gtk_label_get_type()) != 0,
                   String(cString: gtk_label_get_text(OpaquePointer(widget))) == title { return widget }
                var child = gtk_widget_get_first_child(widget)
                while let current = child {
                    if let found = search(current) { return found }
                    child = gtk_widget_get_next_sibling(current)
                }
                return nil
            }
            // The header row is the column view's first child; the rows come after it.
            return gtk_widget_get_first_child(manager.view).flatMap(search)
        }

        /// Clicks the header titled `title` as a user does, after GTK's double-click time
        /// has passed since any earlier click (two quick clicks are one double click).
        func clickHeader(_ title: String) {
            let start = Date()
            harness.wait(until: { Date().timeIntervalSince(start) > 0.5 }, "the double-click time")
            harness.click(header(title)!)
        }

        func take() -> [String] {
            defer { events = [] }
            return events
        }
    }

    func testEachColumnShowsItsCellForEveryRow() { onMain {
        let fixture = Fixture()
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.cells(at: 0), ["Pear Orchard", "1931", "Ada Lind"])
        XCTAssertEqual(fixture.cells(at: 3), ["Birch Lane", "1960", "Di Fenn"])
        let columns = gtk_column_view_get_columns(OpaquePointer(fixture.manager.view))!
        XCTAssertEqual(g_list_model_get_n_items(columns), 3)
        let titles = (0..<3).map { index -> String in
            let column = g_list_model_get_item(columns, UInt32(index))!
            defer { g_object_unref(column) }
            XCTAssertEqual(gtk_column_view_column_get_resizable(OpaquePointer(column)), 1)
            return String(cString: gtk_column_view_column_get_title(OpaquePointer(column)))
        }
        XCTAssertEqual(titles, ["Title", "Year", "Author"])
        XCTAssertEqual(gtk_column_view_column_get_fixed_width(fixture.year.column), 90)
        XCTAssertTrue(fixture.manager.reorderableColumns)
        XCTAssertTrue(fixture.title.isSortable && fixture.year.isSortable && !fixture.author.isSortable)
        XCTAssertNotNil(fixture.header("Year"), "the header shows the column's title")

        // A content update reaches every cell of the row in place.
        fixture.manager.memoryStorage.reloadItem(Book(id: 4, title: "Birch Lane, revised", author: "Di Fenn", year: 1961))
        fixture.harness.waitForFrames(1)
        XCTAssertEqual(fixture.cells(at: 3), ["Birch Lane, revised", "1961", "Di Fenn"])
        XCTAssertEqual(fixture.anomalies, [])
        fixture.harness.close()
    } }

    func testAModelNoColumnShowsIsAnAnomalyWithAVisibleCell() { onMain {
        let fixture = Fixture()
        fixture.manager.memoryStorage.addItem(Post(id: 9, title: "a post"))
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.cells(at: 4), ["No row registered for Post", "", ""])
        XCTAssertEqual(fixture.anomalies.map(\.kind), [.noItemMappingFound])
        fixture.harness.close()
    } }

    func testClickingAHeaderSortsTheStorageAsMovesAndKeepsTheSelection() { onMain {
        let fixture = Fixture()
        fixture.harness.selectRow(2)  // Quiet Harbour
        XCTAssertEqual(fixture.take(), ["cell select Cy Moss 3 [0,2]", "select 3 [0,2]"])
        var updates: [StorageUpdate] = []
        fixture.manager.contentUpdater.didUpdateContent = { if let update = $0 { updates.append(update) } }

        XCTAssertNil(fixture.manager.primarySort, "no column sorts yet")
        fixture.clickHeader("Title")
        fixture.harness.wait(until: { fixture.storedIDs == [2, 4, 1, 3] }, "sorting by title")
        XCTAssertEqual(fixture.manager.primarySort?.column.title, "Title")
        XCTAssertEqual(fixture.manager.primarySort?.ascending, true)
        XCTAssertEqual(fixture.take(), ["sorted [2, 4, 1, 3]"])
        XCTAssertEqual(updates.count, 1)
        XCTAssertTrue(updates[0].changes.allSatisfy { if case .moveItem = $0 { return true } else { return false } }, "\(updates[0].changes)")
        XCTAssertEqual(updates[0].changes.count, 2, "the fewest moves: Apple Valley and Birch Lane")
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.cells(at: 0), ["Apple Valley", "1902", "Bo Crane"])
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [IndexPath(item: 3, section: 0)], "Quiet Harbour stays selected")
        XCTAssertEqual(fixture.manager.selection.selectedPositions(), [3])

        fixture.clickHeader("Title")
        fixture.harness.wait(until: { fixture.storedIDs == [3, 1, 4, 2] }, "sorting by title, descending")
        XCTAssertEqual(fixture.manager.primarySort?.column.title, "Title")
        XCTAssertEqual(fixture.manager.primarySort?.ascending, false)
        fixture.clickHeader("Year")
        fixture.harness.wait(until: { fixture.storedIDs == [2, 3, 1, 4] }, "sorting by year")
        XCTAssertEqual(fixture.manager.primarySort?.column.title, "Year", "the header clicked last sorts first")
        XCTAssertEqual(fixture.manager.primarySort?.ascending, true)
        XCTAssertEqual(fixture.take(), ["sorted [3, 1, 4, 2]", "sorted [2, 3, 1, 4]"])
        // Clicking the unsortable column changes nothing.
        fixture.clickHeader("Author")
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.storedIDs, [2, 3, 1, 4])
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [IndexPath(item: 1, section: 0)])
        XCTAssertEqual(fixture.take(), [])
        fixture.harness.close()
    } }

    func testSortingFromCodeSortsEachSectionOnItsOwn() { onMain {
        let storage = MemoryStorage()
        storage.addItems(Array(ColumnViewManagerTests.books[0...1]), toSection: 0)
        storage.addItems(Array(ColumnViewManagerTests.books[2...3]), toSection: 1)
        let fixture = Fixture(storage: storage)
        fixture.manager.sort(by: fixture.year, ascending: false)
        let ids = (0..<2).map { section in storage.items(inSection: section)!.map { ($0 as! Book).id } }
        XCTAssertEqual(ids, [[1, 2], [4, 3]])
        fixture.manager.sort(by: nil)
        XCTAssertEqual((0..<2).map { section in storage.items(inSection: section)!.map { ($0 as! Book).id } }, [[1, 2], [4, 3]],
                       "removing the sorting keeps the order")
        fixture.harness.close()
    } }

    func testActivationAndHeaderModelsAsInAList() { onMain {
        let fixture = Fixture()
        fixture.harness.activateRow(1)
        XCTAssertEqual(fixture.take(), ["activate Apple Valley"])
        fixture.manager.memoryStorage.setSectionHeaderModels(["Books"])
        XCTAssertEqual(fixture.anomalies.map(\.description), ["ListViewManagerAnomaly.supplementaryRowsNotShown(column view, header, section 0)"])
        XCTAssertEqual(fixture.manager.numberOfRows, 4)
        fixture.harness.close()
    } }

    func testSortingThousandsOfRowsKeepsTheSelectionOnItsItem() { onMain {
        let storage = MemoryStorage()
        // 5,000 books whose titles run against their order: sorting moves nearly all.
        storage.addItems((0..<5_000).map { Book(id: $0, title: String(format: "Book %05d", (7_919 * $0) % 5_000), author: "", year: 1900) })
        let fixture = Fixture(storage: storage)
        fixture.harness.selectRow(3)
        let selected = storage.item(at: IndexPath(item: 3, section: 0)) as! Book
        fixture.manager.sort(by: fixture.title)
        let titles = storage.items(inSection: 0)!.map { ($0 as! Book).title }
        XCTAssertEqual(titles, titles.sorted())
        let place = storage.items(inSection: 0)!.firstIndex { ($0 as! Book).id == selected.id }!
        XCTAssertEqual(fixture.manager.selectedIndexPaths, [IndexPath(item: place, section: 0)])
        XCTAssertEqual(fixture.manager.selection.selectedPositions(), [place], "GTK's selection is on the same book")
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.cells(at: 0).first, "Book 00000")
        fixture.harness.close()
    } }

    /// The root widget of the cell of `column` (in the order added) on the row at `position`.
    @MainActor
    private static func cell(_ fixture: Fixture, column: Int, position: Int) -> UnsafeMutablePointer<GtkWidget>? {
        let factory = fixture.manager.columnFactories[column]
        return factory.boundListItem(at: position).flatMap { factory.attached[$0]?.row.rootWidget }
    }

    func testThePointerCrossingTheCellsOfOneRowHighlightsItOnce() { onMain {
        let fixture = Fixture()
        var log: [String] = []
        fixture.manager.didHighlight(model: Book.self) { book, _ in log.append("highlight \(book.id)") }
        fixture.manager.didUnhighlight(model: Book.self) { book, _ in log.append("unhighlight \(book.id)") }
        fixture.harness.waitForFrames()
        for column in 0..<3 { fixture.harness.hover(Self.cell(fixture, column: column, position: 0)!) }
        fixture.harness.hover(Self.cell(fixture, column: 2, position: 1)!)
        fixture.harness.iterate(times: 3)
        XCTAssertEqual(log, ["highlight 1", "unhighlight 1", "highlight 2"])
        fixture.harness.close()
    } }

    func testEachRowNotTheTableIsNamedForScreenReadersAndTheMenuKeyOpensTheFocusedRowsMenu() { onMain {
        var manager: ColumnViewManager!
        let harness = GtkHarness(showing: {
            let made = ColumnViewManager(selectionMode: .none)
            made.addColumn(TableColumn("Title", \Book.title))
            made.memoryStorage.addItems(ColumnViewManagerTests.books)
            made.accessibilityLabel(model: Book.self) { book, _ in "Book: \(book.title)" }
            made.contextMenu(model: Book.self) { book, _ in [MenuEntry("Open \(book.id)") { _ in }] }
            manager = made
            return made
        })
        // The label goes to the widget GTK made for the row, a child of the inner list view.
        let cell = try! XCTUnwrap(manager.row(at: IndexPath(item: 0, section: 0)))
        let item = try! XCTUnwrap(manager.itemWidget(of: cell))
        XCTAssertTrue(gtk_widget_get_parent(item) == manager.kind.listBase(manager.view))
        XCTAssertFalse(item == manager.kind.listBase(manager.view))
        // With nothing selectable, the Menu key opens the menu of the row with the focus.
        harness.press(["Down", "Down"], focusing: manager.view)
        let focus = try! XCTUnwrap(gtk_root_get_focus(gtk_widget_get_root(manager.view)!))
        harness.press(["Menu"], focusing: focus)
        harness.iterate(times: 5)
        XCTAssertEqual(manager.shownContextMenuTitles, ["Open 3"])
        harness.close()
    } }

    func testAColumnsTypedEventsAndColumnsItCannotSortBy() { onMain {
        let fixture = Fixture()
        var selected: [String] = []
        let other = ColumnViewManager()
        let stranger = TableColumn("Year", text: { (book: Book) in "\(book.year)" }, sortedBy: { $0.year < $1.year })
        other.addColumn(stranger)
        let typed = TableColumn("Author again", cell: AuthorCell.self, mapping: { mapping in
            mapping.didSelect { cell, book, indexPath in selected.append("\(cell.label.text) \(book.id) [\(indexPath.section),\(indexPath.item)]") }
        })
        fixture.manager.addColumn(typed)
        fixture.harness.waitForFrames()
        fixture.harness.selectRow(1)
        XCTAssertEqual(selected, ["Bo Crane 2 [0,1]"])

        fixture.manager.sort(by: stranger)
        fixture.manager.sort(by: fixture.author)
        XCTAssertEqual(fixture.anomalies.map(\.description), [
            "ListViewManagerAnomaly.columnCannotSort(Year)",
            "ListViewManagerAnomaly.columnCannotSort(Author)",
        ])
        XCTAssertTrue(fixture.anomalies.first?.debugDescription.contains("it was not added to this view") ?? false)
        XCTAssertFalse(fixture.manager.isSortedByColumns)
        XCTAssertEqual(fixture.storedIDs, [1, 2, 3, 4])
        fixture.harness.close()
    } }

    func testChangesReachTheColumnViewAsTheSameSplicesAsAList() { onMain {
        let fixture = Fixture()
        let recorder = ItemsChangedRecorder(fixture.manager.bridge.listModel) { object in
            (RowItem.of(object)?.model as? Book)?.title ?? "?"
        }
        try? fixture.manager.memoryStorage.insertItem(Book(id: 5, title: "Cedar Row", author: "Ed Park", year: 1944), to: IndexPath(item: 1, section: 0))
        XCTAssertEqual(recorder.take(), ["1+1"])
        fixture.manager.memoryStorage.removeItems(at: [IndexPath(item: 0, section: 0), IndexPath(item: 4, section: 0)])
        XCTAssertEqual(recorder.take(), ["0-1", "3-1"])
        XCTAssertEqual(recorder.shadow, ["Cedar Row", "Apple Valley", "Quiet Harbour"])
        recorder.disconnect()
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.cells(at: 0), ["Cedar Row", "1944", "Ed Park"])
        fixture.harness.close()
    } }

    func testColumnsAreRemovedAndReplacedWithTheirCells() { onMain {
        let fixture = Fixture()
        fixture.harness.waitForFrames()
        XCTAssertTrue(fixture.manager.removeColumn(fixture.year))
        XCTAssertFalse(fixture.manager.removeColumn(fixture.year), "not this view's any more")
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.cells(at: 0), ["Pear Orchard", "Ada Lind"])
        XCTAssertEqual(g_list_model_get_n_items(gtk_column_view_get_columns(OpaquePointer(fixture.manager.view))), 2)

        let id = TableColumn("Id", text: { (book: Book) in "#\(book.id)" }, sortedBy: { $0.id < $1.id })
        fixture.manager.setColumns([id])
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.cells(at: 2), ["#3"])
        fixture.manager.sort(by: id, ascending: false)
        XCTAssertEqual(fixture.storedIDs, [4, 3, 2, 1])
        XCTAssertEqual(fixture.anomalies, [])
        fixture.harness.close()
    } }
}
