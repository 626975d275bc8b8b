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
        let storage = PagedQueryStorage<Book>(database: database, query: query, pageSize: 50, maximumPages: maximumPages)
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

        // The first row of "history" (books 1, 5, 9, …): a placeholder, whose page is read.
        let placeholder = try XCTUnwrap(book(storage, 0, 1))
        XCTAssertTrue(placeholder.isPlaceholder)
        XCTAssertEqual(storage.pagesRead, 0)
        waitUntil { storage.pagesRead == 1 }
        // Its page: the first 50 rows of section 1 (positions 250..<300), as 50 updates in place.
        let update = try XCTUnwrap(recorder.updates.last)
        XCTAssertEqual(update.changes, (0..<50).map { .updateItem(IndexPath(item: $0, section: 1)) })
        XCTAssertEqual((update.updatedObjects[IndexPath(item: 0, section: 1)] as? PagedRow<Book>)?.record?.title, "Book 0001")
        XCTAssertEqual(book(storage, 0, 1)?.record?.title, "Book 0001")
        XCTAssertEqual(book(storage, 0, 1)?.id, placeholder.id, "the same row, now with its record")
        XCTAssertEqual(book(storage, 49, 1)?.record?.title, "Book 0197")
        XCTAssertTrue(try XCTUnwrap(book(storage, 50, 1)).isPlaceholder, "the next page is not read until asked for")
        XCTAssertEqual(mainThreadStatements.all, [], "no query on the main thread")
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

        storage.setQuery(PagedQuery(table: "book", filter: "title LIKE ?", arguments: ["%99%".databaseValue],
                                    orderBy: "title DESC", sectionBy: "genre"))
        waitUntil { recorder.reloads == 2 }
        // Books with "99" in the title: 99, 199, …, 999 and 990…998: 19, in the genres of their numbers.
        XCTAssertEqual((0..<storage.numberOfSections()).reduce(0) { $0 + storage.numberOfItems(inSection: $1) }, 19)
        XCTAssertEqual(storage.headerModel(forSection: 0) as? String, "fantasy")
        _ = book(storage, 0, 0)
        waitUntil { storage.record(at: IndexPath(item: 0, section: 0)) != nil }
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 0))?.title, "Book 0996", "the fantasy books, latest title first")
        XCTAssertEqual(mainThreadStatements.all, [])
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
}
