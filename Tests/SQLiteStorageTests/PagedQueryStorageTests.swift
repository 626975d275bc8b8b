import Foundation
import GRDB
import ModelStorage
import SQLiteStorage
import TestSupport
import XCTest

/// A row of the paged tests' table.
struct Book: FetchableRecord, Equatable, Sendable {
    var title: String
    var genre: String
    var year: Int

    init(row: Row) {
        title = row["title"]
        genre = row["genre"]
        year = row["year"]
    }
}

/// Runs `onReload` at each reload it is told (where the storage's state is that of the
/// reload).
final class ReloadWatcher: StorageUpdating {
    var onReload: () -> Void = {}
    func storageDidPerformUpdate(_ update: StorageUpdate) {}
    func storageNeedsReloading() { onReload() }
}

/// Counts the statements run on the main thread, from any connection of a pool.
final class MainThreadStatements: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []
    var all: [String] { lock.withLock { statements } }
    func record(_ sql: String) { lock.withLock { statements.append(sql) } }
}

/// `PagedQueryStorage` on a real SQLite file of 1,000 books in 4 genres: XCTest runs tests
/// on the main thread, and spinning the main run loop applies what the storage read.
final class PagedQueryStorageTests: XCTestCase {
    var folder: URL!
    var path: String { folder.appendingPathComponent("books.sqlite").path }
    var database: DatabasePool!
    let mainThreadStatements = MainThreadStatements()

    static let genres = ["fantasy", "history", "poetry", "science"]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("PagedQueryStorageTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = Configuration()
        let statements = mainThreadStatements
        configuration.prepareDatabase { db in
            db.trace { event in if Thread.isMainThread { statements.record("\(event)") } }
        }
        // Made and filled off the main thread, where the tests count the storage's statements.
        let (path, prepared) = (path, configuration)
        database = try offMain { try DatabasePool(path: path, configuration: prepared) }
        try offMain { [database] in
            try database!.write { db in
                try db.execute(sql: "CREATE TABLE book (title TEXT NOT NULL, genre TEXT NOT NULL, year INTEGER NOT NULL)")
                for number in 1...1000 {
                    try db.execute(sql: "INSERT INTO book (title, genre, year) VALUES (?, ?, ?)",
                                   arguments: [String(format: "Book %04d", number), Self.genres[number % 4], 1900 + number % 100])
                }
            }
        }
    }

    /// Adds books 1001 to `last`, all poetry of 2000 (more rows than the first rows read).
    func addPoetry(upTo last: Int) throws {
        try offMain { [database] in
            try database!.write { db in
                for number in 1001...last {
                    try db.execute(sql: "INSERT INTO book (title, genre, year) VALUES (?, 'poetry', 2000)", arguments: [String(format: "Book %04d", number)])
                }
            }
        }
    }

    /// Runs `work` on another thread and waits for it (`DispatchQueue.sync` would run it here).
    func offMain<T: Sendable>(_ work: @escaping @Sendable () throws -> T) throws -> T {
        nonisolated(unsafe) var result: Result<T, Error>!
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { result = Result(catching: work) }
        group.wait()
        return try result.get()
    }

    override func tearDownWithError() throws {
        database = nil
        try? FileManager.default.removeItem(at: folder)
    }

    func makeStorage(_ query: PagedQuery = PagedQuery(table: "book", orderBy: "title", sectionBy: "genre"),
                     maximumPages: Int = 4) -> (PagedQueryStorage<Book>, UpdateRecorder) {
        let storage = PagedQueryStorage<Book>(database: database, query: query, pageSize: 50, maximumPages: maximumPages,
                                              pollInterval: .milliseconds(50))
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        return (storage, recorder)
    }

