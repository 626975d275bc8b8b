import Foundation
@testable import PostgresStorage
import PostgresNIO
import ModelStorage
import PostgresTestSupport
import TestSupport
import XCTest

/// The server's placing of changed rows among a storage's runs, checked against the rows'
/// order before and after random changes: rows that moved inside and across sections, to
/// and from NULL, out of and into the query's condition, deleted, inserted, and into a
/// section the runs did not have.
final class PostgresPlacementTests: PostgresServerTestCase {
    /// A row of the query, in order: its key and its whole order's value as text.
    private struct Row {
        let key: Int64
        let value: [String?]
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try server.psql("""
            CREATE TABLE item (id bigint PRIMARY KEY, title text, genre text, stock integer NOT NULL);
            SELECT setseed(0.7);
            INSERT INTO item SELECT i,
                CASE WHEN random() < 0.1 THEN NULL ELSE (ARRAY['a', 'B', 'b', 'é', 'z'])[1 + floor(random() * 5)::int] || floor(random() * 4)::int END,
                CASE WHEN random() < 0.15 THEN NULL ELSE (ARRAY['x', 'y', 'v'])[1 + floor(random() * 3)::int] END,
                floor(random() * 10)::int
            FROM generate_series(1, 400) i;
            """)
    }

    /// The query's rows now, in order.
    private func rows(of query: PostgresListQuery) throws -> [Row] {
        let values = query.orderTerms.map { "coalesce(quote_literal(\($0.column.quotedIdentifier)::text), 'NULL')" }.joined(separator: " || '|' || ")
        let filter = query.filter.map { " WHERE " + $0.replacingOccurrences(of: "$1", with: "'\(query.arguments[0])'") } ?? ""
        let order = query.orderTerms.map(\.sql).joined(separator: ", ")
        return try server.psql("SELECT id || '|' || \(values) FROM item\(filter) ORDER BY \(order)").split(separator: "\n").map { line in
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return Row(key: Int64(parts[0])!, value: parts.dropFirst().map { $0 == "NULL" ? nil : String($0.dropFirst().dropLast()) })
        }
    }

