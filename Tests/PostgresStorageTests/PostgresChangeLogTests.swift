import Foundation
@testable import PostgresStorage
import PostgresNIO
import PostgresTestSupport
import XCTest

/// The change log against a real server: what the trigger records, and reads that miss no
/// commit, whatever order concurrent transactions commit in.
final class PostgresChangeLogTests: PostgresServerTestCase {
    private var reader: PostgresConnection!
    private var writer: PostgresConnection!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL);
            INSERT INTO book SELECT i, 'book ' || i FROM generate_series(1, 10) i;
            """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let address = server.address()
        let environment = ownerEnvironment
        (reader, writer) = try blocking {
            (try await address.connect(environment: environment), try await address.connect(environment: environment))
        }
    }

    override func tearDown() {
        let (reader, writer) = (reader, writer)
        try? blocking {
            try await reader?.close()
            try await writer?.close()
        }
        super.tearDown()
    }

    /// The changes to `book` after `position`, read in a transaction of their own.
    private func read(after position: PostgresChangePosition?) throws -> ChangeLogRead {
        let reader = reader!
        return try blocking {
            try await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: .silent)
            let read = try await PostgresChangeLog.read("book", after: position, on: reader)
            try await reader.query("COMMIT", logger: .silent)
            return read
        }
    }

    private func write(_ sql: String) throws {
        let writer = writer!
        _ = try blocking { try await writer.query(PostgresQuery(unsafeSQL: sql), logger: .silent) }
    }

    func testEachChangeIsReadOnceWithItsKeyOperationAndTheRowAsItWas() throws {
        let start = try read(after: nil).position
        try server.psql("""
            BEGIN;
            INSERT INTO book VALUES (11, 'book 11');
            UPDATE book SET title = 'book two' WHERE id = 2;
            DELETE FROM book WHERE id = 3;
            UPDATE book SET id = 40 WHERE id = 4;
            COMMIT;
            """)
        let first = try read(after: start)
        XCTAssertEqual(first.changes.map(\.operation), [.insert, .update, .delete, .delete, .insert])
        XCTAssertEqual(first.changes.map(\.key), [11, 2, 3, 4, 40], "a changed key is a delete and an insert")
        XCTAssertNil(first.changes[0].oldRow)
        XCTAssertEqual(first.changes[1].oldRow, #"{"id": 2, "title": "book 2"}"#, "the row as it was")
        XCTAssertEqual(first.changes[2].oldRow, #"{"id": 3, "title": "book 3"}"#)
        XCTAssertEqual(first.position.sequence, first.changes.last?.sequence)
        XCTAssertEqual(try read(after: first.position).changes, [], "nothing twice")

        try server.psql("TRUNCATE book")
        let truncated = try read(after: first.position).changes
        XCTAssertEqual(truncated.map(\.operation), [.truncate])
        XCTAssertEqual(truncated.map(\.key), [nil])
    }

    func testATransactionThatCommitsAfterALaterOneIsNotMissed() throws {
        // The writer's transaction takes its sequence number first, and commits last.
        try write("BEGIN")
        try write("UPDATE book SET title = 'early' WHERE id = 1")
        try server.psql("UPDATE book SET title = 'late' WHERE id = 2")
        let first = try read(after: try read(after: nil).position)
        XCTAssertEqual(first.changes.map(\.key), [], "the first read came after both were written: no position before them")

        // From a position taken while the writer's transaction runs.
        try server.psql("UPDATE book SET title = 'later' WHERE id = 3")
        let second = try read(after: first.position)
        XCTAssertEqual(second.changes.map(\.key), [3])
        XCTAssertEqual(second.position.running.count, 1, "the writer's transaction, still running")
        try write("COMMIT")
        let third = try read(after: second.position)
        XCTAssertEqual(third.changes.map(\.key), [1], "committed after a change numbered after it, and read")
        XCTAssertLessThan(third.changes[0].sequence, second.changes[0].sequence)
        XCTAssertEqual(third.position.running, [])
        XCTAssertEqual(try read(after: third.position).changes, [])
    }

    /// A transaction younger than one that commits before it (a higher id), whose change is
    /// numbered first and which is still running when a position is taken: the snapshot
    /// lists no running transaction from its horizon (the youngest ended one's successor)
    /// on, so its change, numbered before the position, was never read.
    func testAYoungerTransactionNumberedBeforeAnOlderOnesCommitIsNotMissed() throws {
        let (address, environment) = (server.address(), ownerEnvironment)
        let older = try blocking { try await address.connect(environment: environment) }
        defer { try? blocking { try await older.close() } }
        func run(_ sql: String) throws { _ = try blocking { try await older.query(PostgresQuery(unsafeSQL: sql), logger: .silent) } }
        try run("BEGIN")
        try run("SELECT pg_current_xact_id()")
        try write("BEGIN")
        try write("UPDATE book SET title = 'younger, numbered first' WHERE id = 1")
        try run("UPDATE book SET title = 'older, numbered second' WHERE id = 2")
        try run("COMMIT")
        let position = try read(after: nil).position
        XCTAssertEqual(position.running, [], "the younger transaction, running, is not listed")
        try write("COMMIT")
        let read = try read(after: position)
        XCTAssertEqual(read.changes.map(\.key), [1], "its change, numbered before the position, is read")
        XCTAssertEqual(try self.read(after: read.position).changes, [])
    }

    func testALookAndAReadOfAQuietTableAreIndexRangesWhileAnotherTableIsBusy() throws {
        try server.psql("CREATE TABLE busy (id bigint PRIMARY KEY, n int);"
                        + PostgresChangeLog.installSQL(table: "busy", key: "id").joined(separator: ";\n"))
        let position = try read(after: nil).position
        try server.psql("""
            INSERT INTO busy SELECT i, 0 FROM generate_series(1, 20000) i;
            UPDATE busy SET n = 1;
            ANALYZE list_view_manager.changes;
            """)
        let running = "'{" + position.running.map(String.init).joined(separator: ",") + "}'"
        let look = PostgresChangeLog.changesAfter(sequence: "\(position.sequence)", running: running,
                                                  horizon: "\(position.horizon)", table: "'book'")
        let lookPlan = try server.psql("EXPLAIN (ANALYZE, COSTS OFF) SELECT \(look)")
        XCTAssertTrue(lookPlan.contains("changes_table_seq"), lookPlan)
        XCTAssertFalse(lookPlan.contains("Rows Removed by Filter"), "not a walk through busy's 40,000 changes:\n\(lookPlan)")
        let readPlan = try server.psql("""
            PREPARE changes_after (bigint, bigint[], text, bigint) AS \(PostgresChangeLog.changesSQL);
            EXPLAIN (ANALYZE, COSTS OFF) EXECUTE changes_after (\(position.sequence), \(running), 'book', \(position.horizon));
            """)
        XCTAssertTrue(readPlan.contains("changes_table_seq"), readPlan)
        XCTAssertFalse(readPlan.contains("Rows Removed by Filter"), readPlan)
        XCTAssertTrue(try read(after: position).changes.isEmpty)
    }

    func testARolledBackTransactionLeavesNothingToRead() throws {
        let start = try read(after: nil).position
        try write("BEGIN")
        try write("DELETE FROM book WHERE id = 5")
        let during = try read(after: start)
        XCTAssertEqual(during.changes, [])
        try write("ROLLBACK")
        try server.psql("DELETE FROM book WHERE id = 6")
        XCTAssertEqual(try read(after: during.position).changes.map(\.key), [6], "the gap of the rolled back number is no change")
    }

    func testTheLogKeepsItsLastChangesAndAReaderFromBeforeThemIsToldItMissedSome() throws {
        try server.psql("UPDATE list_view_manager.log_state SET keep = 1500")
        let start = try read(after: nil).position
        try server.psql("UPDATE book SET title = title || '.' WHERE id = 1")
        let recent = try read(after: start)
        XCTAssertEqual(recent.changes.count, 1)
        XCTAssertFalse(recent.missedChanges)
        // 3,000 changes: the writer numbering the 2,048th drops those before the 548th.
        try server.psql("INSERT INTO book SELECT i, 'book ' || i FROM generate_series(100, 3099) i")
        let count = try server.psql("SELECT count(*) FROM list_view_manager.changes")
        XCTAssertLessThan(Int(count) ?? 0, 3001, "pruned")
        XCTAssertGreaterThanOrEqual(Int(count) ?? 0, 1500, "the last 1,500 kept")
        let late = try read(after: recent.position)
        XCTAssertTrue(late.missedChanges, "the reader's next changes are gone")
        XCTAssertEqual(late.changes, [])
        let caughtUp = try read(after: late.position)
        XCTAssertFalse(caughtUp.missedChanges, "from the new position, nothing is missing")
        try server.psql("DELETE FROM book WHERE id = 2")
        XCTAssertEqual(try read(after: caughtUp.position).changes.map(\.key), [2])
    }

    func testAWriterNeedsNoRightsOnTheLog() throws {
        try server.psql("""
            CREATE ROLE clerk LOGIN PASSWORD 'clerk';
            GRANT SELECT, INSERT, UPDATE, DELETE ON book TO clerk;
            """)
        let start = try read(after: nil).position
        try server.psql("SET ROLE clerk; INSERT INTO book VALUES (500, 'by the clerk')")
        XCTAssertEqual(try read(after: start).changes.map(\.key), [500])
    }
}
