import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport
import TestSupport
import XCTest

/// Writes the change log does not record (`session_replication_role = replica` turns
/// triggers off, as logical replication's apply and `pg_restore --disable-triggers` do):
/// the drift check, one run at a time, finds them and the storage is read again, equal to
/// the table; writes the log records are never taken for drift.
final class PostgresDriftTests: PostgresServerTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        // 20,000 books in three genres (runs of 4,096 rows: two per genre), and one of none.
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL, genre text);
            INSERT INTO book SELECT i, 'book ' || lpad(i::text, 6, '0'), 'g' || (i % 3) FROM generate_series(1, 20000) i;
            INSERT INTO book VALUES (20001, 'no genre', NULL);
            """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
    }

    private func makeStorage() -> (PostgresQueryStorage<PostgresRecord>, UpdateRecorder) {
        let storage = PostgresQueryStorage<PostgresRecord>(
            address: server.address(), query: PostgresListQuery(table: "book", columns: ["title", "genre"], orderBy: [.init("title")], sectionBy: "genre"),
            pageSize: 50, environment: ownerEnvironment, driftCheckInterval: .milliseconds(20))
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        storage.onError = { recorder.errors.append($0) }
        return (storage, recorder)
    }

    /// The table's sections (by genre, NULL last) and their keys, in the list's order.
    private func table() throws -> [[Int64]] {
        var sections: [[Int64]] = []
        var last: Substring?
        for row in try server.psql("SELECT coalesce(genre, '-') || ' ' || id FROM book ORDER BY genre NULLS LAST, title, id").split(separator: "\n") {
            let parts = row.split(separator: " ")
            guard parts.count == 2, let key = Int64(parts[1]) else { continue }
            if sections.isEmpty || parts[0] != last { sections.append([]) }
            last = parts[0]
            sections[sections.count - 1].append(key)
        }
        return sections
    }

    private func keys(of storage: PostgresQueryStorage<PostgresRecord>) -> [[Int64]] {
        (0..<storage.numberOfSections()).map { section in
            (0..<storage.numberOfItems(inSection: section)).compactMap { storage.key(at: IndexPath(item: $0, section: section)) }
        }
    }

    /// Writes made with the triggers off, each in a place a run check must find: a row
    /// moved within its run and to another, deleted, inserted, and in sections the storage
    /// does not have (between two, after the last named one, before the first), and in the
    /// NULL section. Checks of the last named section's last run, before the NULL section,
    /// find no drift there is not.
    func testUnloggedWritesAreFoundByTheDriftCheckAndRepaired() throws {
        let (storage, recorder) = makeStorage()
        wait("the first read, live") { storage.isLoaded && storage.state == .live }
        _ = storage.item(at: IndexPath(item: 0, section: 0))
        wait("the first page") { storage.pagesKept == 1 }

        // Logged commits, and twice round the runs: no drift.
        try server.psql("UPDATE book SET title = 'book 000000 (logged)' WHERE id = 3; DELETE FROM book WHERE id = 5")
        var expected = try table()
        wait("the logged commit") { keys(of: storage) == expected }
        RunLoop.main.run(until: Date().addingTimeInterval(0.5))
        XCTAssertEqual(storage.driftsRepaired, 0, "logged writes are no drift")
        XCTAssertEqual(storage.keyReadCount, 1)

        let unlogged: [(String, String)] = [
            ("within a run", "UPDATE book SET title = 'book 000010 (moved)' WHERE id = 30"),
            ("to another run", "UPDATE book SET title = 'book 019990 (moved)' WHERE id = 33"),
            ("a delete", "DELETE FROM book WHERE id = 12345"),
            ("an insert", "INSERT INTO book VALUES (30001, 'book 010000 (new)', 'g1')"),
            ("a section between two", "INSERT INTO book VALUES (30002, 'between', 'g15')"),
            ("a section after the last named one, before NULL", "INSERT INTO book VALUES (30003, 'after', 'g9')"),
            ("a row in the NULL section", "INSERT INTO book VALUES (30004, 'none', NULL)"),
            ("a section before the first", "INSERT INTO book VALUES (30005, 'before', 'a')"),
        ]
        for (number, (what, sql)) in unlogged.enumerated() {
            let repaired = storage.driftsRepaired
            try server.psql("SET session_replication_role = replica; \(sql)")
            expected = try table()
            wait("\(what), found and repaired", seconds: 20) { keys(of: storage) == expected }
            XCTAssertGreaterThan(storage.driftsRepaired, repaired, what)
            XCTAssertEqual(storage.keyReadCount, 2 + number, "\(what): one read of every key")
        }
        XCTAssertEqual(storage.record(at: IndexPath(item: 0, section: 1))?["title"], "book 000000 (logged)", "g0, after the section made before it")
        XCTAssertEqual(storage.state, .live)
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
    }
}
