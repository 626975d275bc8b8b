import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport
import TestSupport
import XCTest

/// `PostgresQueryStorage`s reading a streaming replica (a hot standby made by
/// `pg_basebackup -R`) while writes go to the primary: followed from the replicated change
/// log (a replica takes no `LISTEN`), read your writes by the log's place (`PostgresLSN`),
/// and the replica promoted.
final class PostgresReplicaTests: PostgresServerTestCase {
    private var replica: PostgresTestServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL);
            INSERT INTO book SELECT i, 'book ' || lpad(i::text, 5, '0') FROM generate_series(1, 2000) i;
            """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        replica = try PostgresTestServer(replicaOf: server)
    }

    override func tearDown() {
        replica?.stop()
        super.tearDown()
    }

    private func makeStorage(on server: PostgresTestServer) -> (PostgresQueryStorage<PostgresRecord>, UpdateRecorder) {
        let storage = PostgresQueryStorage<PostgresRecord>(
            address: server.address(), query: PostgresListQuery(table: "book", columns: ["title"], orderBy: [.init("title")]),
            pageSize: 50, environment: ownerEnvironment, pollInterval: .milliseconds(300))
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        storage.onError = { recorder.errors.append($0) }
        return (storage, recorder)
    }

    private func keys(of storage: PostgresQueryStorage<PostgresRecord>) -> [Int64] {
        (0..<storage.numberOfItems(inSection: 0)).compactMap { storage.key(at: IndexPath(item: $0, section: 0)) }
    }

    private func tableKeys(on server: PostgresTestServer) throws -> [Int64] {
        try server.psql("SELECT id FROM book ORDER BY title, id").split(separator: "\n").compactMap { Int64($0) }
    }

    /// The primary's place in its log now (after the commits that have returned).
    private func primaryLSN() throws -> PostgresLSN {
        let text = try server.psql("SELECT pg_current_wal_insert_lsn()::text")
        return try XCTUnwrap(PostgresLSN(text), text)
    }

    /// `LISTEN` on a replica is an error ("cannot execute LISTEN during recovery"), which
    /// would stop the storage: it looks in the replicated log instead.
    func testAStorageReadingAReplicaFollowsThePrimarysCommitsFromTheLog() throws {
        let (storage, recorder) = makeStorage(on: replica)
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        XCTAssertEqual(keys(of: storage).count, 2000)
        let keyReads = storage.keyReadCount
        for commit in 0..<5 {
            try server.psql("UPDATE book SET title = 'book 00000 (\(commit))' WHERE id = \(commit * 100 + 1); DELETE FROM book WHERE id = \(1500 + commit)")
            let expected = try tableKeys(on: server)
            wait("commit \(commit), replayed and followed") { keys(of: storage) == expected }
        }
        XCTAssertEqual(storage.state, .live)
        XCTAssertEqual(storage.keyReadCount, keyReads, "from the log")
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
        XCTAssertNotNil(storage.snapshot?.replayed)
    }

    /// The replica replays each commit 300 ms late (`recovery_min_apply_delay`): a write on
    /// the primary is shown once the replica has it, and the callback comes only then.
    func testAWriteOnThePrimaryIsWaitedForByItsPlaceInTheLog() throws {
        try replica.psql("ALTER SYSTEM SET recovery_min_apply_delay = '300ms'")
        try replica.psql("SELECT pg_reload_conf()")
        let (storage, recorder) = makeStorage(on: replica)
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        wait("the first page") { storage.pagesKept == 1 }
        for round in 0..<5 {
            let title = "book 00000 (round \(round))"
            try server.psql("UPDATE book SET title = '\(title)' WHERE id = 7")
            let lsn = try primaryLSN()
            var shown: String??
            storage.onceReflecting(lsn: lsn) { reflected in
                XCTAssertTrue(reflected)
                shown = .some(storage.record(at: IndexPath(item: 0, section: 0))?["title"])
            }
            wait("the write, reflected") { shown != nil }
            XCTAssertEqual(shown, .some(title), "round \(round): the write shown when told")
            XCTAssertGreaterThanOrEqual(try XCTUnwrap(storage.snapshot?.replayed), lsn)
        }
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")

        // On the primary, a read begun after the call shows every commit made before it.
        let (primaryStorage, _) = makeStorage(on: server)
        wait("the primary's first read") { primaryStorage.isLoaded }
        _ = primaryStorage.item(at: IndexPath(item: 0, section: 0))
        wait("its first page") { primaryStorage.pagesKept == 1 }
        try server.psql("UPDATE book SET title = 'book 00000 (on the primary)' WHERE id = 8")
        var onPrimary: String??
        primaryStorage.onceReflecting(lsn: try primaryLSN()) { _ in onPrimary = .some(primaryStorage.record(at: IndexPath(item: 0, section: 0))?["title"]) }
        wait("the write, reflected on the primary") { onPrimary != nil }
        XCTAssertEqual(onPrimary, .some("book 00000 (on the primary)"))
    }

    /// The replica promoted to a primary, then written to: the storage reading it goes on
    /// following, from the log, with no error.
    func testAReplicaPromotedIsFollowedOn() throws {
        let (storage, recorder) = makeStorage(on: replica)
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        let keyReads = storage.keyReadCount
        try server.psql("DELETE FROM book WHERE id = 3")
        var expected = try tableKeys(on: server)
        wait("the delete, replayed") { keys(of: storage) == expected }
        server.stop()
        try replica.promote()
        try replica.psql("INSERT INTO book VALUES (9000, 'book 00000 (after the promotion)'); DELETE FROM book WHERE id = 4")
        expected = try tableKeys(on: replica)
        wait("the promoted server's commit") { keys(of: storage) == expected }
        XCTAssertEqual(storage.state, .live)
        XCTAssertEqual(storage.keyReadCount, keyReads)
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
    }
}
