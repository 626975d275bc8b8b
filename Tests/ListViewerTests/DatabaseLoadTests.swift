import CGtk
import Foundation
import GRDB
import ListViewManager
import ListViewerKit
import XCTest

/// Loads that end in an error end all the same, and tables as wide as SQLite allows load.
final class DatabaseLoadTests: XCTestCase {
    /// Overwrites the `fruit` table's root page (the file's second page) with garbage:
    /// the schema still reads, the rows do not.
    private static func corruptRows(of sample: SampleDatabase) throws {
        let pageSize = try sample.otherConnection().read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } ?? 4096
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: sample.path))
        try handle.seek(toOffset: UInt64(pageSize))
        try handle.write(contentsOf: Data(repeating: 0x55, count: pageSize))
        try handle.close()
    }

    /// A database whose table `wide` has `columns` columns, c1…cN, and one row whose
    /// values are "v1"…"vN".
    private static func wideTable(columns: Int) throws -> SampleDatabase {
        let names = (1...columns).map { "c\($0)" }
        return try SampleDatabase(extraSQL: """
            CREATE TABLE wide (\(names.map { "\($0) TEXT" }.joined(separator: ", ")));
            INSERT INTO wide VALUES (\(names.map { "'v\($0.dropFirst())'" }.joined(separator: ", ")));
            """)
    }

    func testATableWhoseRowsAreCorruptEndsTheLoadWithAMessage() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        try Self.corruptRows(of: sample)
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        var loads = 0
        viewer.onLoaded = { loads += 1 }
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit")
        ViewerTestLoop.wait("the load to end") { viewer.isLoaded }
        XCTAssertEqual(loads, 1, "the load ended once")
        XCTAssertTrue(viewer.isLoaded)
        XCTAssertEqual(viewer.problem, "Cannot read table fruit: database disk image is malformed")
        ViewerTestLoop.close(viewer)
    } }

    func testADatabaseLockedByAnotherProgramIsAMessageAndTheWindowKeepsDrawingMeanwhile() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        // Another program's exclusive transaction: no reader gets in (rollback journal).
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: sample.path, configuration: holding)
        try holder.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit")
        // The viewer waits up to 2 s for the lock, off the main thread: the window draws.
        ViewerTestLoop.waitForFrames(of: viewer.manager.view, 5)
        XCTAssertNil(viewer.problem, "still waiting for the lock")
        ViewerTestLoop.wait("the message") { viewer.problem != nil }
        XCTAssertEqual(viewer.problem, "Cannot open fruits.sqlite: database is locked")
        XCTAssertTrue(viewer.isLoaded, "the load ended")

        try holder.inDatabase { db in try db.execute(sql: "COMMIT") }
        viewer.openDatabase(sample.path, table: "fruit")
        ViewerTestLoop.wait("the rows once the lock is gone") { viewer.countText == "3 rows" }
        XCTAssertNil(viewer.problem)
        ViewerTestLoop.close(viewer)
    } }

    func testTheViewerExitsWithAMessageWhenTheRowsAreCorrupt() throws {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        try Self.corruptRows(of: sample)
        let result = try ViewerProcess.run([sample.path, "--screenshot", sample.folder + "/shot.png"])
        XCTAssertFalse(result.timedOut, "the viewer finished")
        XCTAssertEqual(result.status, 1, result.errors)
        XCTAssertTrue(result.errors.contains("list-viewer: Cannot read table fruit: database disk image is malformed"), result.errors)
    }

    func testATableWithAsManyColumnsAsSQLiteAllowsIsShown() throws { try MainActor.assumeIsolated {
        let sample = try Self.wideTable(columns: 2000)
        defer { sample.remove() }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "wide", sectionBy: "c2000")
        ViewerTestLoop.wait("the first rows") { viewer.isLoaded }
        XCTAssertNil(viewer.problem)
        XCTAssertEqual(viewer.countText, "1 row")
        let record = try XCTUnwrap(viewer.liveTable?.storage.record(at: IndexPath(item: 0, section: 0)), "read with the first rows")
        XCTAssertEqual(record.title, "v1")
        XCTAssertEqual(record.value(of: "c1998"), "v1998")
        XCTAssertEqual(record.value(of: "c2000"), "v2000", "the section column is always read")
        XCTAssertEqual(viewer.manager.storage.headerModel(forSection: 0) as? String, "c2000: v2000")
        // The search looks in every column, those left out of the rows included.
        viewer.searchEntry.text = "v1999"
        ViewerTestLoop.wait("the search to apply") { viewer.countText == "1 matching row" }
        XCTAssertNil(viewer.problem)
        viewer.searchEntry.text = "nowhere"
        ViewerTestLoop.wait("the search to apply") { viewer.countText == "0 matching rows" }
        XCTAssertNil(viewer.problem)
        ViewerTestLoop.close(viewer)
    } }

    func testTheViewerShowsATableWithAsManyColumnsAsSQLiteAllows() throws {
        let sample = try Self.wideTable(columns: 2000)
        defer { sample.remove() }
        let result = try ViewerProcess.run([sample.path, "--table", "wide", "--screenshot", sample.folder + "/shot.png"])
        XCTAssertFalse(result.timedOut, "the viewer finished")
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sample.folder + "/shot.png"))
    }
}
