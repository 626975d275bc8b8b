import Foundation
@testable import PostgresStorage
import PostgresTestSupport
import XCTest

/// The condition that places a row among others as the server's `ORDER BY` does, checked
/// against the server's own order: NULLs, ties broken by the key, both directions,
/// sections, text in the database's collation.
final class PostgresOrderTests: PostgresServerTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        // 300 items, with NULLs and many ties in every column but the key.
        try server.psql("""
            CREATE TABLE item (id bigint PRIMARY KEY, title text, rank integer, genre text);
            SELECT setseed(0.35);
            INSERT INTO item SELECT i,
                CASE WHEN random() < 0.15 THEN NULL ELSE (ARRAY['a', 'B', 'b', 'é', 'e', 'Z'])[1 + floor(random() * 6)::int] || floor(random() * 3)::int END,
                CASE WHEN random() < 0.2 THEN NULL ELSE floor(random() * 4)::int END,
                CASE WHEN random() < 0.2 THEN NULL ELSE (ARRAY['x', 'y'])[1 + floor(random() * 2)::int] END
            FROM generate_series(1, 300) i;
            """)
    }

    func testEachRowHasBeforeItTheRowsTheServersOrderPutsThere() throws {
        let queries = [
            PostgresListQuery(table: "item", orderBy: [.init("title")]),
            PostgresListQuery(table: "item", orderBy: [.init("title", ascending: false)]),
            PostgresListQuery(table: "item", orderBy: [.init("rank", ascending: false), .init("title")]),
            PostgresListQuery(table: "item", orderBy: [.init("rank"), .init("title", ascending: false)], sectionBy: "genre"),
            PostgresListQuery(table: "item", sectionBy: "genre"),
        ]
        for query in queries {
            let ordered = try server.psql(query.keysQuery.text).split(separator: "\n").map { Int64($0)! }
            XCTAssertEqual(ordered.count, 300)
            let before = query.comesBefore(row: { "r." + $0.quotedIdentifier }, bound: query.orderTerms.map { "t." + $0.column.quotedIdentifier })
            let counts = try server.psql("SELECT t.id || ' ' || (SELECT count(*) FROM item r WHERE \(before)) FROM item t")
            var rowsBefore: [Int64: Int] = [:]
            for line in counts.split(separator: "\n") {
                let parts = line.split(separator: " ")
                rowsBefore[Int64(parts[0])!] = Int(parts[1])!
            }
            for (position, key) in ordered.enumerated() {
                XCTAssertEqual(rowsBefore[key], position, "row \(key) in \(query.keysQuery.text)")
            }
        }
    }
}
