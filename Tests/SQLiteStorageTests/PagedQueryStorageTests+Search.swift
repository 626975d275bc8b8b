import Foundation
import GRDB
import ModelStorage
import SQLiteStorage
import XCTest

/// Type-ahead find on a paged storage (`PagedQuery.searchBy`): SQLite finds the rows whose
/// title matches, and the storage the first of them in its order from where the search
/// starts, reading no page. On the real SQLite file with 3,000 books in four genres (books
/// 1,001 to 3,000 are poetry).
extension PagedQueryStorageTests {
    /// The index path the storage finds for `text`, waited for.
    private func search(_ storage: PagedQueryStorage<Book>, _ text: String, anywhere: Bool = false, from start: IndexPath?,
                        forward: Bool = true, file: StaticString = #filePath, line: UInt = #line) -> IndexPath? {
        var answer: IndexPath??
        storage.searchItem(matching: text, anywhere: anywhere, from: start, forward: forward) { answer = .some($0) }
        waitUntil(file: file, line: line) { answer != nil }
        return answer ?? nil
    }

    private func loadedStorage(_ query: PagedQuery) throws -> PagedQueryStorage<Book> {
        try addPoetry(upTo: 3000)
        let (storage, _) = makeStorage(query)
        waitUntil { storage.isLoaded }
        return storage
    }

    func testASearchFindsTheFirstMatchFromItsStartInTheStoragesOrderGoingRoundTheEnd() throws {
        let storage = try loadedStorage(PagedQuery(table: "book", orderBy: "title", sectionBy: "genre", searchBy: "title"))
        XCTAssertTrue(storage.searchesItems)
        XCTAssertEqual((0..<4).map(storage.numberOfItems(inSection:)), [250, 250, 2250, 250])
        let pagesRead = storage.pagesRead
        // Fantasy holds books 4, 8, … 1000 (Book 0400 is its 100th), history 1, 5, … 997.
        XCTAssertEqual(search(storage, "book 04", from: nil), IndexPath(item: 99, section: 0), "the first in the list")
        XCTAssertEqual(search(storage, "book 04", from: IndexPath(item: 99, section: 0)), IndexPath(item: 99, section: 0),
                       "the row it starts from, when it matches")
        XCTAssertEqual(search(storage, "book 04", from: IndexPath(item: 125, section: 0)), IndexPath(item: 100, section: 1),
                       "on into the next section")
        XCTAssertEqual(search(storage, "book 04", from: IndexPath(item: 0, section: 1), forward: false), IndexPath(item: 123, section: 0),
                       "backwards: the last before (Book 0496)")
        XCTAssertEqual(search(storage, "BOOK 0403", from: nil), IndexPath(item: 100, section: 3), "ASCII case ignored; far down")
        // Farther than the rows looked at first: every match read, then found in order.
        XCTAssertEqual(search(storage, "book 2999", from: IndexPath(item: 0, section: 1)), IndexPath(item: 2248, section: 2))
        XCTAssertEqual(search(storage, "book 2999", from: IndexPath(item: 0, section: 3)), IndexPath(item: 2248, section: 2),
                       "round the end")
        XCTAssertEqual(search(storage, "book 0003", from: IndexPath(item: 0, section: 0), forward: false), IndexPath(item: 0, section: 3),
                       "backwards round the start")
        XCTAssertEqual(search(storage, "0403", anywhere: true, from: nil), IndexPath(item: 100, section: 3), "contains")
        XCTAssertEqual(search(storage, "k 2999", anywhere: true, from: IndexPath(item: 0, section: 1)), IndexPath(item: 2248, section: 2))
        XCTAssertNil(search(storage, "book 9", from: nil), "no match")
        XCTAssertNil(search(storage, "0403", from: nil), "not a prefix")
        // What is typed is looked for as it is: `_` and `%` are no wildcards.
        XCTAssertNil(search(storage, "book_0403", from: nil))
        XCTAssertNil(search(storage, "book %3", from: nil))
        XCTAssertEqual(storage.pagesRead, pagesRead, "no page read")
        XCTAssertEqual(mainThreadStatements.all, [], "no query on the main thread")
    }

    func testASearchKeepsToTheQuerysConditionAndItsArguments() throws {
        let storage = try loadedStorage(PagedQuery(table: "book", filter: "year > ?", arguments: [1950.databaseValue], orderBy: "title", searchBy: "title"))
        XCTAssertNil(search(storage, "book 0403", from: nil), "of 1903: not a row of the query")
        let found = try XCTUnwrap(search(storage, "book 0453", from: nil))
        XCTAssertEqual(storage.rowID(at: found), 453)
    }

    func testAStorageWithoutASearchColumnDoesNotSearchAndAFailedSearchIsAnError() throws {
        let plain = try loadedStorage(PagedQuery(table: "book", orderBy: "title"))
        XCTAssertFalse(plain.searchesItems)
        XCTAssertNil(search(plain, "book", from: nil))

        let (storage, _) = makeStorage(PagedQuery(table: "book", orderBy: "title", searchBy: "no_such_column"))
        var errors: [Error] = []
        storage.onError = { errors.append($0) }
        waitUntil { storage.isLoaded }
        XCTAssertNil(search(storage, "book", from: nil))
        XCTAssertEqual(errors.count, 1, "told, as a page that cannot be read is")
        XCTAssertTrue("\(errors.first.map { $0 } as Any)".contains("no_such_column"), "\(errors)")
    }

    func testASearchBegunBeforeEveryKeyIsReadIsAnsweredOnceTheyAreAndANewSearchEndsTheOld() throws {
        try addPoetry(upTo: 3000)
        let (storage, _) = makeStorage(PagedQuery(table: "book", orderBy: "title", searchBy: "title"))
        XCTAssertFalse(storage.isLoaded)
        var superseded: IndexPath??
        storage.searchItem(matching: "book 1", anywhere: false, from: nil, forward: true) { superseded = .some($0) }
        // Book 2999 is the 2,999th row, past the first rows read.
        let found = search(storage, "book 2999", from: nil)
        XCTAssertTrue(storage.isLoaded)
        XCTAssertEqual(found, IndexPath(item: 2998, section: 0))
        XCTAssertTrue(superseded == nil, "the search begun before was dropped")

        // Only what is searched changes: no key is read again.
        let loads = storage.loadCount
        storage.setQuery(PagedQuery(table: "book", orderBy: "title", searchBy: "genre"))
        XCTAssertEqual(search(storage, "poe", from: nil), IndexPath(item: 1, section: 0), "Book 0002, the first poetry")
        XCTAssertEqual(storage.loadCount, loads)
    }
}