    func testChangedRowsArePlacedWhereTheServersOrderPutsThem() throws {
        let queries = [
            PostgresListQuery(table: "item", orderBy: [.init("title")], sectionBy: "genre"),
            PostgresListQuery(table: "item", filter: "stock > $1::integer", arguments: ["3"], orderBy: [.init("title", ascending: false)]),
            PostgresListQuery(table: "item", orderBy: [.init("stock", ascending: false), .init("title")], sectionBy: "genre"),
            // NOT NULL columns all one way: counted over ranges, in NULL and other sections.
            PostgresListQuery(table: "item", orderBy: [.init("stock")], sectionBy: "genre"),
            PostgresListQuery(table: "item", filter: "stock <> $1::integer", arguments: ["4"], orderBy: [.init("stock", ascending: false)]),
        ]
        var random = SeededGenerator(seed: 35)
        for (round, query) in queries.enumerated() {
            // Runs of seven rows, each section's first starting at its first row.
            let old = try rows(of: query)
            let sectioned = query.sectionBy != nil
            var bounds: [[String?]] = []
            var runOfKey: [Int64: Int] = [:]
            var inRun = 0
            for (position, row) in old.enumerated() {
                let newSection = position == 0 || (sectioned && old[position - 1].value[0] != row.value[0])
                if newSection || inRun == 7 {
                    bounds.append(row.value)
                    inRun = 0
                }
                runOfKey[row.key] = bounds.count - 1
                inRun += 1
            }
            let types = try query.orderTerms.map { term in
                try server.psql("SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'item'::regclass AND attname = '\(term.column)'")
            }

            // Forty changes: titles, genres (one new), stock (in and out of the condition),
            // deletes, inserts; the rows as they were, as the change log has them.
            // And two rows new at the head of their sections in every order: before the first
            // bound of their section's first run.
            let changed = Array(Set((0..<40).map { _ in Int64.random(in: 1...420, using: &random) })).sorted() + [450, 451]
            let oldRows = try changed.map { key -> String? in
                let row = try server.psql("SELECT to_jsonb(item) FROM item WHERE id = \(key)")
                return row.isEmpty ? nil : row
            }
            let again = "ON CONFLICT (id) DO UPDATE SET title = excluded.title, genre = excluded.genre, stock = excluded.stock"
            var statements = ["INSERT INTO item VALUES (450, '00', 'x', 9) \(again)", "INSERT INTO item VALUES (451, NULL, 'y', 9) \(again)"]
            for key in changed where key < 450 {
                switch Int.random(in: 0..<6, using: &random) {
                case 0: statements.append("UPDATE item SET title = \(["NULL", "'a0'", "'é9'", "'B2'", "'00'"].randomElement(using: &random)!) WHERE id = \(key)")
                case 1: statements.append("UPDATE item SET genre = \(["NULL", "'x'", "'y'", "'w'"].randomElement(using: &random)!) WHERE id = \(key)")
                case 2: statements.append("UPDATE item SET stock = \(Int.random(in: 0..<10, using: &random)) WHERE id = \(key)")
                case 3: statements.append("DELETE FROM item WHERE id = \(key)")
                default:
                    statements.append("INSERT INTO item VALUES (\(key), 'b1', 'v', 5) ON CONFLICT (id) DO UPDATE SET title = 'z0', genre = NULL")
                }
            }
            try server.psql(statements.joined(separator: ";\n"))

            // Where the rows are now, and where each bound falls among them.
            let new = try rows(of: query)
            let positionOfKey = Dictionary(uniqueKeysWithValues: new.enumerated().map { (position, row) in (row.key, position) })
            let boundTypes = types
            let boundPositions = try bounds.map { bound -> Int in
                let values = zip(bound, boundTypes).map { value, type in value.map { "'\($0.replacingOccurrences(of: "'", with: "''"))'::\(type)" } ?? "NULL::\(type)" }
                let condition = query.comesBefore(row: { "r." + $0.quotedIdentifier }, bound: values)
                let filter = query.filter.map { " AND " + $0.replacingOccurrences(of: "$1", with: "'\(query.arguments[0])'") } ?? ""
                return Int(try server.psql("SELECT count(*) FROM item r WHERE \(condition)\(filter)"))!
            }
            let sectionOfRun = bounds.map { sectioned ? $0[0] : nil }
            let firstRunOfSection = bounds.indices.map { $0 == 0 || sectionOfRun[$0 - 1] != sectionOfRun[$0] || !sectioned && $0 == 0 }

            let notNull = try query.orderTerms.map { term in
                try server.psql("SELECT attnotnull FROM pg_attribute WHERE attrelid = 'item'::regclass AND attname = '\(term.column)'") == "t"
            }
            let placement = PostgresPlacement(query: query, types: types, notNull: notNull)
            let address = server.address()
            let environment = ownerEnvironment
            let (keys, rowsBefore, runBounds) = (changed, oldRows, bounds)
            let places = try blocking {
                let connection = try await address.connect(environment: environment)
                defer { Task { try? await connection.close() } }
                do {
                    return try await placement.places(bounds: runBounds, keys: keys, oldRows: rowsBefore, on: connection)
                } catch {
                    throw PostgresTestServer.ServerError(description: String(reflecting: error))
                }
            }
            XCTAssertEqual(places.map { $0.key }.sorted(), changed, "round \(round)")
            var kept = 0
            defer { XCTAssertGreaterThan(kept, 0, "round \(round): rows whose order's value did not change") }
            for place in places {
                XCTAssertEqual(place.oldRun, runOfKey[place.key], "round \(round), key \(place.key): the run it was in")
                guard let position = positionOfKey[place.key] else {
                    XCTAssertNil(place.value, "round \(round), key \(place.key): not a row now")
                    XCTAssertNil(place.newRun)
                    continue
                }
                XCTAssertEqual(place.value, new[position].value, "round \(round), key \(place.key)")
                let section = sectioned ? new[position].value[0] : nil
                let runs = bounds.indices.filter { sectionOfRun[$0] == section }
                guard let first = runs.first else {
                    XCTAssertNil(place.newRun, "round \(round), key \(place.key): a section the runs do not have")
                    continue
                }
                let run = runs.last { boundPositions[$0] <= position } ?? first
                let start = firstRunOfSection[run] ? new.firstIndex { !sectioned || $0.value[0] == section }! : boundPositions[run]
                XCTAssertEqual(place.newRun, run, "round \(round), key \(place.key): its run now")
                let wasValue = old.first { $0.key == place.key }?.value
                XCTAssertEqual(place.kept, wasValue == new[position].value, "round \(round), key \(place.key): kept when its order's value is")
                XCTAssertEqual(place.newOffset, place.kept ? nil : position - start, "round \(round), key \(place.key): its offset")
                kept += place.kept ? 1 : 0
            }
        }
    }

    /// The keys of `runs`, in order.
    private func keys(of runs: PostgresRuns) -> [Int64] {
        (0..<runs.rowCount).compactMap(runs.key(at:))
    }

    func testRunsReadFromTheServerAndChangedByPlacesAreTheQuerysRowsAfterEachBatch() throws {
        let query = PostgresListQuery(table: "item", orderBy: [.init("stock", ascending: false), .init("title")], sectionBy: "genre")
        let address = server.address()
        let environment = ownerEnvironment
        let connection = try blocking { try await address.connect(environment: environment) }
        defer { _ = try? blocking { try await connection.close() } }
        let placement = try blocking { try await PostgresPlacement.read(query, on: connection) }
        XCTAssertEqual(placement.types, ["text", "integer", "text", "bigint"])
        XCTAssertEqual(placement.notNull, [false, true, false, true])
        var runs = try blocking { try await PostgresRuns.read(query, runSize: 7, on: connection) }
        let rows = try rows(of: query)
        XCTAssertEqual(keys(of: runs), rows.map(\.key), "every key, in order")
        XCTAssertTrue(runs.runs.allSatisfy { $0.count <= 7 })
        for run in runs.runs.indices {
            XCTAssertEqual(runs.runs[run].bound, rows[runs.start(ofRun: run)].value, "a run starts at its first row")
        }
        XCTAssertEqual(runs.sectionValues, ["v", "x", "y", nil])

        var random = SeededGenerator(seed: 350)
        var applied = 0
        for batch in 0..<8 {
            let changed = Array(Set((0..<25).map { _ in Int64.random(in: 1...430, using: &random) })).sorted()
            let oldRows = try changed.map { key -> String? in
                let row = try server.psql("SELECT to_jsonb(item) FROM item WHERE id = \(key)")
                return row.isEmpty ? nil : row
            }
            let statements = changed.map { key in
                switch Int.random(in: 0..<5, using: &random) {
                case 0: "UPDATE item SET title = \(["NULL", "'a0'", "'00'", "'B2'"].randomElement(using: &random)!) WHERE id = \(key)"
                case 1: "UPDATE item SET genre = \(["NULL", "'x'", "'y'"].randomElement(using: &random)!), stock = 9 WHERE id = \(key)"
                case 2 where key % 2 == 0: "UPDATE item SET stock = stock WHERE id = \(key)"
                case 2: "DELETE FROM item WHERE id = \(key)"
                default: "INSERT INTO item VALUES (\(key), 'b1', 'v', \(Int.random(in: 0..<10, using: &random))) ON CONFLICT (id) DO UPDATE SET stock = 0"
                }
            }
            try server.psql(statements.joined(separator: ";\n"))
            let bounds = runs.runs.map(\.bound)
            let places = try blocking { try await placement.places(bounds: bounds, keys: changed, oldRows: oldRows, on: connection) }
            let shown = (0..<runs.sectionCount).map { section in
                (0..<runs.count(inSection: section)).map { runs.key(at: runs.start(ofSection: section) + $0) }
            }
            if let update = runs.apply(places.map(\.runPlace))?.update {
                applied += 1
                // The update, replayed on the rows shown, leaves each row it did not insert
                // where the runs have it now.
                let replayed = update.replayed(on: shown)
                XCTAssertEqual(replayed.count, runs.sectionCount, "batch \(batch)")
                XCTAssertEqual(replayed.map(\.count), (0..<runs.sectionCount).map(runs.count(inSection:)), "batch \(batch)")
                let flat = Array(replayed.joined())
                XCTAssertTrue(zip(flat, keys(of: runs)).allSatisfy { $0 == nil || $0 == $1 }, "batch \(batch): \(update.changes)")
                XCTAssertLessThanOrEqual(flat.filter { $0 == nil }.count, changed.count, "only changed rows inserted")
            } else {
                runs = try blocking { try await PostgresRuns.read(query, runSize: 7, on: connection) }
            }
            let now = try self.rows(of: query)
            XCTAssertEqual(keys(of: runs), now.map(\.key), "batch \(batch): the runs are the rows now")
            let sections = Dictionary(grouping: now, by: { $0.value[0] }).mapValues(\.count)
            XCTAssertEqual((0..<runs.sectionCount).map(runs.count(inSection:)), runs.sectionValues.map { sections[$0] ?? 0 })
        }
        XCTAssertEqual(applied, 8, "every batch applied: no section came or went")
    }
}
