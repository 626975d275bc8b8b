import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport
import TestSupport
import XCTest

/// Storages of one query on one server share one feed: one session, one read of each
/// commit, whatever their number; each reads its own pages, and comes and goes on its own.
final class PostgresFeedTests: PostgresServerTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL, genre text);
            INSERT INTO book SELECT i, 'book ' || lpad(i::text, 5, '0'), 'g' || (i % 3) FROM generate_series(1, 3000) i;
            """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
    }

    private let query = PostgresListQuery(table: "book", columns: ["title", "genre"], orderBy: [.init("title")], sectionBy: "genre")

    private func makeStorage(_ query: PostgresListQuery? = nil) -> (PostgresQueryStorage<PostgresRecord>, UpdateRecorder) {
        let storage = PostgresQueryStorage<PostgresRecord>(address: server.address(), query: query ?? self.query, pageSize: 50,
                                                           environment: ownerEnvironment)
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        storage.onError = { recorder.errors.append($0) }
        return (storage, recorder)
    }

    /// Each section's keys and titles, in the table's order.
    private func table(_ condition: String = "true") throws -> [[(Int64, String)]] {
        var sections: [String: [(Int64, String)]] = [:]
        for row in try server.psql("SELECT genre || '|' || id || '|' || title FROM book WHERE \(condition) ORDER BY genre, title, id").split(separator: "\n") {
            let parts = row.split(separator: "|", maxSplits: 2)
            guard parts.count == 3, let key = Int64(parts[1]) else { continue }
            sections[String(parts[0]), default: []].append((key, String(parts[2])))
        }
        return sections.keys.sorted().map { sections[$0]! }
    }

    private func keys(of storage: PostgresQueryStorage<PostgresRecord>) -> [[Int64]] {
        (0..<storage.numberOfSections()).map { section in
            (0..<storage.numberOfItems(inSection: section)).compactMap { storage.key(at: IndexPath(item: $0, section: section)) }
        }
    }

    /// Whether every row whose record the storage holds has the table's title, and it holds some.
    private func heldTitlesAreTheTables(_ storage: PostgresQueryStorage<PostgresRecord>, _ table: [[(Int64, String)]]) -> Bool {
        var held = 0
        for (section, rows) in table.enumerated() {
            for (item, row) in rows.enumerated() {
                guard let record = storage.record(at: IndexPath(item: item, section: section)) else { continue }
                guard record["title"] == row.1 else { return false }
                held += 1
            }
        }
        return held > 0
    }

    /// The server sessions of clients other than `psql` itself.
    private func serverSessions() throws -> Int {
        Int(try server.psql("""
            SELECT count(*) FROM pg_stat_activity
            WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND datname = current_database()
            """)) ?? -1
    }

    /// Commits moving, changing, inserting and deleting rows, some in the storages' pages.
    private func write(_ commits: Range<Int>) throws {
        for commit in commits {
            try server.psql("""
                BEGIN;
                UPDATE book SET title = 'book \(String(format: "%05d", commit * 37 % 3000)) (\(commit))' WHERE id = \(commit * 61 % 3000 + 1);
                UPDATE book SET title = title || '.' WHERE id = \(commit * 3 + 3);
                INSERT INTO book VALUES (\(10_000 + commit), 'book \(String(format: "%05d", commit * 11)) new', 'g\(commit % 3)');
                DELETE FROM book WHERE id = \(commit * 97 % 3000 + 1);
                COMMIT;
                """)
            RunLoop.main.run(until: Date().addingTimeInterval(0.02))
        }
    }

    func testTwoHundredStoragesOfOneQueryShareOneSessionAndEachShowsEveryCommitInItsPages() throws {
        let storages = (0..<200).map { _ in makeStorage() }
        wait("every first read, live", seconds: 60) { storages.allSatisfy { $0.0.isLoaded && $0.0.state == .live } }
        // Each holds another page: one of the first 40 rows of a genre.
        for (index, (storage, _)) in storages.enumerated() {
            _ = storage.item(at: IndexPath(item: index % 20 * 50, section: index % 3))
        }
        wait("every page", seconds: 30) { storages.allSatisfy { $0.0.pagesRead == 1 } }
        let reads = storages.map(\.0.loadCount)

        try write(0..<30)
        let expected = try table()
        wait("every list to be the table's", seconds: 60) {
            storages.allSatisfy { keys(of: $0.0) == expected.map { $0.map(\.0) } }
        }
        XCTAssertTrue(storages.allSatisfy { heldTitlesAreTheTables($0.0, expected) })
        // Rows changed in place in g0's first page ("book 00003."…) came with their commits
        // to the storages holding that page: no page was read again.
        let changedInPlace = expected[0].prefix(45).enumerated().filter { $0.element.1.hasSuffix(".") }
        XCTAssertGreaterThan(changedInPlace.count, 10)
        for (storage, _) in storages.enumerated().filter({ $0.offset % 60 == 0 }).map(\.element) {
            XCTAssertEqual(storage.pagesRead, 1)
            XCTAssertTrue(changedInPlace.allSatisfy { storage.record(at: IndexPath(item: $0.offset, section: 0))?["title"] == $0.element.1 })
        }
        // One feed: its keys, listening and drift checks' sessions, and a few for the pages,
        // not two a storage.
        XCTAssertLessThanOrEqual(try serverSessions(), 7)
        XCTAssertTrue(storages.allSatisfy { $0.1.errors.isEmpty && $0.1.reloads == 1 && $0.0.keyReadCount == 1 })
        // Every storage took the same reads.
        let taken = zip(storages, reads).map { $0.0.loadCount - $1 }
        XCTAssertEqual(Set(taken).count, 1, "\(Set(taken))")
    }

    func testAStorageMadeLaterShowsTheRowsAsTheyAreAndFollowsOnFromTheLog() throws {
        let (first, _) = makeStorage()
        wait("the first read, live") { first.isLoaded && first.state == .live }
        try write(0..<5)
        wait("the commits") { keys(of: first) == (try? table().map { $0.map(\.0) }) }

        let (later, recorder) = makeStorage()
        wait("the later storage's read, live") { later.isLoaded && later.state == .live }
        XCTAssertEqual(keys(of: later), try table().map { $0.map(\.0) }, "the rows as they are, at once")
        _ = later.item(at: IndexPath(item: 0, section: 0))
        wait("its page") { later.pagesRead == 1 }
        try write(5..<10)
        let expected = try table()
        wait("both to be the table's") { [first, later].allSatisfy { keys(of: $0) == expected.map { $0.map(\.0) } } }
        XCTAssertTrue(heldTitlesAreTheTables(later, expected))
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertEqual(later.keyReadCount, 1, "given the feed's rows, then the commits from the log")
        XCTAssertEqual(first.keyReadCount, 1)
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testAStorageStoppedOrClosedLeavesTheOthersFollowingAndStillReadsItsPages() throws {
        let (stopped, _) = makeStorage()
        let (closed, _) = makeStorage()
        let (following, recorder) = makeStorage()
        wait("every first read, live") { [stopped, closed, following].allSatisfy { $0.isLoaded && $0.state == .live } }
        let before = keys(of: stopped)
        stopped.stopObserving()
        closed.close()
        try write(0..<10)
        let expected = try table()
        wait("the followed list to be the table's") { keys(of: following) == expected.map { $0.map(\.0) } }
        XCTAssertEqual(keys(of: stopped), before, "a storage stopped keeps its rows")
        XCTAssertEqual(stopped.state, .stopped)
        XCTAssertEqual(following.state, .live)
        // A page of the stopped storage is read on the feed's connections.
        _ = stopped.item(at: IndexPath(item: 100, section: 1))
        wait("the stopped storage's page") { stopped.record(at: IndexPath(item: 100, section: 1)) != nil }
        // The closed one reads nothing more.
        _ = closed.item(at: IndexPath(item: 100, section: 1))
        RunLoop.main.run(until: Date().addingTimeInterval(0.3))
        XCTAssertNil(closed.record(at: IndexPath(item: 100, section: 1)))
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testAStorageGivenAnotherQueryLeavesItsFeedAndShowsTheChangesWhileTheOthersStay() throws {
        let (moving, recorder) = makeStorage()
        let (staying, _) = makeStorage()
        wait("both first reads, live") { [moving, staying].allSatisfy { $0.isLoaded && $0.state == .live } }
        let all = try table().map { $0.map(\.0) }

        var narrowed = query
        narrowed.filter = "id % 2 = 0"
        moving.setQuery(narrowed)
        let even = try table("id % 2 = 0").map { $0.map(\.0) }
        wait("the narrowed rows") { keys(of: moving) == even }
        XCTAssertEqual(recorder.reloads, 1, "shown as the rows that went")
        XCTAssertEqual(keys(of: staying), all)

        try write(0..<6)
        let (evenNow, allNow) = (try table("id % 2 = 0").map { $0.map(\.0) }, try table().map { $0.map(\.0) })
        wait("each to follow its own query") { keys(of: moving) == evenNow && keys(of: staying) == allNow }
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testAWaitForAPlaceInTheLogOutlivesAChangeOfQuery() throws {
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        try server.psql("UPDATE book SET title = 'written' WHERE id = 3")
        let lsn = try XCTUnwrap(PostgresLSN(try server.psql("SELECT pg_current_wal_insert_lsn()::text")))
        var reflected: Bool?
        storage.onceReflecting(lsn: lsn) { reflected = $0 }
        var narrowed = query
        narrowed.filter = "id % 2 = 1"
        storage.setQuery(narrowed)
        wait("the wait answered") { reflected != nil }
        XCTAssertEqual(reflected, true)
        XCTAssertEqual(keys(of: storage), try table("id % 2 = 1").map { $0.map(\.0) })
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testRefreshAfterTheTableWasDroppedReadsTheTableMadeAgain() throws {
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        try server.psql("DROP TABLE book")
        wait("stopped, with an error") { storage.state == .stopped && !recorder.errors.isEmpty }
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL, genre text);
            INSERT INTO book SELECT i, 'again ' || i, 'g' || (i % 2) FROM generate_series(1, 40) i;
            """)
        let errors = recorder.errors.count
        storage.refresh()
        let expected = try table().map { $0.map(\.0) }
        wait("the table made again, read once") { keys(of: storage) == expected }
        XCTAssertEqual(recorder.errors.count, errors, "no old error told again")
        XCTAssertEqual(storage.state, .stopped, "read once; still stopped")
    }

    func testAChangeOfQueryWhilePagesAreReadIsNoError() throws {
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        for item in stride(from: 0, to: 1000, by: 50) { _ = storage.item(at: IndexPath(item: item, section: 1)) }
        var narrowed = query
        narrowed.filter = "id % 2 = 0"
        storage.setQuery(narrowed)
        let even = try table("id % 2 = 0").map { $0.map(\.0) }
        wait("the narrowed rows") { keys(of: storage) == even }
        RunLoop.main.run(until: Date().addingTimeInterval(0.5))
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
    }

    func testAQueryOfOtherColumnsThenOneComparableWithItIsShownByReloading() throws {
        let (storage, recorder) = makeStorage(PostgresListQuery(table: "book", columns: ["title"], orderBy: [.init("title")], sectionBy: "genre"))
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        // Other columns, then (before their rows are read) the same columns narrowed: the
        // rows shown are still of the first columns, so the list reloads.
        storage.setQuery(query)
        var narrowed = query
        narrowed.filter = "id % 2 = 0"
        storage.setQuery(narrowed)
        let even = try table("id % 2 = 0").map { $0.map(\.0) }
        wait("the narrowed rows") { keys(of: storage) == even }
        XCTAssertEqual(recorder.reloads, 2)
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        wait("a record with both columns") { storage.record(at: IndexPath(item: 0, section: 0))?["genre"] == "g0" }
    }

    func testAStorageJoiningAFeedNoOneFollowsIsGivenTheRowsAsTheyAreNow() throws {
        let (stopped, _) = makeStorage()
        wait("the first read, live") { stopped.isLoaded && stopped.state == .live }
        stopped.stopObserving()
        try write(0..<5)
        let (later, recorder) = makeStorage()
        var first: [[Int64]]?
        later.onLoad = { if first == nil { first = self.keys(of: later) } }
        wait("the later storage's read") { later.isLoaded && later.state == .live }
        XCTAssertEqual(first, try table().map { $0.map(\.0) }, "not the rows of before the commits")
        XCTAssertEqual(recorder.reloads, 1)
    }

    func testAStorageMadeWhileTheServerIsDownIsToldItCannotBeReached() throws {
        try server.halt()
        let (first, firstRecorder) = makeStorage()
        wait("the first storage's error") { !firstRecorder.errors.isEmpty }
        let (second, recorder) = makeStorage()
        wait("the second storage's error") { !recorder.errors.isEmpty }
        XCTAssertEqual(recorder.storageErrors.first?.isConnectionProblem, true)
        wait("both reconnecting") { [first, second].allSatisfy { if case .reconnecting = $0.state { true } else { false } } }
        try server.start()
        wait("both live", seconds: 20) { [first, second].allSatisfy { $0.isLoaded && $0.state == .live } }
    }

    func testManyChangesOfQueryWhileCommitsComeEndWithTheLastQuerysRows() throws {
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        for round in 0..<20 {
            var next = query
            next.filter = round % 2 == 0 ? "id % 2 = 0" : "id % 3 = 0"
            storage.setQuery(next)
            _ = storage.item(at: IndexPath(item: 0, section: 0))
            try write(round..<(round + 1))
        }
        let expected = try table("id % 3 = 0")
        wait("the last query's rows") { keys(of: storage) == expected.map { $0.map(\.0) } }
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        wait("their records") { heldTitlesAreTheTables(storage, expected) }
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
    }

    func testARowNewInAHeldPageComesWithItsRecordWhenEveryKeyIsRead() throws {
        // No trigger: every key is read again at each poll.
        try server.psql("CREATE TABLE shelf (id bigint PRIMARY KEY, title text NOT NULL); INSERT INTO shelf SELECT i, 'shelf ' || lpad(i::text, 4, '0') FROM generate_series(1, 300) i")
        let storage = PostgresQueryStorage<PostgresRecord>(address: server.address(), query: PostgresListQuery(table: "shelf", columns: ["title"], orderBy: [.init("title")]),
                                                           pageSize: 50, environment: ownerEnvironment, pollInterval: .milliseconds(200))
        let first = IndexPath(item: 0, section: 0)
        wait("the first read, polled") { storage.isLoaded && storage.state == .polling }
        _ = storage.item(at: first)
        wait("the first page") { storage.record(at: first) != nil }
        var placeholders = 0
        storage.onLoad = { if storage.key(at: first) == 1000, storage.record(at: first) == nil { placeholders += 1 } }
        try server.psql("INSERT INTO shelf VALUES (1000, 'a first shelf')")
        wait("the new row") { storage.key(at: first) == 1000 }
        XCTAssertEqual(storage.record(at: first)?["title"], "a first shelf")
        XCTAssertEqual(placeholders, 0, "its record came with the keys")
    }
}
