import Foundation
import ModelStorage
import PostgresNIO
@testable import PostgresStorage
import PostgresTestSupport
import TestSupport
import XCTest

/// `PostgresQueryStorage` against a real private server: the first read, pages, and writes
/// from other processes (`psql`) arriving as minimal updates.
final class PostgresQueryStorageTests: PostgresServerTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        // 1,000 books in three genres: book i is "book i" (zero-padded), genre g(i % 3).
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL, genre text);
            INSERT INTO book SELECT i, 'book ' || lpad(i::text, 4, '0'), 'g' || (i % 3) FROM generate_series(1, 1000) i;
            """)
    }

    private let query = PostgresListQuery(table: "book", columns: ["title", "genre"], orderBy: [.init("title")], sectionBy: "genre")

    private func makeStorage(_ query: PostgresListQuery? = nil, pollInterval: Duration = .seconds(2)) -> (PostgresQueryStorage<PostgresRecord>, UpdateRecorder) {
        let storage = PostgresQueryStorage<PostgresRecord>(address: server.address(), query: query ?? self.query, pageSize: 50,
                                                           environment: ownerEnvironment, pollInterval: pollInterval)
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        storage.onError = { recorder.errors.append($0) }
        return (storage, recorder)
    }

    private func titles(_ storage: PostgresQueryStorage<PostgresRecord>, section: Int) -> [String?] {
        (0..<storage.numberOfItems(inSection: section)).map { storage.record(at: IndexPath(item: $0, section: section))?["title"] }
    }

    func testTheFirstReadGivesSectionsAndPlaceholdersThatTheirPagesReplaceInPlace() throws {
        let (storage, recorder) = makeStorage()
        wait("the first read") { storage.isLoaded }
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertEqual(storage.numberOfSections(), 3)
        XCTAssertEqual((0..<3).map(storage.numberOfItems(inSection:)), [333, 334, 333])
        XCTAssertEqual((0..<3).map { storage.headerModel(forSection: $0) as? String }, ["g0", "g1", "g2"])
        XCTAssertEqual(storage.key(at: IndexPath(item: 0, section: 1)), 1, "book 0001 first in g1")

        // Page 0: the first fifty rows, counted across sections (g0's books 3, 6, … 150).
        let first = storage.item(at: IndexPath(item: 0, section: 0)) as? PagedRow<PostgresRecord>
        XCTAssertEqual(first?.id, 3)
        XCTAssertNil(first?.record, "a placeholder until its page arrives")
        wait("the page") { storage.pagesRead == 1 }
        XCTAssertEqual(recorder.updates.count, 1)
        XCTAssertEqual(recorder.updates.first?.changes, [.updateItem(IndexPath(item: 0, section: 0))], "in place, no splice")
        let shown = storage.item(at: IndexPath(item: 0, section: 0)) as? PagedRow<PostgresRecord>
        XCTAssertEqual(shown?.record?["title"], "book 0003")
        XCTAssertEqual(shown?.record?["genre"], "g0")
        XCTAssertEqual(storage.record(at: IndexPath(item: 49, section: 0))?["title"], "book 0150", "the page holds fifty rows")
        XCTAssertNil(storage.record(at: IndexPath(item: 50, section: 0)))
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    /// The first read tells the sections' counts and the first rows' keys before it reads
    /// every key (with the trigger, as runs; without, as one list): the list shows its first
    /// screen at once, and every key, of the same snapshot, changes nothing shown; a row
    /// given out with no key gets its key and record in place.
    func testTheFirstRowsAreShownBeforeEveryKeyIsReadWithAndWithoutTheTrigger() throws {
        try server.psql("INSERT INTO book SELECT i, 'book ' || lpad(i::text, 4, '0'), 'g' || (i % 3) FROM generate_series(1001, 3000) i")
        for trigger in [false, true] {
            if trigger { try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n")) }
            let (storage, recorder) = makeStorage()
            var atFirstReload: (loaded: Bool, counts: [Int], first: Int64?, last: PagedRow<PostgresRecord>?)?
            recorder.onReload = {
                atFirstReload = atFirstReload ?? (storage.isLoaded, (0..<storage.numberOfSections()).map(storage.numberOfItems(inSection:)),
                                                  storage.key(at: IndexPath(item: 0, section: 0)),
                                                  storage.item(at: IndexPath(item: 999, section: 2)) as? PagedRow<PostgresRecord>)
            }
            wait("every key") { storage.isLoaded }
            let first = try XCTUnwrap(atFirstReload, "trigger: \(trigger)")
            XCTAssertFalse(first.loaded, "shown before every key was read; trigger: \(trigger)")
            XCTAssertEqual(first.counts, [1000, 1000, 1000])
            XCTAssertEqual(first.first, 3, "book 0003 first in g0, its key read with the first rows")
            XCTAssertEqual(first.last?.isPlaceholder, true)
            XCTAssertNil(first.last.flatMap(\.id), "g2's last key is not read yet")
            XCTAssertEqual(recorder.reloads, 1, "every key changes nothing shown")

            // g2's last row (book 2999), given out with no key, takes its key and record in place.
            let last = IndexPath(item: 999, section: 2)
            wait("the last row's record") { recorder.updates.contains { $0.updatedObjects[last] != nil } }
            let row = recorder.updates.compactMap { $0.updatedObjects[last] as? PagedRow<PostgresRecord> }.last
            XCTAssertEqual(row?.id, 2999)
            XCTAssertEqual(row?.record?["title"], "book 2999")
            XCTAssertEqual(recorder.reloads, 1)
            XCTAssertEqual(storage.keyReadCount, 1)
            XCTAssertTrue(recorder.errors.isEmpty)
            storage.close()
        }
    }

    /// Stopped while it shows its first rows, a storage still takes the read of every key
    /// under way, so that the rows further down get their keys; then it follows no more.
    func testAStorageStoppedWhileItShowsItsFirstRowsStillTakesEveryKey() throws {
        try server.psql("INSERT INTO book SELECT i, 'book ' || lpad(i::text, 4, '0'), 'g' || (i % 3) FROM generate_series(1001, 3000) i")
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage()
        var stoppedBeforeEveryKey = false
        recorder.onReload = {
            stoppedBeforeEveryKey = !storage.isLoaded
            storage.stopObserving()
        }
        wait("every key") { storage.isLoaded }
        XCTAssertTrue(stoppedBeforeEveryKey)
        XCTAssertEqual(storage.state, .stopped)
        XCTAssertEqual(storage.key(at: IndexPath(item: 999, section: 2)), 2999)
        try server.psql("DELETE FROM book WHERE id = 3")
        let settled = Date().addingTimeInterval(0.5)
        wait("a moment") { Date() > settled }
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 1000, "followed no more")
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testACommitOfAnotherProcessArrivesAsOneMinimalUpdateThroughTheTrigger() throws {
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        _ = storage.item(at: IndexPath(item: 0, section: 1))  // page 6 (rows 300…349): g1's first 17
        wait("the first page") { storage.pagesRead == 1 }
        recorder.updates = []
        let loads = storage.loadCount

        // Deleted, changed in place, moved to another genre, and a new book: one commit.
        try server.psql("""
            BEGIN;
            DELETE FROM book WHERE id = 4;
            UPDATE book SET title = 'book 0007 (second edition)' WHERE id = 7;
            UPDATE book SET genre = 'g0' WHERE id = 10;
            INSERT INTO book VALUES (2000, 'book 0000', 'g1');
            COMMIT;
            """)
        wait("the commit") { storage.loadCount > loads }
        // Its four notifications came within the coalescing delay: no read follows.
        let settled = Date().addingTimeInterval(0.3)
        wait("a moment") { Date() > settled }
        XCTAssertEqual(storage.loadCount, loads + 1, "one read for the commit")
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertEqual(recorder.updates.count, 1)
        // g1 was 1, 4, 7, 10, 13…: 4 deleted, 10 moved to g0 (3, 6, 9, 10…), 2000 ("book
        // 0000") first, and 7 changed in place.
        XCTAssertEqual(recorder.updates.first?.changes, [
            .deleteItems(section: 1, items: 1..<2), .moveItem(from: IndexPath(item: 2, section: 1), to: IndexPath(item: 3, section: 0)),
            .insertItems(section: 1, items: 0..<1), .updateItem(IndexPath(item: 2, section: 1)),
        ])
        XCTAssertEqual((0..<3).map(storage.numberOfItems(inSection:)), [334, 333, 333])
        XCTAssertEqual(titles(storage, section: 1).prefix(4), ["book 0000", "book 0001", "book 0007 (second edition)", "book 0013"])
        XCTAssertEqual(storage.keyReadCount, 1, "the commit read from the change log: the changed rows, not every key")
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testARowWhoseOrderDidNotChangeIsUpdatedInPlaceFromTheLog() throws {
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        // In the key's order: a new title leaves each row where it was.
        let (storage, recorder) = makeStorage(PostgresListQuery(table: "book", columns: ["title"]))
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        wait("the first page") { storage.pagesRead == 1 }
        recorder.updates = []
        try server.psql("UPDATE book SET title = 'retitled' WHERE id = 5")
        wait("the new title") { storage.record(at: IndexPath(item: 4, section: 0))?["title"] == "retitled" }
        XCTAssertEqual(recorder.updates.map(\.changes), [[.updateItem(IndexPath(item: 4, section: 0))]])
        XCTAssertEqual(storage.keyReadCount, 1)
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testATruncateIsReadAgainWholeAndLaterCommitsFromTheLogAgain() throws {
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        func keys() -> [[Int64]] {
            (0..<storage.numberOfSections()).map { section in
                (0..<storage.numberOfItems(inSection: section)).compactMap { storage.key(at: IndexPath(item: $0, section: section)) }
            }
        }
        func table() throws -> [[Int64]] {
            try server.psql("SELECT string_agg(id::text, ',' ORDER BY title, id) FROM book GROUP BY genre ORDER BY genre")
                .split(separator: "\n").map { $0.split(separator: ",").compactMap { Int64($0) } }
        }
        try server.psql("BEGIN; TRUNCATE book; INSERT INTO book VALUES (1, 'one', 'g1'), (2, 'two', 'g2'); COMMIT;")
        wait("the truncate") { storage.numberOfSections() == 2 }
        XCTAssertEqual(keys(), try table())
        XCTAssertEqual(storage.keyReadCount, 2, "a truncate starts again from the table")
        try server.psql("INSERT INTO book VALUES (3, 'three', 'g1'); UPDATE book SET genre = 'g1' WHERE id = 2;")
        wait("the commits") { storage.numberOfSections() == 1 && storage.numberOfItems(inSection: 0) == 3 }
        XCTAssertEqual(keys(), try table())
        XCTAssertEqual(storage.keyReadCount, 2, "then the log again")
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testFiftyWritersAtOnceAreReadTogetherAndTheListEndsAsTheTable() throws {
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage(PostgresListQuery(table: "book", columns: ["title"], orderBy: [.init("title")]))
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        let loads = storage.loadCount
        let server = server!
        DispatchQueue.concurrentPerform(iterations: 50) { writer in
            _ = try? server.psql("INSERT INTO book VALUES (\(3000 + writer), 'new \(writer)', 'g9'); DELETE FROM book WHERE id = \(writer + 1);")
        }
        let expected = try server.psql("SELECT string_agg(id::text, ',' ORDER BY title, id) FROM book")
        wait("the list to end as the table") {
            (0..<storage.numberOfItems(inSection: 0)).compactMap { storage.key(at: IndexPath(item: $0, section: 0)) }
                .map(String.init).joined(separator: ",") == expected
        }
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 1000)
        XCTAssertLessThan(storage.loadCount - loads, 50, "bursts are read together")
        XCTAssertEqual(storage.keyReadCount, 1, "every commit read from the change log")
        XCTAssertEqual(recorder.reloads, 1, "never a reload")
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testAServerRestartIsReconnectedAndCaughtUpWithOneUpdate() throws {
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage()
        var states: [PostgresQueryStorage<PostgresRecord>.State] = []
        storage.onStateChange = { states.append($0) }
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        wait("the first page") { storage.pagesRead == 1 }
        recorder.updates = []

        try server.halt()
        wait("reconnecting") { if case .reconnecting = storage.state { true } else { false } }
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 333, "the rows shown stay")
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 0))?["title"], "book 0003")
        try server.start()
        // Written before the storage is back: found by the read that catches up.
        try server.psql("INSERT INTO book VALUES (2001, 'book 0000', 'g0'); UPDATE book SET title = 'book 0003 (revised)' WHERE id = 3")
        wait("live again, caught up") { storage.state == .live && storage.key(at: IndexPath(item: 0, section: 0)) == 2001 }
        wait("the revised record") { storage.record(at: IndexPath(item: 1, section: 0))?["title"] == "book 0003 (revised)" }
        XCTAssertEqual(recorder.reloads, 1, "never a reload")
        let changes = recorder.updates.flatMap(\.changes)
        XCTAssertEqual(changes.first, .insertItems(section: 0, items: 0..<1))
        XCTAssertTrue(changes.contains(.updateItem(IndexPath(item: 1, section: 0))), "\(changes)")
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 334, "nothing shown twice or lost")
        XCTAssertEqual(states.first, .live)
        XCTAssertEqual(states.last, .live)
        XCTAssertTrue(states.contains(.reconnecting(attempt: 1)), "\(states)")
    }

    func testASearchAndASortAreSQLAndShownAsTheRowsThatWentCameOrMoved() throws {
        let (storage, recorder) = makeStorage(PostgresListQuery(table: "book", columns: ["title"], orderBy: [.init("title")]))
        wait("the first read") { storage.isLoaded }
        // The search: a condition with a bound argument (a quote in it is a value, not SQL).
        storage.setQuery(PostgresListQuery(table: "book", columns: ["title"], filter: "title LIKE $1", arguments: ["book 000%"],
                                           orderBy: [.init("title")]))
        storage.setQuery(PostgresListQuery(table: "book", columns: ["title"], filter: "title LIKE $1", arguments: ["book 00%' OR 'x"],
                                           orderBy: [.init("title")]))
        storage.setQuery(PostgresListQuery(table: "book", columns: ["title"], filter: "title LIKE $1", arguments: ["book 000%"],
                                           orderBy: [.init("title", ascending: false)]))
        wait("the search, sorted down") { storage.numberOfItems(inSection: 0) == 9 && storage.key(at: IndexPath(item: 0, section: 0)) == 9 }
        XCTAssertEqual((0..<9).compactMap { storage.key(at: IndexPath(item: $0, section: 0)) }, [9, 8, 7, 6, 5, 4, 3, 2, 1])
        XCTAssertEqual(recorder.reloads, 1, "the rows that went, came or moved, never a reload")
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testATableWithoutTheTriggerIsPolledAndSaysSo() throws {
        let (storage, recorder) = makeStorage(pollInterval: .milliseconds(200))
        wait("polling") { storage.isLoaded && storage.state == .polling }
        let transaction = Int64(try server.psql("BEGIN; UPDATE book SET genre = NULL WHERE id = 3; SELECT pg_current_xact_id(); COMMIT;")
            .split(separator: "\n").compactMap { Int64($0) }.first ?? -1)
        var reflected: Bool?
        storage.onceReflecting(transaction: transaction) { reflected = $0 }
        wait("the change") { storage.numberOfSections() == 4 }
        XCTAssertNil(storage.headerModel(forSection: 3), "NULL last, with no header text")
        XCTAssertEqual(storage.key(at: IndexPath(item: 0, section: 3)), 3)
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertEqual(reflected, true, "a polled storage knows its snapshot too")
    }

    func testAColumnAddedIsFollowedAnOrderColumnRenamedIsReportedUntilItIsBackAndOneRetypedIsReadAgain() throws {
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        func keys() -> [[Int64]] {
            (0..<storage.numberOfSections()).map { section in
                (0..<storage.numberOfItems(inSection: section)).compactMap { storage.key(at: IndexPath(item: $0, section: section)) }
            }
        }
        func table() throws -> [[Int64]] {
            try server.psql("SELECT string_agg(id::text, ',' ORDER BY title, id) FROM book GROUP BY genre ORDER BY genre")
                .split(separator: "\n").map { $0.split(separator: ",").compactMap { Int64($0) } }
        }
        // A column the query does not read: followed from the log as before.
        try server.psql("ALTER TABLE book ADD COLUMN pages integer; UPDATE book SET pages = 10, title = 'book 0000' WHERE id = 6")
        wait("the commit after the new column") { storage.key(at: IndexPath(item: 0, section: 0)) == 6 }
        XCTAssertEqual(keys(), try table())
        XCTAssertEqual(storage.keyReadCount, 1)

        // The order's column renamed: each read fails and says which column is missing.
        try server.psql("ALTER TABLE book RENAME COLUMN title TO name; UPDATE book SET name = 'book 0000' WHERE id = 9")
        wait("the error") { !recorder.errors.isEmpty }
        XCTAssertTrue(recorder.storageErrors.contains { "\($0.localizedDescription)".contains("title") }, "\(recorder.storageErrors)")
        XCTAssertEqual(storage.key(at: IndexPath(item: 0, section: 0)), 6, "the rows stay as they were")

        // Named back: the next commit is read from the table again, whole, and the rows are
        // the table's, the commit made while it was missing included.
        try server.psql("ALTER TABLE book RENAME COLUMN name TO title; UPDATE book SET title = 'book 0000' WHERE id = 12")
        wait("the table again") { (try? table()) == keys() }
        XCTAssertEqual(Array(keys()[0].prefix(3)), [6, 9, 12])
        XCTAssertEqual(storage.keyReadCount, 2, "one read of every key, after the rename back")

        // The section column retyped (the server compares integers now): the log's read
        // fails on the types it knew, and the read of every key that follows at once, with
        // the types read again, shows the table, with no error.
        let errors = recorder.errors.count
        try server.psql("ALTER TABLE book ALTER COLUMN genre TYPE integer USING substr(genre, 2)::integer; UPDATE book SET title = 'book 0000' WHERE id = 15")
        wait("the retyped table") { (try? table()) == keys() && storage.key(at: IndexPath(item: 3, section: 0)) == 15 }
        XCTAssertEqual(Array(keys()[0].prefix(4)), [6, 9, 12, 15])
        XCTAssertEqual(storage.keyReadCount, 3)
        XCTAssertEqual(recorder.errors.count, errors, "\(recorder.storageErrors)")
        XCTAssertEqual(storage.state, .live)
    }

    func testAWritersTransactionIsReflectedOnceItsCommitIsShown() throws {
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        func shows(_ key: Int64) -> Bool {
            (0..<storage.numberOfSections()).contains { section in
                (0..<storage.numberOfItems(inSection: section)).contains { storage.key(at: IndexPath(item: $0, section: section)) == key }
            }
        }
        let (address, environment) = (server.address(), ownerEnvironment)
        let writer = try blocking { try await address.connect(environment: environment) }
        defer { _ = try? blocking { try await writer.close() } }
        // A transaction that wrote and has not committed yet.
        let transaction = try blocking {
            try await writer.query("BEGIN", logger: .silent)
            try await writer.query("INSERT INTO book VALUES (5000, 'book 5000', 'g0')", logger: .silent)
            var id: Int64 = -1
            for try await value in try await writer.query("SELECT pg_current_xact_id()::text::bigint", logger: .silent).decode(Int64.self) { id = value }
            return id
        }
        var calls: [(reflected: Bool, shown: Bool)] = []
        storage.onceReflecting(transaction: transaction) { calls.append(($0, shows(5000))) }

        // Another commit, read while it runs: the rows shown do not include it.
        try server.psql("INSERT INTO book VALUES (5001, 'book 5001', 'g1')")
        wait("the other commit") { shows(5001) }
        XCTAssertFalse(storage.reflects(transaction: transaction))
        XCTAssertTrue(calls.isEmpty)

        _ = try blocking { try await writer.query("COMMIT", logger: .silent) }
        wait("its commit") { !calls.isEmpty }
        XCTAssertEqual(calls.map(\.reflected), [true])
        XCTAssertEqual(calls.map(\.shown), [true], "called once its row is shown")
        XCTAssertTrue(storage.reflects(transaction: transaction))

        // One the rows include already is told at once; one still to come, when the
        // storage stops first, is told it never came.
        var now: Bool?
        storage.onceReflecting(transaction: transaction) { now = $0 }
        XCTAssertEqual(now, true)
        var never: Bool?
        storage.onceReflecting(transaction: (storage.snapshot?.horizon ?? 0) + 1_000) { never = $0 }
        XCTAssertNil(never)
        storage.close()
        XCTAssertEqual(never, false)
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testAPageIsReadOnItsOwnConnectionWhileTheKeysAreRead() throws {
        let (storage, recorder) = makeStorage()
        wait("the first read") { storage.isLoaded }
        let loads = storage.loadCount
        // A condition the server takes a second to evaluate, once for the counts and once for
        // the keys.
        storage.setQuery(PostgresListQuery(table: "book", columns: ["title", "genre"], filter: "(SELECT pg_sleep(1)) IS NOT NULL",
                                           orderBy: [.init("title")], sectionBy: "genre"))
        _ = storage.item(at: IndexPath(item: 0, section: 1))
        wait("the page") { storage.pagesRead == 1 }
        XCTAssertEqual(storage.loadCount, loads, "the page came while the keys were still being read")
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 1))?["title"], "book 0001")
        wait("the keys") { storage.loadCount > loads }
        XCTAssertTrue(recorder.errors.isEmpty)
    }

    func testADroppedTableIsAClearErrorAndItsRowsStay() throws {
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage(pollInterval: .milliseconds(200))
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        // A DROP sends no notification: the storage finds it within a poll interval.
        try server.psql("DROP TABLE book")
        wait("the error") { !recorder.errors.isEmpty }
        XCTAssertEqual(recorder.storageErrors, [.unknownTable("relation \"book\" does not exist")])
        XCTAssertEqual(storage.state, .stopped)
        XCTAssertEqual((0..<3).map(storage.numberOfItems(inSection:)), [333, 334, 333], "the rows stay")
        XCTAssertEqual(recorder.reloads, 1)
    }

    func testATriggerDroppedIsPolledAndOneInstalledIsListenedTo() throws {
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage(pollInterval: .milliseconds(200))
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        try server.psql("DROP TRIGGER \(PostgresChangeLog.triggerName.quotedIdentifier) ON book")
        wait("polling") { storage.state == .polling }
        try server.psql("DELETE FROM book WHERE id = 3")
        wait("the delete, polled") { storage.numberOfItems(inSection: 0) == 332 }
        try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        wait("live again") { storage.state == .live }
        try server.psql("DELETE FROM book WHERE id = 6")
        wait("the delete, told") { storage.numberOfItems(inSection: 0) == 331 }
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
    }

    func testAPartitionedTableIsFollowedThroughItsPartitions() throws {
        try server.psql("""
            CREATE TABLE event (id bigint, kind text NOT NULL, PRIMARY KEY (id, kind)) PARTITION BY LIST (kind);
            CREATE TABLE event_a PARTITION OF event FOR VALUES IN ('a');
            CREATE TABLE event_b PARTITION OF event FOR VALUES IN ('b');
            INSERT INTO event VALUES (1, 'a'), (2, 'b');
            """ + PostgresChangeLog.installSQL(table: "event", key: "id").joined(separator: ";\n"))
        let (storage, recorder) = makeStorage(PostgresListQuery(table: "event", columns: ["kind"], sectionBy: "kind"))
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        XCTAssertEqual((0..<storage.numberOfSections()).map(storage.numberOfItems(inSection:)), [1, 1])
        // Written to a partition, told as the partitioned table's.
        try server.psql("INSERT INTO event VALUES (3, 'b')")
        wait("the new row") { storage.numberOfSections() == 2 && storage.numberOfItems(inSection: 1) == 2 }
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
    }

    /// Sections of a column of numbers go in the numbers' order, each with its own rows, with
    /// and without the trigger (the sections' counts once came in their text's order, 10,
    /// 100, 40, 5, while the keys came in the numbers', so that rows were shown under
    /// another section's header).
    func testSectionsOfNumbersGoInTheNumbersOrderWithTheirOwnRows() throws {
        try server.psql("""
            CREATE TABLE shelved (id bigint PRIMARY KEY, title text NOT NULL, shelf int);
            INSERT INTO shelved SELECT i, 'book ' || i, (ARRAY[5, 10, 40, 100])[i % 4 + 1] FROM generate_series(1, 400) i;
            UPDATE shelved SET shelf = 5 WHERE id <= 20;
            """)
        for trigger in [false, true] {
            if trigger { try server.psql(PostgresChangeLog.installSQL(table: "shelved", key: "id").joined(separator: ";\n")) }
            let (storage, recorder) = makeStorage(PostgresListQuery(table: "shelved", columns: ["title", "shelf"], sectionBy: "shelf"))
            wait("every key") { storage.isLoaded }
            XCTAssertEqual((0..<storage.numberOfSections()).map { storage.headerModel(forSection: $0) as? String }, ["5", "10", "40", "100"])
            XCTAssertEqual((0..<4).map(storage.numberOfItems(inSection:)), [115, 95, 95, 95], "trigger: \(trigger)")
            for section in 0..<4 {
                let last = IndexPath(item: storage.numberOfItems(inSection: section) - 1, section: section)
                _ = storage.item(at: last)
                wait("the last row of section \(section)") { storage.record(at: last) != nil }
                XCTAssertEqual(storage.record(at: last)?["shelf"], storage.headerModel(forSection: section) as? String, "trigger: \(trigger)")
            }
            XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
            storage.close()
        }
    }

    func testAMissingTableIsAClearError() throws {
        let (storage, recorder) = makeStorage(PostgresListQuery(table: "nothing"))
        wait("the error") { !recorder.errors.isEmpty }
        XCTAssertEqual(recorder.storageErrors.first, .unknownTable("relation \"nothing\" does not exist"))
        XCTAssertFalse(storage.isLoaded)
        XCTAssertEqual(storage.numberOfSections(), 0)
    }

    /// The index path the storage's search finds for `text`, waited for.
    private func search(_ storage: PostgresQueryStorage<PostgresRecord>, _ text: String, anywhere: Bool = false, from start: IndexPath?,
                        forward: Bool = true) -> IndexPath? {
        var answer: IndexPath??
        storage.searchItem(matching: text, anywhere: anywhere, from: start, forward: forward) { answer = .some($0) }
        wait("the search's answer") { answer != nil }
        return answer ?? nil
    }

    /// Type-ahead find on the server (`searchBy`): the rows whose title matches, with
    /// `ILIKE`, the first of them in the storage's order from where the search starts,
    /// round the end either way; the query's condition and its parameters hold; no page read.
    func testASearchFindsTheFirstMatchingRowInTheStoragesOrderOnTheServer() throws {
        try server.psql("INSERT INTO book SELECT i, 'book ' || lpad(i::text, 4, '0'), 'g' || (i % 3) FROM generate_series(1001, 3000) i")
        var query = query
        query.searchBy = "title"
        let (storage, recorder) = makeStorage(query)
        wait("every key") { storage.isLoaded }
        XCTAssertTrue(storage.searchesItems)
        let pagesRead = storage.pagesRead
        // g2 holds books 2, 5, … 2999 in title order: book 2999 is its 1,000th.
        XCTAssertEqual(search(storage, "BOOK 2999", from: IndexPath(item: 0, section: 0)), IndexPath(item: 999, section: 2),
                       "letters in either case; past the rows looked at first")
        XCTAssertEqual(search(storage, "book 2999", from: IndexPath(item: 0, section: 0), forward: false), IndexPath(item: 999, section: 2),
                       "backwards round the start")
        XCTAssertEqual(search(storage, "book 0", from: IndexPath(item: 5, section: 1)), IndexPath(item: 5, section: 1), "the row it starts from")
        XCTAssertEqual(search(storage, "0500", anywhere: true, from: nil), IndexPath(item: 166, section: 2), "contains")
        XCTAssertNil(search(storage, "book_0500", from: nil), "no wildcard")
        XCTAssertNil(search(storage, "zzz", from: nil))
        XCTAssertEqual(storage.pagesRead, pagesRead, "no page read")

        query.filter = "id > $1::int8"
        query.arguments = ["2000"]
        storage.setQuery(query)
        wait("the query's rows") { storage.numberOfItems(inSection: 1) == 333 }
        XCTAssertNil(search(storage, "book 0500", from: nil), "not a row of the query")
        XCTAssertEqual(search(storage, "book 2500", from: nil), IndexPath(item: 166, section: 1))
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.errors)")
    }
}
