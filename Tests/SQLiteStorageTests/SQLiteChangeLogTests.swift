import Foundation
import GRDB
import ModelStorage
import SQLiteStorage
import TestSupport
import XCTest

/// A row of the change log tests' table: any of its columns may be in an order.
struct Item: FetchableRecord, Equatable, Sendable {
    var name: String?
    var score: Double?

    init(row: Row) {
        name = row["name"]
        score = row["score"]
    }
}

/// `PagedQueryStorage` following a table through its change log (`SQLiteChangeLog`) on a real
/// SQLite file, written by another connection as another program would: after each batch of
/// commits, the storage's rows are the query's and its updates turn the rows shown before into
/// them, and no commit read every key.
final class SQLiteChangeLogTests: XCTestCase {
    var folder: URL!
    var path: String { folder.appendingPathComponent("items.sqlite").path }
    var database: DatabasePool!
    /// Another program's connection.
    var writer: DatabaseQueue!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("SQLiteChangeLogTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = try DatabasePool(path: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        writer = try DatabaseQueue(path: path, configuration: configuration)
        try writer.write { db in
            // Names compared without case, sections that may be NULL, reals, blobs.
            try db.execute(sql: "CREATE TABLE item (name TEXT COLLATE NOCASE, kind TEXT, rank INTEGER, score REAL, data BLOB)")
            for number in 0..<3000 {
                try db.execute(sql: "INSERT INTO item VALUES (?, ?, ?, ?, ?)", arguments: Self.randomRow(number))
            }
        }
    }

    override func tearDownWithError() throws {
        (database, writer) = (nil, nil)
        try? FileManager.default.removeItem(at: folder)
    }

    /// A row whose values repeat often (rows tie on every column but the rowid).
    static func randomRow(_ seed: Int) -> StatementArguments {
        [name(seed), kind(seed), seed % 13, seed % 5 == 0 ? nil : Double(seed % 17) / 3, seed % 3 == 0 ? Data([UInt8(seed % 256)]) : nil]
    }

    static func name(_ seed: Int) -> String? { ["apple", "Apple", "banana", "cherry", "Date", nil][seed % 6] }
    static func kind(_ seed: Int) -> String? { ["fruit", "nut", "seed", nil][(seed / 7) % 4] }

