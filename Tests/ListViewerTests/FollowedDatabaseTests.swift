import CGtk
import Foundation
import GRDB
import ListViewManager
import ListViewerKit
import ModelStorage
import SQLiteStorage
import TestSupport
import XCTest

/// A database the window follows is deleted, emptied, overwritten or replaced while the
/// window is open: the window keeps its rows or says what happened in the banner, or shows
/// the file that took the path, and GLib reports nothing (the tests run with
/// `G_DEBUG=fatal-warnings`).
final class FollowedDatabaseTests: XCTestCase {
    /// Opens the sample's fruit table, then runs `damage` on its file and lets the
    /// window poll the file a few times; returns the window.
    @MainActor
    private static func follow(_ sample: SampleDatabase, damage: () throws -> Void) throws -> ViewerWindow {
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit")
        ViewerTestLoop.wait("the first rows") { viewer.isLoaded }
        XCTAssertEqual(viewer.countText, "3 rows")
        try damage()
        // The viewer polls the file every 250 ms: a second is several polls.
        let deadline = Date().addingTimeInterval(1.5)
        ViewerTestLoop.wait("a second and a half") { Date() > deadline }
        return viewer
    }

    /// Asserts that the list still shows the fruit rows, that any message in the banner
    /// starts with one of `problems` (it says what could not be read), and that the
    /// window still answers a search.
    @MainActor
    private static func assertRowsKeptOrProblemShown(_ viewer: ViewerWindow, _ problems: [String], file: StaticString = #filePath, line: UInt = #line) {
        let titles = (0..<viewer.manager.storage.numberOfItems(inSection: 0)).compactMap {
            (viewer.manager.storage.item(at: IndexPath(item: $0, section: 0)) as? PagedRow<DatabaseRecord>)?.record?.title
        }
        XCTAssertEqual(titles, ["apple", "pear", "cherry"], "the rows stay", file: file, line: line)
        XCTAssertEqual(viewer.countText, "3 rows", file: file, line: line)
        if let problem = viewer.problem {
            XCTAssertTrue(problems.contains { problem.hasPrefix($0) }, "a clear message, not: \(problem)", file: file, line: line)
        }
        // The window still runs: a search either narrows the rows or says why it cannot.
        viewer.searchEntry.text = "pear"
        ViewerTestLoop.wait("the search") { viewer.countText == "1 matching row" || viewer.problem != nil }
        if let problem = viewer.problem {
            XCTAssertTrue(problems.contains { problem.hasPrefix($0) }, "a clear message, not: \(problem)", file: file, line: line)
        }
        ViewerTestLoop.close(viewer)
    }

    func testADeletedDatabaseKeepsItsRows() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = try Self.follow(sample) { try FileManager.default.removeItem(atPath: sample.path) }
        XCTAssertNil(viewer.problem, "the open file still reads")
        Self.assertRowsKeptOrProblemShown(viewer, [])
    } }

    func testADatabaseTruncatedToNothingKeepsItsRowsOrSaysSo() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = try Self.follow(sample) { XCTAssertEqual(truncate(sample.path, 0), 0) }
        Self.assertRowsKeptOrProblemShown(viewer, ["Cannot read table fruit (the rows shown are those last read): ", "Cannot search fruit: "])
    } }

    func testADatabaseOverwrittenWithGarbageKeepsItsRowsOrSaysSo() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = try Self.follow(sample) {
            try Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: sample.path))
        }
        Self.assertRowsKeptOrProblemShown(viewer, ["Cannot read table fruit (the rows shown are those last read): ", "Cannot search fruit: "])
    } }

    /// Another file, in `journalMode`, moved over the one the window shows (`mv new.sqlite
    /// fruits.sqlite` from a shell: rename(2)): the window shows the new file's rows, then
    /// the rows another program writes to it.
    @MainActor
    private static func assertAFileMovedOverTheDatabaseIsFollowed(journalMode: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let replacement = sample.folder + "/new.sqlite"
        for (path, fruits) in [(sample.path, ""), (replacement, "INSERT INTO fruit (id, name, category) VALUES (1, 'kiwi', 'berry'), (2, 'mango', 'drupe');")] {
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = \(journalMode)")
                if !fruits.isEmpty { try db.execute(sql: "CREATE TABLE fruit (id INTEGER PRIMARY KEY, name TEXT, category TEXT);" + fruits) }
            }
            try queue.close()
        }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit")
        ViewerTestLoop.wait("the first rows") { viewer.recordTitles == [["apple", "pear", "cherry"]] }

        XCTAssertEqual(rename(replacement, sample.path), 0, file: file, line: line)
        ViewerTestLoop.wait("the new file's rows") { viewer.recordTitles == [["kiwi", "mango"]] }
        XCTAssertEqual(viewer.countText, "2 rows", file: file, line: line)
        XCTAssertNil(viewer.problem, file: file, line: line)
        let commit = try ChildProcess.sqlite3(sample.path, "INSERT INTO fruit (id, name, category) VALUES (3, 'papaya', 'berry')")
        XCTAssertEqual(commit.status, 0, commit.errors, file: file, line: line)
        ViewerTestLoop.wait("the row written to the new file") { viewer.recordTitles == [["kiwi", "mango", "papaya"]] }
        XCTAssertEqual(viewer.countText, "3 rows", file: file, line: line)
        XCTAssertNil(viewer.problem, file: file, line: line)
        ViewerTestLoop.close(viewer)
    }

    func testAFileMovedOverADatabaseInRollbackModeIsFollowed() throws { try MainActor.assumeIsolated {
        try Self.assertAFileMovedOverTheDatabaseIsFollowed(journalMode: "DELETE")
    } }

    func testAFileMovedOverADatabaseInWALModeIsFollowed() throws { try MainActor.assumeIsolated {
        try Self.assertAFileMovedOverTheDatabaseIsFollowed(journalMode: "WAL")
    } }

    func testAFileMovedOverTheDatabaseThatCannotBeShownIsAMessageAndTheRowsStay() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let replacement = sample.folder + "/new.sqlite"
        let queue = try DatabaseQueue(path: replacement)
        try queue.write { db in try db.execute(sql: "CREATE TABLE vegetable (name TEXT)") }
        try queue.close()
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit")
        ViewerTestLoop.wait("the first rows") { viewer.recordTitles == [["apple", "pear", "cherry"]] }
        XCTAssertEqual(rename(replacement, sample.path), 0)
        ViewerTestLoop.wait("the message") { viewer.problem != nil }
        XCTAssertEqual(viewer.problem, "fruits.sqlite was replaced by another file, which cannot be shown: fruits.sqlite has no table fruit; tables: vegetable")
        XCTAssertEqual(viewer.recordTitles, [["apple", "pear", "cherry"]], "the rows stay")
        ViewerTestLoop.close(viewer)
    } }
}
