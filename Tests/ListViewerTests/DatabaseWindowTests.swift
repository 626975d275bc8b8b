import CGtk
import CGtkShims
import Foundation
import GRDB
import ListViewerKit
import ListViewManager
import ModelStorage
import SQLiteStorage
import TestSupport
import XCTest

/// The viewer window on a real SQLite file, written to by another connection meanwhile.
final class DatabaseWindowTests: XCTestCase {
    @MainActor
    private static func open(_ sample: SampleDatabase, sectionBy: String? = "category") -> ViewerWindow {
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit", sectionBy: sectionBy)
        ViewerTestLoop.wait("the first rows") { viewer.isLoaded }
        return viewer
    }

    /// The texts shown by the realised row of the record with rowid `id`, if on screen
    /// (found by rowid, reading nothing).
    @MainActor
    private static func shownTexts(_ viewer: ViewerWindow, rowid id: Int64) -> (title: String, subtitle: String)? {
        guard let storage = viewer.liveTable?.storage else { return nil }
        for section in 0..<storage.numberOfSections() {
            for item in 0..<storage.numberOfItems(inSection: section) {
                let indexPath = IndexPath(item: item, section: section)
                guard storage.rowID(at: indexPath) == id else { continue }
                guard let row = viewer.manager.row(at: indexPath) as? DatabaseRecordRow else { return nil }
                return (row.title.text, row.subtitle.text)
            }
        }
        return nil
    }

