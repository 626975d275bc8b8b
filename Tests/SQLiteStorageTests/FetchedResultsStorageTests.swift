import Foundation
import GRDB
import ModelStorage
import SQLiteStorage
import TestSupport
import XCTest

/// A row of the test table.
struct Fruit: FetchableRecord, Identifiable, Equatable, Sendable {
    var id: Int64
    var name: String
    var category: String

    init(row: Row) {
        id = row["id"]
        name = row["name"]
        category = row["category"]
    }
}

/// Records what a storage tells its delegate.
/// A real SQLite file in a temporary folder, a storage on it, and a second connection
/// (another `DatabaseQueue` on the same file) that writes behind the storage's back.
/// XCTest runs tests on the main thread, so spinning the main run loop drains
/// `DispatchQueue.main`, where the storage applies its fetches.
final class FetchedResultsStorageTests: XCTestCase {
    var folder: URL!
    var path: String { folder.appendingPathComponent("fruits.sqlite").path }
    var database: DatabasePool!
    var other: DatabaseQueue!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("SQLiteStorageTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = try DatabasePool(path: path)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE fruit (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL);
                INSERT INTO fruit (id, name, category) VALUES
                    (1, 'apple', 'pome'), (2, 'pear', 'pome'), (3, 'quince', 'pome'),
                    (4, 'cherry', 'stone'), (5, 'plum', 'stone');
                """)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        other = try DatabaseQueue(path: path, configuration: configuration)
    }

    override func tearDownWithError() throws {
        other = nil
        database = nil
        try? FileManager.default.removeItem(at: folder)
    }

    static let byCategory = SQLRequest<Fruit>(sql: "SELECT * FROM fruit ORDER BY category, name")

    func makeStorage(pollInterval: Duration? = .milliseconds(200)) throws -> (FetchedResultsStorage<Fruit, String>, UpdateRecorder) {
        let storage = try FetchedResultsStorage(database: database, request: Self.byCategory,
                                                sectionedBy: { $0.category }, header: { $0 },
                                                pollInterval: pollInterval)
        let delegate = UpdateRecorder()
        storage.delegate = delegate
        return (storage, delegate)
    }

    /// Spins the main run loop until `condition` holds, failing after `timeout` seconds.
    func waitUntil(timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out", file: file, line: line)
                return
            }
            RunLoop.main.run(until: Date().addingTimeInterval(0.01))
        }
    }

    /// Spins the main run loop for `seconds`, letting any late fetch arrive.
    func settle(_ seconds: TimeInterval = 0.6) {
        RunLoop.main.run(until: Date().addingTimeInterval(seconds))
    }

    func names(_ storage: FetchedResultsStorage<Fruit, String>) -> [[String]] {
        storage.currentSnapshot.sections.map { $0.items.map(\.name) }
    }

    func testInitialLoadHasTheQuerysSectionsAndItems() throws {
        let (storage, delegate) = try makeStorage()
        XCTAssertEqual(storage.numberOfSections(), 2)
        XCTAssertEqual(storage.headerModel(forSection: 0) as? String, "pome")
        XCTAssertEqual(storage.headerModel(forSection: 1) as? String, "stone")
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 3)
        XCTAssertEqual(storage.numberOfItems(inSection: 1), 2)
        XCTAssertEqual(storage.record(at: IndexPath(item: 1, section: 0))?.name, "pear")
        XCTAssertEqual((storage.item(at: IndexPath(item: 0, section: 1)) as? Fruit)?.name, "cherry")
        settle(0.4)
        XCTAssertTrue(delegate.updates.isEmpty, "nothing changed: \(delegate.updates)")
    }

    func testAnInsertFromAnotherConnectionIsOneInsert() throws {
        let (storage, delegate) = try makeStorage()
        try other.write { db in try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (6, 'peach', 'stone')") }
        waitUntil { !delegate.updates.isEmpty }
        settle()
        XCTAssertEqual(delegate.updates.map(\.changes), [[.insertItems(section: 1, items: 1..<2)]])
        XCTAssertEqual(names(storage), [["apple", "pear", "quince"], ["cherry", "peach", "plum"]])
    }

    func testAnUpdateFromAnotherConnectionIsAnUpdateInPlace() throws {
        let (storage, delegate) = try makeStorage()
        try other.write { db in try db.execute(sql: "UPDATE fruit SET name = 'pear (ripe)' WHERE id = 2") }
        waitUntil { !delegate.updates.isEmpty }
        settle()
        XCTAssertEqual(delegate.updates.map(\.changes), [[.updateItem(IndexPath(item: 1, section: 0))]])
        XCTAssertEqual(storage.record(at: IndexPath(item: 1, section: 0))?.name, "pear (ripe)")
    }

    func testARowChangingSectionIsAMove() throws {
        let (storage, delegate) = try makeStorage()
        try other.write { db in try db.execute(sql: "UPDATE fruit SET category = 'stone' WHERE id = 3") }
        waitUntil { !delegate.updates.isEmpty }
        settle()
        XCTAssertEqual(delegate.updates.count, 1)
        let changes = delegate.updates.first?.changes ?? []
        XCTAssertEqual(changes.filter { if case .moveItem = $0 { return true } else { return false } }.count, 1, "\(changes)")
        XCTAssertEqual(changes.filter { if case .insertItems = $0 { return true } else { return false } }.count, 0, "\(changes)")
        XCTAssertEqual(changes.filter { if case .deleteItems = $0 { return true } else { return false } }.count, 0, "\(changes)")
        XCTAssertEqual(names(storage), [["apple", "pear"], ["cherry", "plum", "quince"]])
        XCTAssertEqual(delegate.updates.first?.newIndexPath(for: IndexPath(item: 2, section: 0)), IndexPath(item: 2, section: 1))
    }

    func testADeleteFromAnotherConnectionIsOneDelete() throws {
        let (storage, delegate) = try makeStorage()
        try other.write { db in try db.execute(sql: "DELETE FROM fruit WHERE id = 4") }
        waitUntil { !delegate.updates.isEmpty }
        settle()
        XCTAssertEqual(delegate.updates.map(\.changes), [[.deleteItems(section: 1, items: 0..<1)]])
        XCTAssertEqual(names(storage), [["apple", "pear", "quince"], ["plum"]])
    }

    func testEmptyingASectionDeletesIt() throws {
        let (storage, delegate) = try makeStorage()
        try other.write { db in try db.execute(sql: "DELETE FROM fruit WHERE category = 'stone'") }
        waitUntil { !delegate.updates.isEmpty }
        settle()
        XCTAssertEqual(delegate.updates.map(\.changes), [[.deleteSection(1)]])
        XCTAssertEqual(storage.numberOfSections(), 1)
    }

    func testAWriteThroughTheStoragesOwnDatabaseIsObservedWithoutPolling() throws {
        let (storage, delegate) = try makeStorage(pollInterval: nil)
        try database.write { db in try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (6, 'medlar', 'pome')") }
        waitUntil { !delegate.updates.isEmpty }
        settle()
        XCTAssertEqual(delegate.updates.map(\.changes), [[.insertItems(section: 0, items: 1..<2)]])
        XCTAssertEqual(names(storage)[0], ["apple", "medlar", "pear", "quince"])
    }

    func testAWriteToAnotherTableIsNotFetchedThroughObservation() throws {
        try database.write { db in try db.execute(sql: "CREATE TABLE note (text TEXT)") }
        let (storage, delegate) = try makeStorage(pollInterval: nil)
        try database.write { db in try db.execute(sql: "INSERT INTO note VALUES ('hello')") }
        settle(0.4)
        XCTAssertEqual(storage.fetchCount, 1)
        XCTAssertTrue(delegate.updates.isEmpty)
    }

    func testABurstOfWritesIsCoalesced() throws {
        let (storage, delegate) = try makeStorage()
        let count = 200
        let start = Date()
        for index in 0..<count {
            try other.write { db in
                try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (?, ?, 'berry')",
                               arguments: [100 + index, String(format: "berry %03d", index)])
            }
        }
        let writing = Date().timeIntervalSince(start)
        waitUntil { storage.numberOfSections() == 3 && storage.numberOfItems(inSection: 0) == count }
        settle()
        // 200 commits, each its own transaction, are seen at once (the files' watch), and
        // arrive as at most one update per coalescing delay (20 ms) while they were being
        // written, plus the last: a handful, not 200, however slow this machine's disk is.
        let reads = Int(writing / 0.02) + 2
        XCTAssertLessThanOrEqual(delegate.updates.count, min(reads, count / 4),
                                 "\(delegate.updates.count) updates in \(writing) s of writing")
        XCTAssertLessThanOrEqual(storage.fetchCount - 1, reads)
        XCTAssertEqual(storage.headerModel(forSection: 0) as? String, "berry")
        print("burst of \(count) writes: \(delegate.updates.count) updates, \(storage.fetchCount - 1) refetches")
    }

    func testWritesObservedOneByOneWhileTheMainLoopRunsAreCoalesced() throws {
        let (storage, delegate) = try makeStorage()
        let count = 300
        let database = self.database!
        let done = DispatchSemaphore(value: 0)
        let start = Date()
        // Commits through the storage's own pool (each one observed at once) from another
        // thread, while the main loop keeps applying fetches.
        DispatchQueue.global().async {
            for index in 0..<count {
                try? database.write { db in
                    try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (?, ?, 'berry')",
                                   arguments: [100 + index, String(format: "berry %03d", index)])
                }
            }
            done.signal()
        }
        waitUntil(timeout: 20) { done.wait(timeout: .now()) == .success }
        waitUntil { storage.numberOfSections() == 3 && storage.numberOfItems(inSection: 0) == count }
        settle()
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(delegate.offMainThread, 0)
        // Each fetch waits 20 ms for the writes behind it, so there is at most one update
        // per 20 ms, and always fewer updates than commits.
        XCTAssertLessThanOrEqual(delegate.updates.count, Int(elapsed / 0.02) + 1,
                                 "\(delegate.updates.count) updates in \(elapsed) s")
        XCTAssertLessThan(delegate.updates.count, count, "\(delegate.updates.count) updates")
        // Every update replays onto the previous content: their item counts add up.
        let inserted = delegate.updates.flatMap(\.changes).reduce(0) { total, change in
            if case .insertItems(_, let items) = change { return total + items.count } else { return total }
        }
        XCTAssertEqual(inserted, count)
        print("\(count) observed commits: \(delegate.updates.count) updates, \(storage.fetchCount - 1) refetches")
    }

    func testAWriteFromAnotherProcessShowsUp() throws {
        let (storage, delegate) = try makeStorage()
        let insert = try ChildProcess.sqlite3(path, "INSERT INTO fruit (id, name, category) VALUES (7, 'sloe', 'stone')")
        XCTAssertEqual(insert.status, 0, insert.errors)
        waitUntil { !delegate.updates.isEmpty }
        settle()
        XCTAssertEqual(delegate.updates.map(\.changes), [[.insertItems(section: 1, items: 2..<3)]])
        XCTAssertEqual(names(storage)[1], ["cherry", "plum", "sloe"])
    }

    func testAMalformedQueryThrows() throws {
        XCTAssertThrowsError(try FetchedResultsStorage(database: database, request: SQLRequest<Fruit>(sql: "SELEC * FROM fruit"))) { error in
            let error = error as? DatabaseError
            XCTAssertEqual(error?.resultCode, .SQLITE_ERROR)
            XCTAssertTrue(error?.message?.contains("syntax error") == true, "\(String(describing: error))")
        }
        XCTAssertThrowsError(try FetchedResultsStorage(database: database, request: SQLRequest<Fruit>(sql: "SELECT * FROM vegetable"))) { error in
            XCTAssertTrue((error as? DatabaseError)?.message?.contains("no such table") == true, "\(error)")
        }
    }

    func testAFailingRefetchIsReportedAndKeepsTheContent() throws {
        let (storage, delegate) = try makeStorage()
        var errors: [Error] = []
        storage.onError = { errors.append($0) }
        try other.write { db in try db.execute(sql: "DROP TABLE fruit") }
        waitUntil { !errors.isEmpty }
        XCTAssertTrue((errors.first as? DatabaseError)?.message?.contains("no such table") == true, "\(errors)")
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 3)
        XCTAssertTrue(delegate.updates.isEmpty)
    }

    func testOneSectionStorageKeepsItsSectionWhenEmpty() throws {
        try database.write { db in try db.execute(sql: "DELETE FROM fruit") }
        let storage = try FetchedResultsStorage(database: database, request: Self.byCategory, header: "Fruits")
        XCTAssertEqual(storage.numberOfSections(), 1)
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 0)
        XCTAssertEqual(storage.headerModel(forSection: 0) as? String, "Fruits")
        let delegate = UpdateRecorder()
        storage.delegate = delegate
        try other.write { db in try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (1, 'fig', 'other')") }
        waitUntil { !delegate.updates.isEmpty }
        XCTAssertEqual(delegate.updates.map(\.changes), [[.insertItems(section: 0, items: 0..<1)]])
    }
}