    func waitUntil(timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return XCTFail("timed out", file: file, line: line) }
            RunLoop.main.run(until: Date().addingTimeInterval(0.005))
        }
    }

    func book(_ storage: PagedQueryStorage<Book>, _ item: Int, _ section: Int) -> PagedRow<Book>? {
        storage.item(at: IndexPath(item: item, section: section)) as? PagedRow<Book>
    }

    func testSectionsAndCountsComeFirstThenEachPageReplacesItsPlaceholdersInPlace() throws {
        let (storage, recorder) = makeStorage()
        XCTAssertEqual(storage.numberOfSections(), 0, "nothing before the query is read")
        waitUntil { storage.isLoaded }
        XCTAssertEqual(recorder.log, ["reload"])
        XCTAssertEqual(storage.numberOfSections(), 4)
        XCTAssertEqual((0..<4).map(storage.numberOfItems(inSection:)), [250, 250, 250, 250])
        XCTAssertEqual((0..<4).compactMap { storage.headerModel(forSection: $0) as? String }, Self.genres)

        // The first 10 rows of "history" (books 1, 5, 9, …), as a list binds them:
        // placeholders, whose page is read once.
        let placeholders = try (0..<10).map { try XCTUnwrap(book(storage, $0, 1)) }
        XCTAssertTrue(placeholders.allSatisfy(\.isPlaceholder))
        XCTAssertEqual(storage.pagesRead, 0)
        waitUntil { storage.pagesRead == 1 }
        // Its page: the first 50 rows of section 1 (positions 250..<300); the 10 rows shown
        // are updated in place, in one update.
        XCTAssertEqual(recorder.updates.count, 1)
        let update = try XCTUnwrap(recorder.updates.last)
        XCTAssertEqual(update.changes, (0..<10).map { .updateItem(IndexPath(item: $0, section: 1)) })
        let placeholder = placeholders[0]
        XCTAssertEqual((update.updatedObjects[IndexPath(item: 0, section: 1)] as? PagedRow<Book>)?.record?.title, "Book 0001")
        XCTAssertEqual(book(storage, 0, 1)?.record?.title, "Book 0001")
        XCTAssertEqual(book(storage, 0, 1)?.id, placeholder.id, "the same row, now with its record")
        XCTAssertEqual(book(storage, 49, 1)?.record?.title, "Book 0197")
        XCTAssertTrue(try XCTUnwrap(book(storage, 50, 1)).isPlaceholder, "the next page is not read until asked for")
        XCTAssertEqual(mainThreadStatements.all, [], "no query on the main thread")
    }

    /// Rows about to be shown (`prefetchItems`, as a list's prefetch tells it): their pages
    /// are read ahead, each once, and nothing is updated when they arrive (no placeholder was
    /// given out); the rows then come with their records at once.
    func testPrefetchedRowsArePagesReadAheadThatUpdateNothing() throws {
        let (storage, recorder) = makeStorage()
        waitUntil { storage.isLoaded }
        let before = recorder.log.count
        // Rows 40…59 of "history": the ends of its first two pages.
        storage.prefetchItems(at: (40..<60).map { IndexPath(item: $0, section: 1) })
        XCTAssertEqual(storage.pagesBeingRead, 2)
        storage.prefetchItems(at: [IndexPath(item: 45, section: 1)])
        XCTAssertEqual(storage.pagesBeingRead, 2, "a page being read is not read again")
        waitUntil { storage.pagesRead == 2 }
        XCTAssertEqual(recorder.log.count, before, "no row was given out: nothing to update")
        XCTAssertEqual(book(storage, 59, 1)?.record?.title, "Book 0237", "the row has its record when the list asks")
        XCTAssertEqual(book(storage, 0, 1)?.record?.title, "Book 0001")
        storage.prefetchItems(at: [IndexPath(item: 10, section: 1), IndexPath(item: 9_999, section: 1)])
        XCTAssertEqual(storage.pagesBeingRead, 0, "a page kept is not read again; a row past the end reads nothing")
        storage.cancelPrefetchingItems(at: [IndexPath(item: 10, section: 1)])
        XCTAssertEqual(storage.pagesRead, 2)
    }

    /// A storage shows its rows' count and first rows before it has read every key (one
    /// reload, `isLoaded` still false: the first screen does not wait for the keys), then
    /// takes every key, of the same snapshot, as no change: a row given out with no key gets
    /// its key and record in place.
    func testTheFirstRowsAreShownBeforeEveryKeyIsReadThenEachRowTakesItsKeyInPlace() throws {
        try addPoetry(upTo: 3000)
        let (storage, recorder) = makeStorage(PagedQuery(table: "book", orderBy: "title"), maximumPages: 8)
        let watcher = ReloadWatcher()
        recorder.next = watcher
        var atFirstReload: (loaded: Bool, count: Int, first: PagedRow<Book>?, last: PagedRow<Book>?)?
        watcher.onReload = { [unowned self] in
            atFirstReload = atFirstReload ?? (storage.isLoaded, storage.numberOfItems(inSection: 0), book(storage, 0, 0), book(storage, 2999, 0))
        }
        waitUntil { storage.isLoaded }
        let first = try XCTUnwrap(atFirstReload)
        XCTAssertFalse(first.loaded, "shown before every key was read")
        XCTAssertEqual(first.count, 3000)
        XCTAssertEqual(first.first?.id, 1, "the first row's key is read with the first rows")
        XCTAssertEqual(first.last?.isPlaceholder, true)
        XCTAssertNil(first.last.flatMap(\.id), "the last row's key is not read yet")
        XCTAssertEqual(recorder.reloads, 1, "every key changes nothing shown")
        XCTAssertEqual([storage.loadCount, storage.keyReadCount], [1, 1])

        // The last row, given out with no key, takes its key and record in place.
        let last = IndexPath(item: 2999, section: 0)
        waitUntil { recorder.updates.contains { $0.updatedObjects[last] != nil } }
        let row = recorder.updates.compactMap { $0.updatedObjects[last] as? PagedRow<Book> }.last
        XCTAssertEqual(row?.id, 3000)
        XCTAssertEqual(row?.record?.title, "Book 3000")
        XCTAssertEqual(book(storage, 2999, 0)?.id, 3000)
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertEqual(mainThreadStatements.all, [])
    }

    /// On a connection that is not a pool (a page would wait behind the read of every key),
    /// the first rows come with the records of the first pages: the list's first screen is
    /// whole at the first reload, before every key is read.
    func testOnAQueueTheFirstRowsComeWithTheRecordsOfTheFirstPages() throws {
        let queue = try offMain { [path] in try DatabaseQueue(path: path) }
        let storage = PagedQueryStorage<Book>(database: queue, query: PagedQuery(table: "book", orderBy: "title"), pageSize: 50, maximumPages: 8,
                                              pollInterval: nil)
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        let watcher = ReloadWatcher()
        recorder.next = watcher
        var pagesShown: [Int] = []
        storage.onPage = { pagesShown.append($0) }
        var atFirstReload: (loaded: Bool, first: PagedRow<Book>?, lastOfFirstPages: PagedRow<Book>?, next: PagedRow<Book>?)?
        watcher.onReload = { [unowned self] in
            atFirstReload = atFirstReload ?? (storage.isLoaded, book(storage, 0, 0), book(storage, 199, 0), book(storage, 200, 0))
        }
        waitUntil { storage.isLoaded }
        let first = try XCTUnwrap(atFirstReload)
        XCTAssertFalse(first.loaded)
        XCTAssertEqual(first.first?.record?.title, "Book 0001", "the first row has its record at the first reload")
        XCTAssertEqual(first.lastOfFirstPages?.record?.title, "Book 0200")
        XCTAssertEqual(first.next?.isPlaceholder, true, "row 201 is past the first records")
        XCTAssertEqual(pagesShown.prefix(4), [0, 1, 2, 3], "told as pages shown")
        XCTAssertEqual(recorder.reloads, 1)
        waitUntil { book(storage, 200, 0)?.record != nil }
        XCTAssertEqual(book(storage, 200, 0)?.record?.title, "Book 0201")
        storage.stopObserving()
    }

    /// Stopped while it shows its first rows, a storage still reads every key once, so
    /// that the rows further down get their keys and records; then it follows no more.
    func testAStorageStoppedWhileItShowsItsFirstRowsStillReadsEveryKeyOnce() throws {
        try addPoetry(upTo: 3000)
        let (storage, recorder) = makeStorage(PagedQuery(table: "book", orderBy: "title"), maximumPages: 8)
        let watcher = ReloadWatcher()
        recorder.next = watcher
        var stoppedBeforeEveryKey = false
        watcher.onReload = {
            stoppedBeforeEveryKey = !storage.isLoaded
            storage.stopObserving()
        }
        waitUntil { storage.isLoaded }
        XCTAssertTrue(stoppedBeforeEveryKey)
        XCTAssertEqual(storage.key(at: IndexPath(item: 2999, section: 0)), 3000)
        _ = book(storage, 2999, 0)
        waitUntil { book(storage, 2999, 0)?.record != nil }
        // Followed no more: a commit is not shown.
        try offMain { [database] in try database!.write { db in try db.execute(sql: "DELETE FROM book WHERE rowid = 1") } }
        RunLoop.main.run(until: Date().addingTimeInterval(0.3))
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 3000)
        XCTAssertEqual(recorder.reloads, 1)
    }

    func testPagesBeyondTheMostKeptAreDroppedAndReadAgainWhenShownAgain() throws {
        let (storage, _) = makeStorage(maximumPages: 3)
        waitUntil { storage.isLoaded }
        // Five pages of section 0, one after another, as a list scrolled through them.
        for page in 0..<5 {
            _ = book(storage, page * 50, 0)
            waitUntil { storage.pagesRead == page + 1 }
        }
        XCTAssertEqual(storage.pagesKept, 3)
        XCTAssertNil(storage.record(at: IndexPath(item: 0, section: 0)), "the first page was dropped")
        XCTAssertEqual(storage.record(at: IndexPath(item: 200, section: 0))?.title, "Book 0804")
        // Shown again: a placeholder, then read again.
        XCTAssertTrue(try XCTUnwrap(book(storage, 0, 0)).isPlaceholder)
        waitUntil { storage.pagesRead == 6 }
        XCTAssertEqual(book(storage, 0, 0)?.record?.title, "Book 0004")
        XCTAssertNil(storage.record(at: IndexPath(item: 100, section: 0)), "the page used longest ago made room")
        XCTAssertEqual(storage.record(at: IndexPath(item: 150, section: 0))?.title, "Book 0604")
        XCTAssertEqual(storage.pagesKept, 3)
    }

    func testTheSearchAndTheOrderAreSQL() throws {
        let (storage, recorder) = makeStorage(PagedQuery(table: "book", orderBy: "year DESC, title", sectionBy: "genre"))
        waitUntil { storage.isLoaded }
        _ = book(storage, 0, 0)
        waitUntil { storage.pagesRead == 1 }
        // fantasy: books 4, 8, …, 1000; the latest year (1996: books 96, 196, …, 996) first.
        XCTAssertEqual((0..<3).compactMap { book(storage, $0, 0)?.record?.title }, ["Book 0096", "Book 0196", "Book 0296"])

        recorder.updates = []
        let loads = storage.loadCount
        storage.setQuery(PagedQuery(table: "book", filter: "title LIKE ?", arguments: ["%99%".databaseValue],
                                    orderBy: "title DESC", sectionBy: "genre"))
        waitUntil { storage.loadCount > loads }
        // Books with "99" in the title: 99, 199, …, 999 and 990…998: 19, in the genres of their numbers.
        XCTAssertEqual((0..<storage.numberOfSections()).reduce(0) { $0 + storage.numberOfItems(inSection: $1) }, 19)
        // Shown as the rows that went and those that moved, in one update, not a reload.
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertEqual(recorder.updates.count, 1)
        let changes = try XCTUnwrap(recorder.updates.first).changes
        let deleted = changes.reduce(0) { count, change in if case .deleteItems(_, let items) = change { count + items.count } else { count } }
        XCTAssertEqual(deleted, 981)
        XCTAssertTrue(changes.allSatisfy { change in
            switch change { case .deleteItems, .moveItem, .updateItem: true; default: false }
        }, "\(changes)")

        // A new order of more rows than `largestUpdate` is a reload: cheaper than moving them
        // one by one.
        storage.largestUpdate = 500
        storage.setQuery(PagedQuery(table: "book", orderBy: "title DESC", sectionBy: "genre"))
        waitUntil { recorder.reloads == 2 }
        storage.setQuery(PagedQuery(table: "book", filter: "title LIKE ?", arguments: ["%99%".databaseValue],
                                    orderBy: "title DESC", sectionBy: "genre"))
        waitUntil { storage.numberOfItems(inSection: 0) == 2 }
        XCTAssertEqual(storage.headerModel(forSection: 0) as? String, "fantasy")
        _ = book(storage, 0, 0)
        waitUntil { storage.record(at: IndexPath(item: 0, section: 0)) != nil }
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 0))?.title, "Book 0996", "the fantasy books, latest title first")
        XCTAssertEqual(mainThreadStatements.all, [])
    }

    func testRowsDeletedElsewhereBeforeTheirPageIsReadGoWithoutAMessage() throws {
        // No polling: the storage learns of the other connection's commit from the page alone.
        let storage = PagedQueryStorage<Book>(database: database, query: PagedQuery(table: "book", orderBy: "title", sectionBy: "genre"),
                                              pageSize: 50, maximumPages: 4, pollInterval: nil)
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        var errors: [String] = []
        storage.onError = { errors.append("\($0)") }
        waitUntil { storage.isLoaded }
        // The first two fantasy books go, through a connection of another program.
        try offMain { [path] in
            try DatabaseQueue(path: path).write { db in try db.execute(sql: "DELETE FROM book WHERE title IN ('Book 0004', 'Book 0008')") }
        }
        XCTAssertTrue(try XCTUnwrap(book(storage, 0, 0)).isPlaceholder)
        waitUntil { storage.numberOfItems(inSection: 0) == 248 && storage.record(at: IndexPath(item: 0, section: 0)) != nil }
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 0))?.title, "Book 0012")
        XCTAssertEqual(storage.record(at: IndexPath(item: 49, section: 0))?.title, "Book 0208", "the first page read again with the new keys")
        XCTAssertEqual(errors, [], "a row deleted is no damaged file")
    }

    func testAnUnsectionedQueryIsOneSectionEvenWithNoRows() throws {
        let (storage, _) = makeStorage(PagedQuery(table: "book", filter: "year < 0"))
        waitUntil { storage.isLoaded }
        XCTAssertEqual(storage.numberOfSections(), 1)
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 0)
        XCTAssertNil(storage.headerModel(forSection: 0))
        XCTAssertNil(storage.item(at: IndexPath(item: 0, section: 0)), "no row past the end")
        XCTAssertNil(storage.item(at: IndexPath(item: 0, section: 1)), "no section past the end")
    }

    func testAQueryThatCannotBeReadIsReportedAndTheRowsStay() throws {
        let (storage, recorder) = makeStorage()
        var errors: [String] = []
        storage.onError = { errors.append("\($0)") }
        waitUntil { storage.isLoaded }
        storage.setQuery(PagedQuery(table: "no_such_table"))
        waitUntil { !errors.isEmpty }
        XCTAssertTrue(errors[0].contains("no such table: no_such_table"), errors[0])
        XCTAssertEqual(storage.numberOfSections(), 4, "the rows shown stay")
        XCTAssertEqual(recorder.reloads, 1)
    }

    func testATableDroppedUnderThePagesLeavesPlaceholdersAndAMessage() throws {
        let (storage, _) = makeStorage()
        var errors: [String] = []
        storage.onError = { errors.append("\($0)") }
        waitUntil { storage.isLoaded }
        try offMain { [database] in try database!.write { db in try db.execute(sql: "DROP TABLE book") } }
        XCTAssertTrue(try XCTUnwrap(book(storage, 0, 0)).isPlaceholder)
        waitUntil { !errors.isEmpty }
        XCTAssertTrue(errors[0].contains("no such table: book"), errors[0])
        XCTAssertTrue(try XCTUnwrap(book(storage, 0, 0)).isPlaceholder, "the row stays a placeholder")
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 250)
    }

    // MARK: Following the database

    /// Writes `sql` through a connection of its own, as another program would: the storage
    /// finds it by polling. Then waits for the storage to have read the rows again.
    func writeElsewhere(_ storage: PagedQueryStorage<Book>, _ sql: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let loads = storage.loadCount
        let path = path
        try offMain {
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            let other = try DatabaseQueue(path: path, configuration: configuration)
            try other.write { db in try db.execute(sql: sql) }
        }
        waitUntil(file: file, line: line) { storage.loadCount > loads }
    }

    func testCommitsElsewhereArriveAsInsertsUpdatesMovesAndDeletesInPlace() throws {
        let (storage, recorder) = makeStorage()
        waitUntil { storage.isLoaded }
        // A screenful of "history", shown with its records.
        for item in 0..<10 { _ = book(storage, item, 1) }
        waitUntil { storage.record(at: IndexPath(item: 0, section: 1)) != nil }
        recorder.updates = []

        // An insert among the rows shown: Book 0002a sorts between Book 0001 and Book 0005.
        try writeElsewhere(storage, "INSERT INTO book (title, genre, year) VALUES ('Book 0002a', 'history', 2000)")
        XCTAssertEqual(recorder.updates.map(\.changes), [[.insertItems(section: 1, items: 1..<2)]], "one insert, nothing else")
        XCTAssertEqual(storage.record(at: IndexPath(item: 1, section: 1))?.title, "Book 0002a", "read with the pages held")
        XCTAssertEqual(storage.numberOfItems(inSection: 1), 251)

        // A change of a row shown that keeps its place: one update of that row.
        try writeElsewhere(storage, "UPDATE book SET year = 1492 WHERE title = 'Book 0005'")
        XCTAssertEqual(recorder.updates.dropFirst().map(\.changes), [[.updateItem(IndexPath(item: 2, section: 1))]])
        XCTAssertEqual(storage.record(at: IndexPath(item: 2, section: 1))?.year, 1492)

        // A row that changes section moves: Book 0009 from history to fantasy (after Book 0008).
        try writeElsewhere(storage, "UPDATE book SET genre = 'fantasy' WHERE title = 'Book 0009'")
        XCTAssertEqual(recorder.updates.dropFirst(2).map(\.changes),
                       [[.moveItem(from: IndexPath(item: 3, section: 1), to: IndexPath(item: 2, section: 0))]])
        XCTAssertEqual(storage.rowID(at: IndexPath(item: 2, section: 0)), 9)

        // A delete; then a new genre, as a section with its header.
        try writeElsewhere(storage, "DELETE FROM book WHERE title = 'Book 0001'")
        XCTAssertEqual(recorder.updates.dropFirst(3).map(\.changes), [[.deleteItems(section: 1, items: 0..<1)]])
        try writeElsewhere(storage, "INSERT INTO book (title, genre, year) VALUES ('Book 2000', 'zoology', 2001)")
        XCTAssertEqual(recorder.updates.dropFirst(4).map(\.changes),
                       [[.insertSection(4), .supplementary(.header, .insert, section: 4), .insertItems(section: 4, items: 0..<1)]])
        XCTAssertEqual(storage.headerModel(forSection: 4) as? String, "zoology")
        XCTAssertEqual(recorder.reloads, 1, "never a reload after the first read")
        XCTAssertEqual(mainThreadStatements.all, [])
    }

    func testABurstOfCommitsIsReadOnceAndAWriteThatChangesNothingShownIsNoUpdate() throws {
        let (storage, recorder) = makeStorage()
        waitUntil { storage.isLoaded }
        recorder.updates = []
        // Through the storage's own database: found at once, 20 commits read together.
        let loads = storage.loadCount
        try offMain { [database] in
            for number in 0..<20 {
                try database!.write { db in
                    try db.execute(sql: "INSERT INTO book (title, genre, year) VALUES (?, 'poetry', 1999)", arguments: ["Poem \(number)"])
                }
            }
        }
        waitUntil { storage.numberOfItems(inSection: 2) == 270 }
        XCTAssertLessThan(storage.loadCount - loads, 20, "the burst is read in fewer reads than commits")
        XCTAssertEqual(recorder.updates.flatMap(\.changes).reduce(0) { count, change in
            if case .insertItems(_, let items) = change { count + items.count } else { count }
        }, 20)
        // A change to a row no page holds: the rows' places stay, and nothing is shown anew.
        recorder.updates = []
        try writeElsewhere(storage, "UPDATE book SET year = 1000 WHERE title = 'Book 0500'")
        XCTAssertEqual(recorder.updates.count, 0)
    }

    func testATableWithAColumnCalledRowidAndAQuoteInItsNameIsRead() throws {
        try offMain { [database] in
            try database!.write { db in
                try db.execute(sql: #"""
                    CREATE TABLE "odd ""name""" (rowid TEXT, title TEXT NOT NULL, genre TEXT NOT NULL, year INTEGER NOT NULL);
                    INSERT INTO "odd ""name""" VALUES ('not a number', 'Odd 1', 'odd', 1), ('neither', 'Odd 2', 'odd', 2);
                    """#)
            }
        }
        let (storage, _) = makeStorage(PagedQuery(table: "odd \"name\"", rowID: "_rowid_", orderBy: "title DESC"))
        waitUntil { storage.isLoaded }
        XCTAssertEqual(storage.rowID(at: IndexPath(item: 0, section: 0)), 2)
        _ = book(storage, 0, 0)
        waitUntil { storage.record(at: IndexPath(item: 0, section: 0)) != nil }
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 0))?.title, "Odd 2")
    }

    func testALockedDatabaseIsAMessageAndIsReadOnceItIsFree() throws {
        // A file in rollback-journal mode, where a writer's exclusive lock keeps readers out.
        let lockedPath = folder.appendingPathComponent("locked.sqlite").path
        let holder = try offMain { () -> DatabaseQueue in
            var holding = Configuration()
            holding.allowsUnsafeTransactions = true  // the lock is held across accesses
            let queue = try DatabaseQueue(path: lockedPath, configuration: holding)
            try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE book (title TEXT NOT NULL, genre TEXT NOT NULL, year INTEGER NOT NULL);
                    INSERT INTO book VALUES ('Locked 1', 'poetry', 1), ('Locked 2', 'poetry', 2);
                    """)
            }
            return queue
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(0.2)
        let impatient = configuration
        let locked = try offMain { try DatabaseQueue(path: lockedPath, configuration: impatient) }
        try offMain { try holder.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") } }
        let storage = PagedQueryStorage<Book>(database: locked, query: PagedQuery(table: "book"), pollInterval: .milliseconds(50))
        var errors: [String] = []
        storage.onError = { errors.append("\($0)") }
        waitUntil { !errors.isEmpty }
        XCTAssertTrue(errors[0].contains("database is locked"), errors[0])
        XCTAssertEqual(storage.numberOfSections(), 0, "nothing shown, nothing lost")

        try offMain { try holder.inDatabase { db in try db.execute(sql: "COMMIT") } }
        storage.refresh()
        waitUntil { storage.isLoaded }
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 2)
        _ = storage.item(at: IndexPath(item: 1, section: 0))
        waitUntil { storage.record(at: IndexPath(item: 1, section: 0)) != nil }
        XCTAssertEqual(storage.record(at: IndexPath(item: 1, section: 0))?.title, "Locked 2")
        storage.stopObserving()
    }
}
