import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport
import TestSupport
import XCTest

/// `PostgresQueryStorage`s following a table through a private PgBouncer in transaction
/// pooling mode, looking in the change log (`WakeUp.pollLog`) since no `LISTEN` holds there,
/// while another program writes to the server directly.
final class PgBouncerTests: PostgresServerTestCase {
    private var bouncer: PgBouncerTestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL, genre text NOT NULL);
            INSERT INTO book SELECT i, 'book ' || lpad(i::text, 5, '0'), 'g' || (i % 3) FROM generate_series(1, 3000) i;
            """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        bouncer = try PgBouncerTestServer(for: server, poolSize: 5, maximumClients: 500)
    }

    override func tearDown() {
        bouncer?.stop()
        super.tearDown()
    }

    private func makeStorage(wakeUp: PostgresQueryStorage<PostgresRecord>.WakeUp = .pollLog(every: .milliseconds(50))) -> (PostgresQueryStorage<PostgresRecord>, UpdateRecorder) {
        let storage = PostgresQueryStorage<PostgresRecord>(
            address: bouncer.address(), query: PostgresListQuery(table: "book", columns: ["title", "genre"], orderBy: [.init("title")], sectionBy: "genre"),
            pageSize: 50, environment: ownerEnvironment, pollInterval: .milliseconds(500), wakeUp: wakeUp)
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        storage.onError = { recorder.errors.append($0) }
        return (storage, recorder)
    }

    /// The table's keys by section, in the list's order.
    private func table() throws -> [[Int64]] {
        var sections: [String: [Int64]] = [:]
        for row in try server.psql("SELECT genre || ' ' || id FROM book ORDER BY genre, title, id").split(separator: "\n") {
            let parts = row.split(separator: " ")
            guard parts.count == 2, let key = Int64(parts[1]) else { continue }
            sections[String(parts[0]), default: []].append(key)
        }
        return sections.keys.sorted().map { sections[$0]! }
    }

    private func keys(of storage: PostgresQueryStorage<PostgresRecord>) -> [[Int64]] {
        (0..<storage.numberOfSections()).map { section in
            (0..<storage.numberOfItems(inSection: section)).compactMap { storage.key(at: IndexPath(item: $0, section: section)) }
        }
    }

    /// The server sessions of clients other than `psql` itself.
    private func serverSessions() throws -> Int {
        Int(try server.psql("""
            SELECT count(*) FROM pg_stat_activity
            WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND datname = current_database()
            """)) ?? -1
    }

    func testCommitsAreFollowedThroughTransactionPoolingFromTheLogWithoutReadingEveryKey() throws {
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        wait("the first page") { storage.pagesKept == 1 }
        let keyReads = storage.keyReadCount
        try server.psql("UPDATE book SET title = 'book 00000 (first)' WHERE id = 3")
        wait("the update") { storage.record(at: IndexPath(item: 0, section: 0))?["title"] == "book 00000 (first)" }
        try server.psql("DELETE FROM book WHERE id BETWEEN 10 AND 19; INSERT INTO book VALUES (5000, 'a new book', 'g1'), (5001, 'another', 'g3')")
        let expected = try table()
        XCTAssertEqual(expected.count, 4, "a new section")
        wait("the list to be the table's") { keys(of: storage) == expected }
        XCTAssertEqual(storage.state, .live)
        XCTAssertEqual(recorder.reloads, 1, "never a reload")
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
        XCTAssertLessThanOrEqual(storage.keyReadCount - keyReads, 1, "every key read once at most (for the new section)")
        XCTAssertLessThanOrEqual(try serverSessions(), bouncer.poolSize, "the storage's sessions are PgBouncer's")
    }

    /// A `LISTEN` through transaction pooling is answered and then hears nothing (its server
    /// session goes back to the pool): the storage stayed `.live` and missed every commit.
    /// It now finds them in the log, two looks (a poll interval each) after them at most, and
    /// looks in the log from then on. (PgBouncer may hand the session that listened back to
    /// the same client, which then hears a notification now and then.)
    func testAStorageListeningThroughTransactionPoolingHearsNothingButFollowsAllTheSame() throws {
        let (storage, recorder) = makeStorage(wakeUp: .listen)
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        let keyReads = storage.keyReadCount
        for commit in 0..<3 {
            try server.psql("INSERT INTO book VALUES (\(7000 + commit), 'heard? \(commit)', 'g0')")
            let expected = try table()
            wait("commit \(commit), found in the log") { keys(of: storage) == expected }
        }
        XCTAssertEqual(storage.state, .live)
        XCTAssertEqual(storage.keyReadCount, keyReads)
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
    }

    /// PgBouncer ended (every client's connection closed) and started again while the table
    /// changes: the storage shows it is reconnecting, and catches up from the log.
    func testPgBouncerRestartedIsShownAndTheStorageCatchesUpFromTheLog() throws {
        let (storage, recorder) = makeStorage()
        var states: [PostgresQueryStorage<PostgresRecord>.State] = []
        storage.onStateChange = { states.append($0) }
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        let keyReads = storage.keyReadCount
        bouncer.halt()
        try server.psql("UPDATE book SET title = 'book 00000 (first)' WHERE id = 3; DELETE FROM book WHERE id = 4")
        wait("reconnecting") { if case .reconnecting = storage.state { true } else { false } }
        try bouncer.start()
        let expected = try table()
        wait("the list to be the table's", seconds: 20) { keys(of: storage) == expected }
        wait("live again") { storage.state == .live }
        XCTAssertEqual(storage.keyReadCount, keyReads, "caught up from the log")
        XCTAssertTrue(recorder.storageErrors.allSatisfy(\.isConnectionProblem), "\(recorder.storageErrors)")
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertTrue(states.contains(.live))
    }

    /// A hundred storages (two connections each) through a pool of five server sessions,
    /// while commits go on: each ends equal to the table.
    func testAHundredStoragesShareFiveServerSessionsAndEachFollowsTheTable() throws {
        let storages = (0..<100).map { _ in makeStorage() }
        wait("every first read, live", seconds: 60) { storages.allSatisfy { $0.0.isLoaded && $0.0.state == .live } }
        for commit in 0..<20 {
            try server.psql("UPDATE book SET title = 'book 00000 (\(commit))' WHERE id = \(commit * 7 + 1); INSERT INTO book VALUES (\(6000 + commit), 'new \(commit)', 'g\(commit % 3)')")
            RunLoop.main.run(until: Date().addingTimeInterval(0.05))
        }
        let expected = try table()
        wait("every list to be the table's", seconds: 60) { storages.allSatisfy { keys(of: $0.0) == expected } }
        XCTAssertLessThanOrEqual(try serverSessions(), bouncer.poolSize)
        XCTAssertTrue(storages.allSatisfy { $0.1.errors.isEmpty && $0.1.reloads == 1 && $0.0.keyReadCount == 1 })
    }
}
