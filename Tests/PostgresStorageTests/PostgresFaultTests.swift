import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport
import TestSupport
import XCTest

/// `PostgresQueryStorage` when the server ends its connections: each fault ends with the
/// list equal to the table and the storage following it, or with an error and `.stopped`;
/// never a silent stop.
final class PostgresFaultTests: PostgresServerTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL);
            INSERT INTO book SELECT i, 'book ' || lpad(i::text, 6, '0') FROM generate_series(1, 20000) i;
            """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
    }

    private func makeStorage(pollInterval: Duration = .seconds(2)) -> (PostgresQueryStorage<PostgresRecord>, UpdateRecorder) {
        let storage = PostgresQueryStorage<PostgresRecord>(address: server.address(), query: PostgresListQuery(table: "book", columns: ["title"], orderBy: [.init("title")]),
                                                           pageSize: 50, environment: ownerEnvironment, pollInterval: pollInterval)
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        storage.onError = { recorder.errors.append($0) }
        return (storage, recorder)
    }

    /// The table's keys in the list's order, and its titles by key.
    private func table() throws -> (keys: [Int64], titles: [Int64: String]) {
        let rows = try server.psql("SELECT id || ' ' || title FROM book ORDER BY title, id").split(separator: "\n")
        var keys: [Int64] = []
        var titles: [Int64: String] = [:]
        for row in rows {
            let parts = row.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let key = Int64(parts[0]) else { continue }
            keys.append(key)
            titles[key] = String(parts[1])
        }
        return (keys, titles)
    }

    private func keys(of storage: PostgresQueryStorage<PostgresRecord>) -> [Int64] {
        (0..<storage.numberOfItems(inSection: 0)).compactMap { storage.key(at: IndexPath(item: $0, section: 0)) }
    }

    /// PostgresNIO leaves a statement sent on a connection the server has just ended waiting
    /// forever: the storage, waiting for its read of the keys, took each commit after it as a
    /// read to make later, and so followed the table no more, silently.
    func testTheKeysConnectionEndedWhileIdleInItsTransactionIsReportedAndTheTableFollowedOn() throws {
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        // Twenty pages held: each read of the keys reads them again in its transaction, a
        // statement at a time, idle in the transaction between them.
        for page in 0..<20 { _ = storage.item(at: IndexPath(item: page * 50, section: 0)) }
        wait("the pages") { storage.pagesKept == 20 }

        // Ends, five times (in 20 s at most), the session that is idle inside a transaction
        // (the storage's reads of the keys are the only ones), while commits make it read.
        let server = server!
        let endings = Outcome()
        DispatchQueue.global().async {
            let output = (try? server.psql("""
                DO $$ DECLARE found_pid int; ended int := 0; deadline timestamptz := clock_timestamp() + interval '20 s'; BEGIN
                WHILE clock_timestamp() < deadline LOOP
                    PERFORM pg_stat_clear_snapshot();
                    SELECT pid INTO found_pid FROM pg_stat_activity WHERE state = 'idle in transaction' AND pid <> pg_backend_pid() LIMIT 1;
                    IF FOUND THEN
                        PERFORM pg_terminate_backend(found_pid);
                        RAISE NOTICE 'ended %', found_pid;
                        ended := ended + 1;
                        EXIT WHEN ended = 5;
                        PERFORM pg_sleep(0.2);
                    END IF;
                    PERFORM pg_sleep(0.0002);
                END LOOP; END $$;
                """)) ?? ""
            endings.set(output)
        }
        var commit = 0
        while endings.value == nil {
            commit += 1
            try server.psql("UPDATE book SET title = title || ' (revised)' WHERE id = \(commit)")
            RunLoop.main.run(until: Date().addingTimeInterval(0.03))
        }
        let output = endings.value ?? ""
        XCTAssertEqual(output.components(separatedBy: "NOTICE:  ended").count - 1, 5, "the reads' sessions ended: \(output)")
        XCTAssertFalse(recorder.errors.isEmpty, "each ending is reported")
        XCTAssertTrue(recorder.storageErrors.allSatisfy(\.isConnectionProblem), "\(recorder.storageErrors)")

        // A commit after the endings is followed, and the rows held are the table's.
        try server.psql("DELETE FROM book WHERE id = 19999; UPDATE book SET title = 'book 000000 (first)' WHERE id = 20000")
        let expected = try table()
        wait("the list to be the table's", seconds: 30) { keys(of: storage) == expected.keys }
        XCTAssertEqual(storage.state, .live)
        wait("the held rows to be the table's") {
            (0..<expected.keys.count).allSatisfy { position in
                storage.record(at: IndexPath(item: position, section: 0)).map { $0["title"] == expected.titles[expected.keys[position]] } ?? true
            }
        }
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 0))?["title"], "book 000000 (first)")
        XCTAssertEqual(recorder.reloads, 1, "never a reload")
    }

    /// Every session of the storage (its keys, its pages, its listening one) ended, whatever
    /// it is doing, ten times while commits go on: the storage shows it is reconnecting,
    /// reports nothing but connection problems, and catches up from the log, reading every
    /// key no more.
    func testEverySessionEndedInAnyStateIsShownAndCaughtUpFromTheLog() throws {
        let (storage, recorder) = makeStorage()
        var states: [PostgresQueryStorage<PostgresRecord>.State] = []
        storage.onStateChange = { states.append($0) }
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        for page in 0..<10 { _ = storage.item(at: IndexPath(item: page * 50, section: 0)) }
        wait("the pages") { storage.pagesKept == 10 }
        let keyReads = storage.keyReadCount
        var ended = 0
        for round in 0..<10 {
            try server.psql("UPDATE book SET title = 'book ' || lpad((20001 - id)::text, 6, '0') || ' moved \(round)' WHERE id = \(round + 1)")
            RunLoop.main.run(until: Date().addingTimeInterval(0.1))
            let output = try server.psql("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                """)
            ended += Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            RunLoop.main.run(until: Date().addingTimeInterval(0.2))
        }
        XCTAssertGreaterThanOrEqual(ended, 10, "a session ended each time at least")
        XCTAssertTrue(states.contains { if case .reconnecting = $0 { true } else { false } }, "shown as reconnecting: \(states)")
        XCTAssertTrue(recorder.storageErrors.allSatisfy(\.isConnectionProblem), "\(recorder.storageErrors)")
        try server.psql("INSERT INTO book VALUES (30000, 'book 000000 (after)')")
        let expected = try table()
        wait("the list to be the table's", seconds: 30) { keys(of: storage) == expected.keys }
        wait("live again") { storage.state == .live }
        wait("the held rows to be the table's") {
            (0..<500).allSatisfy { position in
                storage.record(at: IndexPath(item: position, section: 0)).map { $0["title"] == expected.titles[expected.keys[position]] } ?? true
            }
        }
        XCTAssertEqual(storage.keyReadCount, keyReads, "caught up from the log, not by reading every key")
        XCTAssertEqual(recorder.reloads, 1, "never a reload")
    }

    /// The table dropped and made again, with the trigger, in one transaction: the log then
    /// holds only the new table's inserts (a DROP logs no delete), so the storage, reading
    /// them as changes to the old rows, showed both tables' rows. It reads every key instead;
    /// and finds a table made again with no row (no commit to tell it) within a poll interval.
    func testATableDroppedAndMadeAgainIsReadAgainNotTakenFromTheLog() throws {
        let (storage, recorder) = makeStorage(pollInterval: .milliseconds(300))
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        wait("the first page") { storage.pagesKept == 1 }
        let keyReads = storage.keyReadCount
        let remake = "DROP TABLE book; CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL);\n"
            + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n")
        try server.psql("BEGIN;\n\(remake);\nINSERT INTO book SELECT i, 'new book ' || lpad(i::text, 6, '0') FROM generate_series(100001, 100500) i;\nCOMMIT")
        var expected = try table()
        XCTAssertEqual(expected.keys.count, 500)
        wait("the list to be the new table's") { keys(of: storage) == expected.keys }
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 0))?["title"], "new book 100001")
        XCTAssertGreaterThan(storage.keyReadCount, keyReads, "every key read again")

        try server.psql("BEGIN;\n\(remake);\nCOMMIT")
        expected = try table()
        wait("the list to be empty, as the table made again") { storage.numberOfItems(inSection: 0) == 0 }
        try server.psql("INSERT INTO book VALUES (7, 'book after')")
        wait("the insert, followed") { keys(of: storage) == [7] }
        XCTAssertEqual(storage.state, .live)
        XCTAssertEqual(recorder.storageErrors, [])
    }

    /// A column dropped: one the query does not read is followed from the log as before
    /// (the log's rows as they were no longer have it); one it reads is an error naming it
    /// at each commit, the rows staying as they were, until a column of that name is back.
    func testAColumnDroppedIsFollowedOrReportedByName() throws {
        try server.psql("ALTER TABLE book ADD COLUMN pages integer NOT NULL DEFAULT 100, ADD COLUMN shelf text")
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        wait("the first page") { storage.pagesKept == 1 }
        try server.psql("UPDATE book SET pages = 7 WHERE id = 1")
        try server.psql("ALTER TABLE book DROP COLUMN pages; UPDATE book SET title = 'book 000000 (first)' WHERE id = 2; DELETE FROM book WHERE id = 1")
        var expected = try table()
        wait("the commit after the drop") { keys(of: storage) == expected.keys }
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 0))?["title"], "book 000000 (first)")
        XCTAssertEqual(storage.keyReadCount, 1, "from the log")
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")

        try server.psql("ALTER TABLE book DROP COLUMN title CASCADE; DELETE FROM book WHERE id = 3")
        wait("the error") { !recorder.errors.isEmpty }
        XCTAssertTrue(recorder.storageErrors.contains { "\($0.localizedDescription)".contains("title") }, "\(recorder.storageErrors)")
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 0))?["title"], "book 000000 (first)", "the rows stay")
        try server.psql("ALTER TABLE book ADD COLUMN title text NOT NULL DEFAULT 'back'; UPDATE book SET title = 'book ' || lpad(id::text, 6, '0')")
        expected = try table()
        wait("the table again", seconds: 20) { keys(of: storage) == expected.keys }
        XCTAssertNotEqual(storage.state, .stopped)
    }
}

/// A text set on one thread and read on another.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?
    var value: String? { lock.withLock { text } }
    func set(_ value: String) { lock.withLock { text = value } }
}