    func waitUntil(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return XCTFail("timed out", file: file, line: line) }
            RunLoop.main.run(until: Date().addingTimeInterval(0.005))
        }
    }

    /// Every row's rowid as the storage shows it, section by section.
    func shown(_ storage: PagedQueryStorage<Item>) -> [[Int64?]] {
        (0..<storage.numberOfSections()).map { section in
            (0..<storage.numberOfItems(inSection: section)).map { storage.rowID(at: IndexPath(item: $0, section: section)) }
        }
    }

    /// The query's rowids, section by section, as SQLite orders them.
    func expected(_ query: PagedQuery) throws -> [[Int64?]] {
        let section = query.sectionBy ?? "NULL"
        let rows = try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT \(section) AS lvm_section, rowid FROM item"
                             + (query.filter.map { " WHERE \($0)" } ?? "") + " ORDER BY " + [query.sectionBy, query.orderBy, "rowid"].compactMap { $0 }.joined(separator: ", "),
                             arguments: StatementArguments(query.arguments))
        }
        var sections: [[Int64?]] = []
        var last: DatabaseValue?
        for row in rows {
            let value: DatabaseValue = row["lvm_section"]
            if sections.isEmpty || value != last { sections.append([]) }
            last = value
            sections[sections.count - 1].append(row["rowid"])
        }
        return sections
    }

    /// Random batches of inserts, updates (of the order, the section, other columns, the
    /// rowid) and deletes, each committed by the other connection; after each, the storage
    /// shows the query's rows, reached by its updates.
    func follow(_ query: PagedQuery, batches: Int, file: StaticString = #filePath, line: UInt = #line) throws -> PagedQueryStorage<Item> {
        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        let storage = PagedQueryStorage<Item>(database: database, query: query, pageSize: 50, pollInterval: .milliseconds(20))
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        waitUntil { storage.isLoaded }
        // A screenful held, so that changed rows shown are read with the changes.
        for item in 0..<20 { _ = storage.item(at: IndexPath(item: item, section: 0)) }
        waitUntil { storage.pagesRead > 0 }
        recorder.reloads = 0
        var generator = SeededGenerator(seed: 35)
        var next = 10_000
        for batch in 0..<batches {
            let before = shown(storage)
            recorder.updates = []
            let loads = storage.loadCount
            try writer.write { db in
                // One insert at least, so that each batch commits a change.
                try db.execute(sql: "INSERT INTO item VALUES (?, ?, ?, ?, ?)", arguments: Self.randomRow(batch))
                for _ in 0..<Int.random(in: 0...12, using: &generator) {
                    let rowid = Int.random(in: 1...3200, using: &generator)
                    next += 1
                    switch Int.random(in: 0..<6, using: &generator) {
                    case 0: try db.execute(sql: "INSERT INTO item VALUES (?, ?, ?, ?, ?)", arguments: Self.randomRow(next))
                    case 1: try db.execute(sql: "DELETE FROM item WHERE rowid = ?", arguments: [rowid])
                    case 2: try db.execute(sql: "UPDATE item SET name = ?, score = ? WHERE rowid = ?",
                                           arguments: [Self.name(next), Double(next % 11), rowid])
                    case 3: try db.execute(sql: "UPDATE item SET kind = ?, rank = ? WHERE rowid = ?", arguments: [Self.kind(next), next % 13, rowid])
                    case 4: try db.execute(sql: "UPDATE item SET data = randomblob(4) WHERE rowid = ?", arguments: [rowid])
                    default: try db.execute(sql: "UPDATE OR IGNORE item SET rowid = ? WHERE rowid = ?", arguments: [next, rowid])
                    }
                }
            }
            waitUntil(file: file, line: line) { storage.loadCount > loads }
            let now = try expected(query)
            XCTAssertEqual(shown(storage), now, "batch \(batch)", file: file, line: line)
            var replayed = before
            for update in recorder.updates { replayed = update.replayed(on: replayed) }
            XCTAssertEqual(replayed.map(\.count), now.map(\.count), "batch \(batch): the updates give the rows", file: file, line: line)
            XCTAssertTrue(zip(replayed.joined(), now.joined()).allSatisfy { $0 == nil || $0 == $1 },
                          "batch \(batch): each row not inserted is where the updates put it", file: file, line: line)
            XCTAssertEqual(recorder.reloads, 0, file: file, line: line)
        }
        return storage
    }

    func testASectionedOrderWithACollationIsFollowedFromTheLogAlone() throws {
        let storage = try follow(PagedQuery(table: "item", orderBy: "name", sectionBy: "kind"), batches: 40)
        XCTAssertEqual(storage.keyReadCount, 1, "every commit read from the log")
        XCTAssertGreaterThan(storage.loadCount, 40)
    }

    func testAFilteredOrderOfManyColumnsBothWaysIsFollowedFromTheLogAlone() throws {
        let query = PagedQuery(table: "item", filter: "rank > ?", arguments: [3.databaseValue], orderBy: "score DESC, name, data DESC")
        let storage = try follow(query, batches: 40)
        XCTAssertEqual(storage.keyReadCount, 1, "every commit read from the log")
    }

    func testAnExpressionOrderAndExpressionSectionsAreFollowedFromTheLogAlone() throws {
        let query = PagedQuery(table: "item", orderBy: "length(name) DESC, lower(name)", sectionBy: "rank % 2")
        let storage = try follow(query, batches: 30)
        XCTAssertEqual(storage.keyReadCount, 1, "every commit read from the log")
    }

    /// A write the log did not record (another program's, with triggers turned off as the
    /// sqlite3 shell's `.dbconfig enable_trigger off` does) is found by a drift check and
    /// repaired by a read of every key, shown as the smallest update. Checks of runs that
    /// agree find nothing: names compared without case, a NULL section.
    func testAWriteTheLogDidNotRecordIsFoundByADriftCheckAndRepaired() throws {
        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        let query = PagedQuery(table: "item", orderBy: "name", sectionBy: "kind")
        let storage = PagedQueryStorage<Item>(database: database, query: query, pageSize: 50, pollInterval: .milliseconds(20),
                                              driftCheckInterval: .milliseconds(20))
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        waitUntil { storage.isLoaded }
        XCTAssertEqual(storage.numberOfSections(), 4)
        // Every run checked many times over: nothing found.
        let settled = Date().addingTimeInterval(1)
        waitUntil { Date() > settled }
        XCTAssertEqual(storage.driftsRepaired, 0)
        XCTAssertEqual(storage.keyReadCount, 1)

        let write = try ChildProcess.sqlite3(path, ".dbconfig enable_trigger off",
                                             "DELETE FROM item WHERE rowid IN (5, 6, 7); UPDATE item SET rank = 99 WHERE rowid = 100")
        XCTAssertEqual(write.status, 0, write.errors)
        let table = try expected(query)
        waitUntil { storage.driftsRepaired > 0 && shown(storage) == table }
        XCTAssertTrue(shown(storage) == table, "the rows are the table's")
        XCTAssertEqual(storage.driftsRepaired, 1)
        XCTAssertEqual(recorder.reloads, 1, "repaired as an update, not a reload")
        XCTAssertEqual(storage.keyReadCount, 2, "one read of every key")
        XCTAssertGreaterThanOrEqual(storage.numberOfItems(inSection: 0), 1)

        // Rows in sections the storage does not have: between two of its own, after its last.
        for (number, kind) in ["date palm", "zest"].enumerated() {
            let insert = try ChildProcess.sqlite3(path, ".dbconfig enable_trigger off", "INSERT INTO item (name, kind, rank) VALUES ('fig', '\(kind)', 1)")
            XCTAssertEqual(insert.status, 0, insert.errors)
            let table = try expected(query)
            waitUntil { storage.driftsRepaired == 2 + number && shown(storage) == table }
            XCTAssertTrue(shown(storage) == table, "the rows are the table's, with the section \(kind)")
        }
        XCTAssertEqual(storage.numberOfSections(), 6)
        XCTAssertEqual(storage.keyReadCount, 4)
        XCTAssertEqual(recorder.reloads, 1)
    }

    /// A sectioned query with no row: a row the log did not record is found all the same.
    func testARowTheLogDidNotRecordInAnEmptyQueryIsFound() throws {
        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        let query = PagedQuery(table: "item", filter: "kind = 'berry'", orderBy: "name", sectionBy: "kind")
        let storage = PagedQueryStorage<Item>(database: database, query: query, pollInterval: .milliseconds(20),
                                              driftCheckInterval: .milliseconds(20))
        waitUntil { storage.isLoaded }
        XCTAssertEqual(storage.numberOfSections(), 0)
        let insert = try ChildProcess.sqlite3(path, ".dbconfig enable_trigger off", "INSERT INTO item (name, kind) VALUES ('sloe', 'berry')")
        XCTAssertEqual(insert.status, 0, insert.errors)
        waitUntil { storage.numberOfSections() == 1 }
        XCTAssertEqual((storage.item(at: IndexPath(item: 0, section: 0)) as? PagedRow<Item>)?.id, 3001)
        XCTAssertEqual(storage.driftsRepaired, 1)
    }

    /// Without the log each commit reads every key, and the storage says so; the log
    /// installed meanwhile (by another program) is followed from the next commit.
    func testWithoutTheLogEachCommitReadsEveryKeyUntilTheLogIsInstalled() throws {
        let storage = PagedQueryStorage<Item>(database: database, query: PagedQuery(table: "item", orderBy: "name"), pollInterval: .milliseconds(20))
        waitUntil { storage.isLoaded }
        XCTAssertFalse(storage.followsChangeLog)
        var loads = storage.loadCount
        try writer.write { db in try db.execute(sql: "DELETE FROM item WHERE rowid = 5") }
        waitUntil { storage.loadCount > loads }
        XCTAssertEqual(storage.keyReadCount, 2)
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 2999)
        XCTAssertFalse(storage.followsChangeLog)

        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        waitUntil { storage.followsChangeLog }
        XCTAssertEqual(storage.keyReadCount, 3, "the schema changed: every key read once more")
        loads = storage.loadCount
        try writer.write { db in try db.execute(sql: "DELETE FROM item WHERE rowid = 6") }
        waitUntil { storage.loadCount > loads }
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 2998)
        XCTAssertEqual(storage.keyReadCount, 3, "read from the log")
        XCTAssertTrue(storage.followsChangeLog)
    }

    func testARowInANewSectionASchemaChangeAndALogPrunedPastTheStorageAreEachOneReadOfEveryKey() throws {
        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        let query = PagedQuery(table: "item", orderBy: "name", sectionBy: "kind")
        let storage = PagedQueryStorage<Item>(database: database, query: query, pollInterval: .milliseconds(20))
        waitUntil { storage.isLoaded }
        func write(_ sql: String) throws {
            let loads = storage.loadCount
            try writer.write { db in try db.execute(sql: sql) }
            waitUntil { storage.loadCount > loads }
            XCTAssertEqual(shown(storage), try expected(query), sql)
        }
        try write("UPDATE item SET kind = 'berry' WHERE rowid = 10")
        XCTAssertEqual(storage.keyReadCount, 2, "a section the runs do not have")
        try write("UPDATE item SET kind = 'nut' WHERE rowid = 11")
        XCTAssertEqual(storage.keyReadCount, 2, "from the log again")
        try write("CREATE INDEX item_name ON item (name)")
        XCTAssertEqual(storage.keyReadCount, 3, "the schema changed")
        // More changes than the log keeps, in one transaction: the storage's place is gone.
        let loads = storage.loadCount
        try writer.write { db in
            for _ in 0..<(Int(SQLiteChangeLog.kept) / 3000 + 1) { try db.execute(sql: "UPDATE item SET rank = rank + 1") }
        }
        waitUntil { storage.loadCount > loads }
        XCTAssertEqual(storage.keyReadCount, 4, "the log was pruned past the storage's place")
        let logged = try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM list_view_manager_log_item") ?? 0 }
        XCTAssertEqual(logged, Int(SQLiteChangeLog.kept), "the log keeps its last changes, no more")
        try write("DELETE FROM item WHERE rowid = 12")
        XCTAssertEqual(storage.keyReadCount, 4, "and from the log again")
    }

    func testATableWithAColumnCalledRowidAndAQuoteInItsNameIsFollowedFromTheLog() throws {
        let table = "odd \"name\""
        try database.write { db in
            try db.execute(sql: #"CREATE TABLE "odd ""name""" (rowid TEXT, name TEXT, score REAL)"#)
            for number in 0..<500 { try db.execute(sql: #"INSERT INTO "odd ""name""" VALUES ('x', ?, ?)"#, arguments: [Self.name(number), Double(number % 7)]) }
            try SQLiteChangeLog.install(on: table, rowID: "_rowid_", in: db)
        }
        let query = PagedQuery(table: table, rowID: "_rowid_", orderBy: "score DESC, name")
        let storage = PagedQueryStorage<Item>(database: database, query: query, pollInterval: .milliseconds(20))
        var errors: [String] = []
        storage.onError = { errors.append("\($0)") }
        waitUntil { storage.isLoaded }
        for step in 0..<20 {
            let loads = storage.loadCount
            try writer.write { db in
                try db.execute(sql: #"UPDATE "odd ""name""" SET score = ? WHERE _rowid_ = ?"#, arguments: [Double(step % 5), step * 20 + 1])
                try db.execute(sql: #"DELETE FROM "odd ""name""" WHERE _rowid_ = ?"#, arguments: [step * 20 + 2])
                try db.execute(sql: #"INSERT INTO "odd ""name""" VALUES ('y', ?, ?)"#, arguments: [Self.name(step), Double(step % 3)])
            }
            waitUntil { storage.loadCount > loads }
            let expected = try database.read { db in
                try Int64.fetchAll(db, sql: #"SELECT _rowid_ FROM "odd ""name""" ORDER BY score DESC, name, _rowid_"#)
            }
            XCTAssertEqual(shown(storage).flatMap { $0 }, expected.map { Optional($0) }, "step \(step)")
            XCTAssertEqual(errors, [])
        }
        XCTAssertEqual(storage.keyReadCount, 1, "every write read from the log")
    }

    func testTheStoragesOwnWritesAreReadFromTheLogAtOnce() throws {
        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        let query = PagedQuery(table: "item", orderBy: "name", sectionBy: "kind")
        // No polling: the storage hears of its own writes at once, once it observes the table.
        let storage = PagedQueryStorage<Item>(database: database, query: query, pollInterval: nil)
        waitUntil { storage.isLoaded }
        var observed = false
        for step in 0..<20 {
            let loads = storage.loadCount
            try database.write { db in
                try db.execute(sql: "UPDATE item SET name = ? WHERE rowid = ?", arguments: [Self.name(step + 1), step * 50 + 1])
                try db.execute(sql: "INSERT INTO item VALUES (?, 'nut', 1, 2.5, NULL)", arguments: [Self.name(step)])
            }
            // The observation starts off the main thread: the first writes may come before it.
            let deadline = Date().addingTimeInterval(observed ? 10 : 0.5)
            while storage.loadCount == loads, Date() < deadline { RunLoop.main.run(until: Date().addingTimeInterval(0.005)) }
            if storage.loadCount > loads { observed = true } else { XCTAssertFalse(observed, "step \(step)"); continue }
            XCTAssertEqual(shown(storage), try expected(query), "step \(step)")
        }
        XCTAssertTrue(observed)
        XCTAssertEqual(storage.keyReadCount, 1, "every write read from the log")
    }

    func testRowsThatAnInsertOrAnUpdateReplacesAreLoggedAndGo() throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT UNIQUE, weight INTEGER, UNIQUE (weight, id))")
            for number in 1...300 { try db.execute(sql: "INSERT INTO tag VALUES (?, ?, ?)", arguments: [number, "tag \(number)", number % 17]) }
            try SQLiteChangeLog.install(on: "tag", in: db)
        }
        let query = PagedQuery(table: "tag", orderBy: "weight, label")
        let storage = PagedQueryStorage<Item>(database: database, query: query, pollInterval: .milliseconds(20))
        waitUntil { storage.isLoaded }
        for (step, sql) in [
            "INSERT OR REPLACE INTO tag (label, weight) VALUES ('tag 7', 99)",         // another rowid, the same label
            "INSERT OR REPLACE INTO tag (id, label, weight) VALUES (8, 'eight', 3)",   // the same rowid
            "UPDATE OR REPLACE tag SET label = 'tag 10' WHERE id = 11",               // an update onto another row's label
            "UPDATE OR REPLACE tag SET id = 13 WHERE id = 12",                        // onto another row's rowid
            "INSERT OR IGNORE INTO tag (id, label, weight) VALUES (20, 'tag 20', 0)", // nothing replaced, nothing inserted
            "REPLACE INTO tag (label, weight) VALUES ('tag 30', 1), ('tag 31', 2)",
        ].enumerated() {
            let loads = storage.loadCount
            try writer.write { db in try db.execute(sql: sql) }
            waitUntil { storage.loadCount > loads }
            let expected = try writer.read { db in try Int64.fetchAll(db, sql: "SELECT rowid FROM tag ORDER BY weight, label, rowid") }
            XCTAssertEqual(shown(storage).flatMap { $0 }, expected.map { Optional($0) }, "step \(step): \(sql)")
        }
        XCTAssertEqual(storage.keyReadCount, 1, "every replacement read from the log")
        for (sql, keyReads) in [("", 2), ("DELETE FROM tag WHERE id = 1", 3)] {
            let loads = storage.loadCount
            try writer.write { db in try sql.isEmpty ? SQLiteChangeLog.remove(from: "tag", in: db) : db.execute(sql: sql) }
            waitUntil { storage.loadCount > loads }
            XCTAssertEqual(storage.keyReadCount, keyReads, "the log removed: each commit reads every key")
        }
        XCTAssertEqual(storage.numberOfItems(inSection: 0), try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tag") })
    }

    func testAnotherProgramsCommitIsFoundAtOnceNotAtTheNextPoll() throws {
        // A poll every minute: only the files' watch can find the commits in time.
        let storage = PagedQueryStorage<Item>(database: database, query: PagedQuery(table: "item", orderBy: "name"), pollInterval: .seconds(60))
        waitUntil { storage.isLoaded }
        // The watch is set up on the storage's queue after the first read is asked for.
        RunLoop.main.run(until: Date().addingTimeInterval(0.2))
        for round in 0..<3 {
            let loads = storage.loadCount
            let start = Date()
            try writer.write { db in try db.execute(sql: "DELETE FROM item WHERE rowid = ?", arguments: [round + 1]) }
            waitUntil(timeout: 5) { storage.loadCount > loads }
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "round \(round)")
            XCTAssertEqual(storage.numberOfItems(inSection: 0), 2999 - round)
        }
    }

    /// Follows `query` through the log while `statements` are committed one after another by
    /// the other connection, each shown as the query's rows; returns the storage.
    @discardableResult
    func follow(_ query: PagedQuery, through statements: [String], file: StaticString = #filePath, line: UInt = #line) throws -> PagedQueryStorage<Item> {
        let storage = PagedQueryStorage<Item>(database: database, query: query, pageSize: 50, pollInterval: .milliseconds(20))
        waitUntil(file: file, line: line) { storage.isLoaded }
        for sql in statements {
            let loads = storage.loadCount
            try writer.write { db in try db.execute(sql: sql) }
            waitUntil(file: file, line: line) { storage.loadCount > loads }
            XCTAssertEqual(shown(storage), try expected(query), sql, file: file, line: line)
        }
        return storage
    }

    func testASectionLeftWithNoRowWhileItsRowGoesToALaterRunIsFollowed() throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE item SET kind = 'fruit' WHERE kind IS NULL OR kind <> 'fruit'")
            try db.execute(sql: "UPDATE item SET kind = 'berry' WHERE rowid = 7")
            try SQLiteChangeLog.install(on: "item", in: db)
        }
        // Two sections, "berry" (one row) then "fruit" (2,999): the berry goes to the fruits'
        // run, after the run it leaves, which goes with its section.
        let storage = try follow(PagedQuery(table: "item", orderBy: "name", sectionBy: "kind"),
                                 through: ["UPDATE item SET kind = 'fruit', name = 'zzz' WHERE rowid = 7",
                                           "UPDATE item SET kind = 'nut' WHERE rowid = 8"])
        XCTAssertEqual(storage.keyReadCount, 2, "from the log but for the section that came")
    }

    func testARowThatLeavesAHeldPageForOneNotHeldShowsItsNewRecordThere() throws {
        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        let query = PagedQuery(table: "item", orderBy: "name, rowid")
        let storage = try follow(query, through: [])
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        waitUntil { storage.record(at: IndexPath(item: 0, section: 0)) != nil }
        let first = try XCTUnwrap(storage.rowID(at: IndexPath(item: 0, section: 0)))
        let loads = storage.loadCount
        try writer.write { db in try db.execute(sql: "UPDATE item SET name = 'zzz', score = 42 WHERE rowid = ?", arguments: [first]) }
        waitUntil { storage.loadCount > loads }
        let last = IndexPath(item: storage.numberOfItems(inSection: 0) - 1, section: 0)
        XCTAssertEqual(storage.rowID(at: last), first)
        _ = storage.item(at: last)
        waitUntil { storage.record(at: last) != nil }
        XCTAssertEqual(storage.record(at: last)?.name, "zzz", "read again, not the record of its old page")
        XCTAssertEqual(storage.keyReadCount, 1)
    }

    func testAQueryWhoseConditionNumbersItsArgumentsOrNamesTheRowidIsFollowedFromTheLog() throws {
        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        let statements = ["UPDATE item SET rank = 9 WHERE rowid = 10", "DELETE FROM item WHERE rowid = 12",
                          "UPDATE item SET name = 'zzz' WHERE rowid = 14", "INSERT INTO item (rowid, name, rank) VALUES (5000, 'a', 9)"]
        let numbered = try follow(PagedQuery(table: "item", filter: "rank > ?1 AND rank < ?2", arguments: [3.databaseValue, 12.databaseValue],
                                             orderBy: "name"), through: statements)
        XCTAssertEqual(numbered.keyReadCount, 1)
        // Other rows, so that each statement changes one.
        let byRowid = try follow(PagedQuery(table: "item", filter: "rowid % 2 = 0", orderBy: "oid DESC"),
                                 through: ["UPDATE item SET rank = 9 WHERE rowid = 20", "DELETE FROM item WHERE rowid = 22",
                                           "UPDATE item SET rowid = 5004 WHERE rowid = 24", "INSERT INTO item (rowid, name) VALUES (5002, 'a')"])
        XCTAssertEqual(byRowid.keyReadCount, 1)
    }

    func testAColumnAddedWithoutInstallingTheLogAgainIsFollowedByReadingEveryKey() throws {
        try writer.write { db in
            try SQLiteChangeLog.install(on: "item", in: db)
            try db.execute(sql: "ALTER TABLE item ADD COLUMN archived INTEGER DEFAULT 0")
        }
        let storage = try follow(PagedQuery(table: "item", filter: "archived = 0", orderBy: "name"),
                                 through: ["UPDATE item SET archived = 1 WHERE rowid = 3", "UPDATE item SET name = 'zzz' WHERE rowid = 4"])
        XCTAssertEqual(storage.keyReadCount, 3, "the log lacks the column: every key read")
        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        let reads = storage.keyReadCount
        for sql in ["UPDATE item SET archived = 1 WHERE rowid = 5", "UPDATE item SET archived = 0 WHERE rowid = 3"] {
            let loads = storage.loadCount
            try writer.write { db in try db.execute(sql: sql) }
            waitUntil { storage.loadCount > loads }
        }
        XCTAssertEqual(shown(storage), try expected(PagedQuery(table: "item", filter: "archived = 0", orderBy: "name")))
        XCTAssertEqual(storage.keyReadCount, reads + 1, "installed again: the schema's change, then the log")
    }

    func testAnUnsectionedQueryWithNoRowIsOneEmptySectionAndFollowsItsRowsFromTheLog() throws {
        try writer.write { db in try SQLiteChangeLog.install(on: "item", in: db) }
        let query = PagedQuery(table: "item", filter: "name = 'none'")
        let storage = try follow(query, through: [])
        XCTAssertEqual(storage.numberOfSections(), 1)
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 0)
        try follow(query, through: ["INSERT INTO item (name) VALUES ('none')", "INSERT INTO item (name) VALUES ('none')"])
    }

    func testTablesWithoutARowidAreRefusedAndUniqueKeysCompareWithTheirCollation() throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE bare (name TEXT PRIMARY KEY) WITHOUT ROWID")
            try db.execute(sql: "CREATE TABLE odd (rowid TEXT, name TEXT)")
            try db.execute(sql: "CREATE TABLE word (text TEXT, weight INTEGER)")
            try db.execute(sql: "CREATE UNIQUE INDEX word_text ON word (text COLLATE NOCASE)")
            try db.execute(sql: "INSERT INTO word VALUES ('apple', 1), ('pear', 2), ('plum', 3)")
        }
        XCTAssertThrowsError(try writer.write { db in try SQLiteChangeLog.install(on: "bare", in: db) }) {
            XCTAssertEqual($0 as? SQLiteStorageError, .noRowID(table: "bare", rowID: "rowid"))
        }
        XCTAssertThrowsError(try writer.write { db in try SQLiteChangeLog.install(on: "odd", in: db) }) {
            XCTAssertEqual($0 as? SQLiteStorageError, .noRowID(table: "odd", rowID: "rowid"))
        }
        try writer.write { db in try SQLiteChangeLog.install(on: "odd", rowID: "_rowid_", in: db) }
        try writer.write { db in try SQLiteChangeLog.install(on: "word", in: db) }
        let query = PagedQuery(table: "word", orderBy: "weight")
        let storage = PagedQueryStorage<Item>(database: database, query: query, pollInterval: .milliseconds(20))
        waitUntil { storage.isLoaded }
        let loads = storage.loadCount
        // "Apple" is "apple" to the index: the row it replaces goes.
        try writer.write { db in try db.execute(sql: "INSERT OR REPLACE INTO word VALUES ('Apple', 9)") }
        waitUntil { storage.loadCount > loads }
        let rows = try writer.read { db in try Int64.fetchAll(db, sql: "SELECT rowid FROM word ORDER BY weight, rowid") }
        XCTAssertEqual(shown(storage).flatMap { $0 }, rows.map { Optional($0) })
        XCTAssertEqual(storage.keyReadCount, 1)
    }

    /// The inotify instances this process has open.
    func inotifyInstances() -> Int {
        let folder = "/proc/self/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) == "anon_inode:inotify"
        }.count
    }

    func testTwoHundredStoragesShareOneInotifyInstanceAndEachIsWokenByACommit() throws {
        // A user has 128 instances for all their programs: storages must not take one each.
        let before = inotifyInstances()
        let storages = (0..<200).map { _ in
            PagedQueryStorage<Item>(database: database, query: PagedQuery(table: "item", orderBy: "name"), pollInterval: .seconds(60))
        }
        waitUntil { storages.allSatisfy(\.isLoaded) }
        RunLoop.main.run(until: Date().addingTimeInterval(0.3))
        XCTAssertLessThanOrEqual(inotifyInstances() - before, 1)
        let loads = storages.map(\.loadCount)
        try writer.write { db in try db.execute(sql: "DELETE FROM item WHERE rowid = 1") }
        waitUntil { zip(storages, loads).allSatisfy { $0.loadCount > $1 } }
        XCTAssertTrue(storages.allSatisfy { $0.numberOfItems(inSection: 0) == 2999 })
    }
}