    func testATableIsShownInSectionsOfAColumnsValues() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample)
        XCTAssertNil(viewer.problem)
        XCTAssertEqual(viewer.titleText, "fruits.sqlite — fruit")
        XCTAssertEqual(viewer.countText, "3 rows")
        XCTAssertEqual(viewer.recordTitles, [["apple", "pear"], ["cherry"]])
        XCTAssertEqual(viewer.manager.storage.headerModel(forSection: 1) as? String, "category: stone")
        XCTAssertEqual(viewer.manager.shownSectionIndexTitles, ["P", "S"], "a section index of the categories' first letters")
        ViewerTestLoop.wait("the rows to be realised") { Self.shownTexts(viewer, rowid: 1) != nil }
        XCTAssertEqual(Self.shownTexts(viewer, rowid: 1)?.title, "apple")
        XCTAssertEqual(Self.shownTexts(viewer, rowid: 1)?.subtitle, "price: 1.5 · photo: 3 bytes", "not the rowid column or the section's value again")

        // Selecting a row shows every column in the details pane.
        let position = try XCTUnwrap(viewer.manager.position(of: IndexPath(item: 1, section: 0)))
        var parameters: [OpaquePointer?] = [g_variant_new_uint32(UInt32(position)), g_variant_new_boolean(0), g_variant_new_boolean(0)]
        let tuple = parameters.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        cgtk_shims_widget_activate_action(viewer.manager.view, "list.select-item", tuple)
        XCTAssertEqual(viewer.detailsTitle, "pear")
        ViewerTestLoop.close(viewer)
    } }

    func testASectionsIndexTitleIsTheNumberItsNameEndsWithElseItsFirstLetter() {
        XCTAssertEqual(ShownText.indexTitle(of: "Genre 07"), "07")
        XCTAssertEqual(ShownText.indexTitle(of: "fantasy"), "F")
        XCTAssertEqual(ShownText.indexTitle(of: "  «élan»"), "É", "the first letter, past spaces and punctuation")
        XCTAssertEqual(ShownText.indexTitle(of: "call 0123456789"), "C", "a long number is not a title")
        XCTAssertNil(ShownText.indexTitle(of: "—"))
    }

    func testRowsInsertedUpdatedAndDeletedByAnotherConnectionShowUp() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample)
        let other = try sample.otherConnection()
        let log = UpdateRecorder()
        log.next = viewer.manager.contentUpdater
        viewer.manager.storageUpdater = log

        try other.write { db in try db.execute(sql: "INSERT INTO fruit (id, name, category, price) VALUES (4, 'plum', 'stone', 3)") }
        ViewerTestLoop.wait("the new row in the list") { Self.shownTexts(viewer, rowid: 4)?.title == "plum" }
        XCTAssertEqual(viewer.recordTitles, [["apple", "pear"], ["cherry", "plum"]])
        XCTAssertEqual(viewer.countText, "4 rows")

        try other.write { db in try db.execute(sql: "UPDATE fruit SET name = 'conference pear', price = 2.5 WHERE id = 2") }
        ViewerTestLoop.wait("the updated row") { Self.shownTexts(viewer, rowid: 2)?.title == "conference pear" }
        XCTAssertEqual(Self.shownTexts(viewer, rowid: 2)?.subtitle, "price: 2.5 · photo: NULL")

        try other.write { db in try db.execute(sql: "DELETE FROM fruit WHERE id = 1") }
        ViewerTestLoop.wait("the deleted row to go") { viewer.recordTitles.first == ["conference pear"] }
        XCTAssertEqual(viewer.countText, "3 rows")
        XCTAssertNil(Self.shownTexts(viewer, rowid: 1))
        XCTAssertEqual(log.reloads, 0, "the list follows the database through updates, not reloads")
        XCTAssertEqual(log.updates.count, 3)
        ViewerTestLoop.close(viewer)
    } }

    /// The title's tooltip says how the table is followed: by reading every rowid at each
    /// commit until another program installs the change log, then from the log.
    func testTheTitlesTooltipSaysWhetherEachCommitIsReadFromTheChangeLog() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample)
        ViewerTestLoop.wait("how the table is followed") { viewer.titleTooltip?.contains("\n") == true }
        XCTAssertEqual(viewer.titleTooltip, sample.path + "\ntable fruit has no change log: each commit reads every rowid (list-viewer --install-change-log adds one)")

        let other = try sample.otherConnection()
        try other.write { db in try SQLiteChangeLog.install(on: "fruit", in: db) }
        ViewerTestLoop.wait("followed from the log") { viewer.titleTooltip == sample.path + "\neach commit is read from the table's change log" }
        let keyReads = try XCTUnwrap(viewer.liveTable?.storage.keyReadCount)
        try other.write { db in try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (4, 'plum', 'stone')") }
        ViewerTestLoop.wait("the row written") { viewer.recordTitles == [["apple", "pear"], ["cherry", "plum"]] }
        XCTAssertEqual(viewer.liveTable?.storage.keyReadCount, keyReads, "read from the log")
        XCTAssertEqual(viewer.titleTooltip, sample.path + "\neach commit is read from the table's change log")
        try other.close()
        ViewerTestLoop.close(viewer)
    } }

    func testWritesFromAnotherProcessWhileScrolledFarDownArriveAsOneMinimalUpdate() throws { try MainActor.assumeIsolated {
        // 10,003 rows: the three fruits, then rowids 4…10003.
        let sample = try SampleDatabase(extraSQL: """
            WITH RECURSIVE n(x) AS (SELECT 4 UNION ALL SELECT x + 1 FROM n WHERE x < 10003)
            INSERT INTO fruit (id, name, category) SELECT x, 'fruit ' || x, 'pome' FROM n;
            """)
        defer { sample.remove() }
        let viewer = Self.open(sample, sectionBy: nil)
        XCTAssertEqual(viewer.countText, "10,003 rows")
        // Item 5000 (rowid 5001) on screen (GTK scrolls as little as it can: at the window's edge).
        viewer.manager.scrollTo(IndexPath(item: 5000, section: 0))
        ViewerTestLoop.wait("row 5001 shown with its record") { Self.shownTexts(viewer, rowid: 5001)?.title == "fruit 5001" }
        // The rows GTK bound on the way down have their records too.
        ViewerTestLoop.waitForFrames(of: viewer.manager.view)
        ViewerTestLoop.wait("the pages of the rows bound") { viewer.liveTable?.storage.pagesBeingRead == 0 }
        let log = UpdateRecorder()
        log.next = viewer.manager.contentUpdater
        viewer.manager.storageUpdater = log

        // One commit of another program: a row below deleted, the row on screen changed, one added at the end.
        let commit = try ChildProcess.sqlite3(sample.path, """
            BEGIN; DELETE FROM fruit WHERE id = 5003; UPDATE fruit SET name = 'changed' WHERE id = 5001;
            INSERT INTO fruit (id, name, category) VALUES (20000, 'last', 'pome'); COMMIT;
            """)
        XCTAssertEqual(commit.status, 0, commit.errors)
        ViewerTestLoop.wait("the changed row, on screen") {
            Self.shownTexts(viewer, rowid: 5001)?.title == "changed"
                && viewer.manager.row(at: IndexPath(item: 5000, section: 0)).map { gtk_widget_get_mapped($0.rootWidget) != 0 } == true
        }
        XCTAssertEqual(log.reloads, 0)
        // (Any later update is a page of rows GTK bound meanwhile.)
        XCTAssertEqual(log.updates.first?.changes, [
            .deleteItems(section: 0, items: 5002..<5003), .insertItems(section: 0, items: 10002..<10003),
            .updateItem(IndexPath(item: 5000, section: 0)),
        ], "the delete, the insert and the change, as such, in one update")
        XCTAssertEqual(viewer.countText, "10,003 rows")
        ViewerTestLoop.close(viewer)
    } }

    func testTheSearchFiltersInTheQueryAndKeepsFollowingTheDatabase() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample, sectionBy: nil)
        XCTAssertEqual(viewer.manager.storage.headerModel(forSection: 0) as? String, "fruit")
        viewer.searchEntry.text = "pe"
        ViewerTestLoop.wait("the search to apply") { viewer.countText == "1 matching row" }
        ViewerTestLoop.wait("the matching row") { viewer.recordTitles == [["pear"]] }

        try sample.otherConnection().write { db in
            try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (4, 'peach', 'stone'), (5, 'fig', 'other')")
        }
        ViewerTestLoop.wait("the new matching row") { viewer.recordTitles == [["pear", "peach"]] }
        XCTAssertEqual(viewer.countText, "2 matching rows")

        viewer.searchEntry.text = ""
        ViewerTestLoop.wait("the search to clear") { viewer.countText == "5 rows" }
        ViewerTestLoop.wait("every row") { viewer.recordTitles == [["apple", "pear", "cherry", "peach", "fig"]] }
        ViewerTestLoop.close(viewer)
    } }

    func testAWrongTableIsAMessageAndAnotherSourceTakesTheListBack() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "vegetable")
        ViewerTestLoop.wait("the schema read off the main thread") { viewer.problem != nil }
        XCTAssertEqual(viewer.problem, "fruits.sqlite has no table vegetable; tables: fruit")

        // A dropped database opens its only table; a catalog afterwards shows in the list.
        viewer.open(sample.path)
        ViewerTestLoop.wait("the first rows") { viewer.countText == "3 rows" }
        XCTAssertNil(viewer.problem)
        XCTAssertEqual(viewer.countText, "3 rows")
        viewer.show(try CatalogLoader.load(path: ViewerResources.sampleCatalog.path))
        XCTAssertNil(viewer.liveTable)
        XCTAssertTrue(viewer.manager.storage === viewer.filter.storage)
        XCTAssertEqual(viewer.countText, "310 items")
        ViewerTestLoop.close(viewer)
    } }

    func testTheTableViewSortsTheRowsAndRowsWrittenLaterFindTheirPlace() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample)
        viewer.setViewMode(.table)
        let name = try XCTUnwrap(viewer.tableManager.columns.first { $0.title == "name" })
        viewer.tableManager.sort(by: name, ascending: false)
        ViewerTestLoop.wait("the sort, in SQL") { viewer.recordTitles == [["pear", "apple"], ["cherry"]] }
        let other = try sample.otherConnection()
        try other.write { db in try db.execute(sql: "INSERT INTO fruit (name, category, price) VALUES ('orange', 'pome', 1)") }
        ViewerTestLoop.wait("the new row in its place") { viewer.recordTitles == [["pear", "orange", "apple"], ["cherry"]] }
        viewer.tableManager.sort(by: nil)
        ViewerTestLoop.wait("the query's order (by rowid) again") { viewer.recordTitles == [["apple", "pear", "orange"], ["cherry"]] }
        ViewerTestLoop.close(viewer)
    } }

    func testTheTableViewShowsTheDatabaseTablesOwnColumnsAndSortsNumbersAsNumbers() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample, sectionBy: nil)
        viewer.setViewMode(.table)
        XCTAssertEqual(viewer.tableManager.columns.map(\.title), ["#", "id", "name", "category", "price", "photo"])
        let price = try XCTUnwrap(viewer.tableManager.columns.first { $0.title == "price" })
        viewer.tableManager.sort(by: price, ascending: false)
        ViewerTestLoop.wait("the sort by price, as numbers") { viewer.recordTitles == [["cherry", "pear", "apple"]] }
        // The cells are bound again at the view's next layout, after the rows are in order.
        ViewerTestLoop.wait("the cells of the sorted rows") {
            (viewer.tableManager.row(at: IndexPath(item: 0, section: 0)) as? TextCell)?.text == "3"
        }
        // Another source gives the table its own columns back.
        viewer.show(try CatalogLoader.load(path: ViewerResources.sampleCatalog.path))
        XCTAssertEqual(viewer.tableManager.columns.map(\.title), ["Name", "Kind", "Size", "Modified"])
        ViewerTestLoop.close(viewer)
    } }

    /// Typing in a table's list finds rows in SQL: by the first text column (the rows'
    /// titles), or by the column the table view sorts by.
    func testTypingFindsRowsByTheirTitleOrByTheSortedColumnInSQL() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample)
        let storage = try XCTUnwrap(viewer.liveTable?.storage)
        XCTAssertEqual(storage.query.searchBy, "\"name\"", "the first text column: the rows' title")
        XCTAssertTrue(storage.searchesItems)
        var found: IndexPath??
        storage.searchItem(matching: "CH", anywhere: false, from: nil, forward: true) { found = .some($0) }
        ViewerTestLoop.wait("SQLite's answer") { found != nil }
        XCTAssertEqual(found, IndexPath(item: 0, section: 1), "cherry, in the stone fruit")

        viewer.setViewMode(.table)
        let price = try XCTUnwrap(viewer.tableManager.columns.first { $0.title == "price" })
        viewer.tableManager.sort(by: price, ascending: true)
        ViewerTestLoop.wait("the sort, in SQL") { viewer.liveTable?.storage.query.searchBy == "\"price\"" }
        ViewerTestLoop.close(viewer)
    } }

    /// A table opened again shows the row the user left at the top, though it is past the
    /// first rows shown before every rowid is read: the place waits for them.
    func testATableOpenedAgainShowsTheRowLeftFarDownOnceEveryRowidIsRead() throws { try MainActor.assumeIsolated {
        let folder = NSTemporaryDirectory() + "DatabaseWindowTests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rows.sqlite"
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                CREATE TABLE item (name TEXT NOT NULL);
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 200000)
                INSERT INTO item SELECT 'item ' || x FROM n;
                """)
        }
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(path, table: "item", sectionBy: nil)
        ViewerTestLoop.wait("every rowid") { viewer.isLoaded && viewer.liveTable?.storage.isLoaded == true }
        XCTAssertTrue(viewer.manager.scrollTo(IndexPath(item: 150_000, section: 0), at: .top))
        ViewerTestLoop.waitForFrames(of: viewer.manager.view, 6)
        let left = try XCTUnwrap(viewer.manager.place)
        XCTAssertEqual(left.itemIdentity, "150001")

        viewer.openDatabase(sample.path, table: "fruit", sectionBy: nil)
        ViewerTestLoop.wait("the fruit") { viewer.titleText == "fruits.sqlite — fruit" && viewer.isLoaded }
        viewer.openDatabase(path, table: "item", sectionBy: nil)
        ViewerTestLoop.wait("the first rows again") { viewer.titleText == "rows.sqlite — item" && viewer.isLoaded }
        let loadedAtFirstRows = viewer.liveTable?.storage.isLoaded
        ViewerTestLoop.wait("the place left") { viewer.manager.place?.itemIdentity == left.itemIdentity }
        ViewerTestLoop.waitForFrames(of: viewer.manager.view, 5)
        XCTAssertEqual(viewer.manager.place?.itemIdentity, left.itemIdentity)
        XCTAssertEqual(viewer.manager.place?.offset ?? .nan, left.offset, accuracy: 1)
        XCTAssertEqual(loadedAtFirstRows, false, "shown first with the first rows' rowids alone: the place waited")
        ViewerTestLoop.close(viewer)
    } }
}
