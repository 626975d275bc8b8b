import Foundation
import GRDB
import ModelStorage
import SQLiteStorage
import TestSupport
import XCTest

/// Another file moved over the database a `PagedQueryStorage` follows (as `mv new.sqlite
/// books.sqlite` does, with rename(2)): the storage says so, and follows the new file once
/// given a connection to it.
final class ReplacedFileTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ReplacedFileTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A file at `name` with a book table of `titles` (rowids 1, 2, …), closed.
    func makeFile(_ name: String, titles: [String]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE book (title TEXT NOT NULL, genre TEXT NOT NULL, year INTEGER NOT NULL)")
            for title in titles { try db.execute(sql: "INSERT INTO book VALUES (?, 'poetry', 2000)", arguments: [title]) }
        }
        try queue.close()
        return path
    }

    func waitUntil(timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return XCTFail("timed out", file: file, line: line) }
            RunLoop.main.run(until: Date().addingTimeInterval(0.005))
        }
    }

    /// The titles of the storage's rows, reading their pages (nil for a row not read yet).
    func titles(_ storage: PagedQueryStorage<Book>) -> [String?] {
        (0..<storage.numberOfItems(inSection: 0)).map { (storage.item(at: IndexPath(item: $0, section: 0)) as? PagedRow<Book>)?.record?.title }
    }

    func testAFileMovedOverTheDatabaseIsReportedAndFollowedThroughANewConnection() throws {
        let path = try makeFile("books.sqlite", titles: ["Old 1", "Old 2", "Old 3"])
        let newPath = try makeFile("new.sqlite", titles: ["New 1", "New 2"])
        let database = try DatabaseQueue(path: path)
        let storage = PagedQueryStorage<Book>(database: database, query: PagedQuery(table: "book"), pollInterval: .milliseconds(50))
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        var errors: [Error] = []
        storage.onError = { errors.append($0) }
        waitUntil { self.titles(storage) == ["Old 1", "Old 2", "Old 3"] }

        XCTAssertEqual(rename(newPath, path), 0, "the new file moved over the old one")
        waitUntil { !errors.isEmpty }
        XCTAssertEqual(errors.first as? SQLiteStorageError, .fileReplaced(path: path))
        XCTAssertEqual(errors.first?.localizedDescription, "\(path) was replaced by another file")
        XCTAssertEqual(titles(storage), ["Old 1", "Old 2", "Old 3"], "the rows stay")

        // The app opens the path again and gives the storage the new connection.
        try database.close()
        storage.setDatabase(try DatabaseQueue(path: path), query: PagedQuery(table: "book"))
        waitUntil { self.titles(storage) == ["New 1", "New 2"] }
        XCTAssertEqual(recorder.reloads, 1, "shown as the changes from the old file's rows")
        // Another program writes to the new file: found by polling it.
        let commit = try ChildProcess.sqlite3(path, "INSERT INTO book VALUES ('New 3', 'poetry', 2001)")
        XCTAssertEqual(commit.status, 0, commit.errors)
        waitUntil { self.titles(storage) == ["New 1", "New 2", "New 3"] }
        XCTAssertEqual(errors.count, 1, "\(errors)")
        storage.stopObserving()
    }
}
