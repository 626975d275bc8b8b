import Foundation
import ModelStorage
import PostgresNIO
@testable import PostgresStorage
import PostgresTestSupport
import TestSupport
import XCTest

/// A table of over a million rows shows its first rows with the sections' counts the
/// server's statistics estimate (no count of every row first), corrected in place when every
/// key is read.
final class PostgresEstimatedCountsTests: PostgresServerTestCase {
    /// 1,200,000 books in g0, g1, g2 (by id % 3), on shelves 5, 10, 40 and 100 (by id % 4),
    /// analyzed; then, unknown to the statistics (autovacuum off for the table), 60,000 more
    /// in g1, g2's books past 600,000 gone, 10 in g9, and every 1,000th book on no shelf. The
    /// rows: g0 400,000, g1 460,000, g2 200,000, g9 10.
    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL, genre text, shelf int) WITH (autovacuum_enabled = false);
            INSERT INTO book SELECT i, 'book ' || i, 'g' || (i % 3), (ARRAY[5, 10, 40, 100])[i % 4 + 1] FROM generate_series(1, 1200000) i;
            ANALYZE book;
            INSERT INTO book SELECT i, 'book ' || i, 'g1', 5 FROM generate_series(2000001, 2060000) i;
            DELETE FROM book WHERE genre = 'g2' AND id > 600000;
            INSERT INTO book SELECT i, 'book ' || i, 'g9', 5 FROM generate_series(3000001, 3000010) i;
            UPDATE book SET shelf = NULL WHERE id % 1000 = 0;
            """)
    }

    private let exact = [400_000, 460_000, 200_000, 10]

    func testTheFirstRowsComeWithEstimatedCountsWhichEveryKeyCorrectsInPlace() throws {
        for trigger in [false, true] {
            if trigger { try server.psql(PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n")) }
            // Another query each time: a storage of the query the last one showed could join
            // its feed while it ends, and be given its rows as they are (no first rows).
            let query = PostgresListQuery(table: "book", columns: trigger ? ["title", "genre"] : ["title"], sectionBy: "genre")
            let storage = PostgresQueryStorage<PostgresRecord>(address: server.address(), query: query, pageSize: 50, environment: ownerEnvironment)
            let recorder = UpdateRecorder()
            storage.delegate = recorder
            storage.onError = { recorder.errors.append($0) }
            var atFirstReload: (loaded: Bool, counts: [Int], bound: PagedRow<PostgresRecord>?)?
            let unkeyed = IndexPath(item: 1000, section: 1)
            recorder.onReload = {
                atFirstReload = atFirstReload ?? (storage.isLoaded, (0..<storage.numberOfSections()).map(storage.numberOfItems(inSection:)),
                                                  storage.item(at: unkeyed) as? PagedRow<PostgresRecord>)
            }
            wait("every key", seconds: 180) { storage.isLoaded }
            let first = try XCTUnwrap(atFirstReload, "trigger: \(trigger)")
            XCTAssertFalse(first.loaded, "trigger: \(trigger)")
            // The statistics' three sections of about 400,000 rows (from a sample of the rows).
            XCTAssertEqual(first.counts.count, 3, "trigger: \(trigger)")
            for count in first.counts { XCTAssertEqual(Double(count), 400_000, accuracy: 40_000, "trigger: \(trigger)") }
            XCTAssertNil(first.bound?.id, "g1's 1,001st row has no key yet")

            // Every key: the counts as they are, by an update at the sections' ends, not a reload.
            XCTAssertEqual(recorder.reloads, 1, "trigger: \(trigger)")
            XCTAssertEqual((0..<storage.numberOfSections()).map(storage.numberOfItems(inSection:)), exact, "trigger: \(trigger)")
            XCTAssertEqual((0..<4).map { storage.headerModel(forSection: $0) as? String }, ["g0", "g1", "g2", "g9"])
            let correction = try XCTUnwrap(recorder.updates.first { !$0.isEmpty }, "trigger: \(trigger)")
            XCTAssertTrue(correction.changes.contains(.insertSection(3)), "g9, which the statistics missed: \(correction)")
            XCTAssertTrue(correction.changes.contains(.deleteItems(section: 2, items: 200_000..<first.counts[2])), "\(correction)")
            // The row given out with no key takes its key (g1's 1,001st: 1 + 3 × 1,000) and record in place.
            wait("its record") { recorder.updates.contains { ($0.updatedObjects[unkeyed] as? PagedRow<PostgresRecord>)?.record != nil } }
            let row = recorder.updates.compactMap { $0.updatedObjects[unkeyed] as? PagedRow<PostgresRecord> }.last
            XCTAssertEqual(row?.id, 3001)
            XCTAssertEqual(row?.record?["title"], "book 3001")
            XCTAssertEqual(recorder.reloads, 1)
            XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
            storage.close()
        }
    }

    /// Sections of integers are estimated in the integers' order (not their text's), and a
    /// section of NULL the statistics missed comes last, with no header (as a reload shows it).
    func testIntegerSectionsAreEstimatedInTheirOrderAndANullSectionComesWithoutAHeader() throws {
        let storage = PostgresQueryStorage<PostgresRecord>(address: server.address(), query: PostgresListQuery(table: "book", sectionBy: "shelf"),
                                                           pageSize: 50, environment: ownerEnvironment)
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        storage.onError = { recorder.errors.append($0) }
        var firstHeaders: [String?]?
        recorder.onReload = { firstHeaders = firstHeaders ?? (0..<storage.numberOfSections()).map { storage.headerModel(forSection: $0) as? String } }
        wait("every key", seconds: 180) { storage.isLoaded }
        XCTAssertEqual(firstHeaders, ["5", "10", "40", "100"], "estimated, in the integers' order")
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertEqual(storage.numberOfSections(), 5)
        XCTAssertNil(storage.headerModel(forSection: 4), "the books on no shelf")
        let exact = try server.psql("SELECT count(*) FROM book GROUP BY shelf ORDER BY shelf NULLS LAST")
            .split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        XCTAssertEqual((0..<5).map(storage.numberOfItems(inSection:)), exact)
        let correction = try XCTUnwrap(recorder.updates.first { !$0.isEmpty })
        XCTAssertTrue(correction.changes.contains(.insertSection(4)))
        XCTAssertFalse(correction.changes.contains { if case .supplementary = $0 { true } else { false } }, "no header for NULL: \(correction)")
        XCTAssertTrue(recorder.errors.isEmpty, "\(recorder.storageErrors)")
        storage.close()
    }

    /// A query with a condition is counted: the statistics do not count its rows.
    func testAQueryWithAConditionIsCounted() throws {
        let storage = PostgresQueryStorage<PostgresRecord>(address: server.address(),
                                                           query: PostgresListQuery(table: "book", filter: "id <= 900000", sectionBy: "genre"),
                                                           pageSize: 50, environment: ownerEnvironment)
        let recorder = UpdateRecorder()
        storage.delegate = recorder
        var counts: [Int] = []
        recorder.onReload = { counts = counts.isEmpty ? (0..<storage.numberOfSections()).map(storage.numberOfItems(inSection:)) : counts }
        wait("every key", seconds: 180) { storage.isLoaded }
        XCTAssertEqual(counts, [300_000, 300_000, 200_000], "exact from the first rows on")
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertTrue(recorder.updates.allSatisfy(\.isEmpty))
        storage.close()
    }
}
