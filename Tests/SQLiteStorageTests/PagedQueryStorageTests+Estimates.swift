import Foundation
import GRDB
import ModelStorage
import SQLiteStorage
import TestSupport
import XCTest

/// A table of over a million rows, whose sections an index orders, shows its first rows with
/// estimated counts (its rows shared evenly among its sections), corrected in place when
/// every key is read.
extension PagedQueryStorageTests {
    /// 1,200,000 books of table `big`: half in a, 30 % in b, 10 % each in c and d, by rowid.
    func makeBigTable(indexed: Bool) throws {
        try offMain { [database] in
            try database!.write { db in
                try db.execute(sql: """
                    CREATE TABLE big (title TEXT NOT NULL, genre TEXT NOT NULL, year INTEGER NOT NULL);
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1200000)
                    INSERT INTO big SELECT 'book ' || x,
                        CASE WHEN x % 10 < 5 THEN 'a' WHEN x % 10 < 8 THEN 'b' WHEN x % 10 < 9 THEN 'c' ELSE 'd' END, 2000 FROM n;
                    """ + (indexed ? "CREATE INDEX big_genre ON big (genre);" : ""))
            }
        }
    }

    func testTheFirstRowsOfABigTableComeWithEstimatedCountsWhichEveryKeyCorrectsInPlace() throws {
        try makeBigTable(indexed: true)
        let (storage, recorder) = makeStorage(PagedQuery(table: "big", sectionBy: "genre"))
        let watcher = ReloadWatcher()
        recorder.next = watcher
        let unkeyed = IndexPath(item: 1000, section: 1)
        var atFirstReload: (loaded: Bool, counts: [Int], bound: PagedRow<Book>?)?
        watcher.onReload = { [unowned self] in
            atFirstReload = atFirstReload ?? (storage.isLoaded, (0..<storage.numberOfSections()).map(storage.numberOfItems(inSection:)),
                                              book(storage, unkeyed.item, unkeyed.section))
        }
        waitUntil(timeout: 180) { storage.isLoaded }
        let first = try XCTUnwrap(atFirstReload)
        XCTAssertFalse(first.loaded)
        XCTAssertEqual(first.counts, [300_000, 300_000, 300_000, 300_000], "the rows shared evenly among the four sections")
        XCTAssertNil(first.bound?.id, "b's 1,001st row has no key yet")

        XCTAssertEqual(recorder.reloads, 1, "corrected by an update, not a reload")
        XCTAssertEqual((0..<storage.numberOfSections()).map(storage.numberOfItems(inSection:)), [600_000, 360_000, 120_000, 120_000])
        XCTAssertEqual(recorder.updates.first?.changes, [.insertItems(section: 0, items: 300_000..<600_000), .insertItems(section: 1, items: 300_000..<360_000),
                                                         .deleteItems(section: 2, items: 120_000..<300_000), .deleteItems(section: 3, items: 120_000..<300_000)])
        // The row given out with no key takes its key (b's 1,001st: rowid 3,336) and record in place.
        waitUntil { recorder.updates.contains { ($0.updatedObjects[unkeyed] as? PagedRow<Book>)?.record != nil } }
        let row = recorder.updates.compactMap { $0.updatedObjects[unkeyed] as? PagedRow<Book> }.last
        XCTAssertEqual(row?.id, 3336)
        XCTAssertEqual(row?.record?.title, "book 3336")
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertEqual(mainThreadStatements.all, [])
        storage.stopObserving()
    }

    /// Sections of an expression an index orders are estimated too: NULL's (first, with no
    /// header) and a `?` in the expression's text (no parameter).
    func testSectionsOfAnIndexedExpressionAreEstimatedWithNullFirst() throws {
        try makeBigTable(indexed: false)
        try offMain { [database] in
            try database!.write { db in
                try db.execute(sql: "CREATE INDEX big_null ON big (nullif(genre, 'c')); CREATE INDEX big_mark ON big (coalesce(genre, '?'))")
            }
        }
        for (section, exact) in [("nullif(genre, 'c')", [120_000, 600_000, 360_000, 120_000]), ("coalesce(genre, '?')", [600_000, 360_000, 120_000, 120_000])] {
            let (storage, recorder) = makeStorage(PagedQuery(table: "big", sectionBy: section))
            let watcher = ReloadWatcher()
            recorder.next = watcher
            var counts: [Int]?
            watcher.onReload = { counts = counts ?? (0..<storage.numberOfSections()).map(storage.numberOfItems(inSection:)) }
            waitUntil(timeout: 180) { storage.isLoaded }
            XCTAssertEqual(counts, [300_000, 300_000, 300_000, 300_000], "estimated: \(section)")
            XCTAssertEqual((0..<4).map(storage.numberOfItems(inSection:)), exact, section)
            XCTAssertEqual(recorder.reloads, 1, section)
            XCTAssertEqual(storage.headerModel(forSection: 0) == nil, section.hasPrefix("nullif"), "NULL's section has no header")
            storage.stopObserving()
        }
    }

    /// Without an index on the section (each value would be a scan to find), the sections
    /// are counted before the first rows are shown.
    func testABigTableWhoseSectionNoIndexOrdersIsCountedFirst() throws {
        try makeBigTable(indexed: false)
        let (storage, recorder) = makeStorage(PagedQuery(table: "big", sectionBy: "genre"))
        let watcher = ReloadWatcher()
        recorder.next = watcher
        var counts: [Int]?
        watcher.onReload = { counts = counts ?? (0..<storage.numberOfSections()).map(storage.numberOfItems(inSection:)) }
        waitUntil(timeout: 180) { storage.isLoaded }
        XCTAssertEqual(counts, [600_000, 360_000, 120_000, 120_000])
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertTrue(recorder.updates.allSatisfy(\.isEmpty))
        storage.stopObserving()
    }
}
