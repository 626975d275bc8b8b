import Foundation
import PostgresNIO

/// Where the rows a batch of commits changed were, and are, among a storage's runs
/// (`KeyRuns`), found by the server in one statement: the storage sends its runs' bounds
/// and the changed keys with their rows as they were (from the change log), and learns,
/// for each key, the run it was in, the run it is in now and its offset there, without a
/// read of every key.
///
/// A run's bound is a value of the query's whole order (`orderTerms`, as text); the runs
/// are in order, each section's first (its rows before its first bound are its first run's
/// too). The server compares values with each column's type, collation and NULL order, as
/// its `ORDER BY` does.
struct PostgresPlacement: Sendable {
    /// A changed key's places.
    struct Place: Sendable, Equatable {
        let key: Int64
        /// The run the row was in (before the batch), or nil when it was not a row of the
        /// query (new, or not matching its condition then).
        let oldRun: Int?
        /// The run it is in now and the number of the query's rows now before it there, or
        /// nil when it is not a row of the query now.
        let newRun: Int?
        let newOffset: Int?
        /// Its value of the query's whole order now (as text), for a run or a section it
        /// starts: nil when it is not a row of the query now.
        let value: [String?]?
    }

    let query: PostgresListQuery
    /// The type of each term's column (`format_type`), for the bounds sent as text.
    let types: [String]

    /// The statement placing `keys`, whose rows were `oldRows` (the log's `jsonb`; nil for a
    /// key that was not a row of the table then), among runs starting at `bounds` (one value
    /// per term each, in the runs' order).
    func statement(bounds: [[String?]], keys: [Int64], oldRows: [String?]) -> PostgresQuery {
        let terms = query.orderTerms
        precondition(types.count == terms.count && bounds.allSatisfy { $0.count == terms.count }, "a type and a bound value per term")
        let table = query.table.quotedIdentifier
        let filter = query.filter.map { "(\($0))" } ?? "true"
        var bindings = query.bindings
        func parameter(_ value: String) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }
        // Both as JSON: PostgresNIO's arrays take no NULL.
        let changedParameter = parameter("[" + zip(keys, oldRows).map { "{\"k\":\($0),\"o\":\($1 ?? "null")}" }.joined(separator: ",") + "]")
        let boundsParameter = parameter(String(decoding: (try? JSONEncoder().encode(bounds)) ?? Data("[]".utf8), as: UTF8.self))
        let typed = terms.indices.map { "(lvm_b ->> \($0))::\(types[$0]) AS lvm_t\($0)" }.joined(separator: ", ")
        let boundValues = terms.indices.map { "lvm_bound.lvm_t\($0)" }
        func value(of alias: String) -> [String] { terms.map { "\(alias).\($0.column.quotedIdentifier)" } }
        // The run of the row `alias`: the last whose bound is not after it, in its section
        // (its section's first run when it comes before every bound of its section).
        func run(of alias: String) -> String {
            let notAfter = "NOT \(query.comesBefore(row: { "\(alias).\($0.quotedIdentifier)" }, bound: boundValues))"
            guard let section = query.sectionBy?.quotedIdentifier else {
                return "coalesce((SELECT max(lvm_run) FROM lvm_bound WHERE \(notAfter)), 0)"
            }
            let sameSection = "lvm_bound.lvm_t0 IS NOT DISTINCT FROM \(alias).\(section)"
            return "coalesce((SELECT max(lvm_run) FROM lvm_bound WHERE \(sameSection) AND \(notAfter)), (SELECT min(lvm_run) FROM lvm_bound WHERE \(sameSection)))"
        }
        // The rows now in the row `lvm_now`'s run (`lvm_bound`) before it.
        let offset: String = {
            let row: (String) -> String = { "lvm_row.\($0.quotedIdentifier)" }
            let before = query.comesBefore(row: row, bound: value(of: "lvm_now"))
            let beforeBound = query.comesBefore(row: row, bound: boundValues)
            let section = query.sectionBy.map { "lvm_row.\($0.quotedIdentifier) IS NOT DISTINCT FROM lvm_now.\($0.quotedIdentifier) AND " } ?? ""
            return """
                (SELECT count(*) FROM (SELECT * FROM \(table) WHERE \(filter)) AS lvm_row, lvm_bound,
                     (SELECT * FROM \(table) WHERE \(query.key.quotedIdentifier) = lvm_placed.lvm_key) AS lvm_now
                 WHERE lvm_bound.lvm_run = lvm_placed.lvm_new_run AND \(section)\(before)
                 AND (lvm_bound.lvm_first_of_section OR NOT \(beforeBound)))
                """
        }()
        let firstOfSection = query.sectionBy == nil ? "lvm_run = 0" : "lvm_run = min(lvm_run) OVER (PARTITION BY lvm_t0)"
        let text = """
            WITH lvm_bound AS (
                SELECT *, \(firstOfSection) AS lvm_first_of_section FROM (
                    SELECT lvm_ordinal::int - 1 AS lvm_run, \(typed)
                    FROM jsonb_array_elements(\(boundsParameter)::jsonb) WITH ORDINALITY AS lvm_bounds(lvm_b, lvm_ordinal)
                ) AS lvm_typed
            ),
            lvm_changed AS (
                SELECT (lvm_c ->> 'k')::int8 AS lvm_key, nullif(lvm_c -> 'o', 'null'::jsonb) AS lvm_old
                FROM jsonb_array_elements(\(changedParameter)::jsonb) AS lvm_c
            ),
            lvm_placed AS (
                SELECT lvm_changed.lvm_key,
                       (SELECT \(run(of: "lvm_was")) FROM jsonb_populate_record(NULL::\(table), lvm_changed.lvm_old) AS lvm_was
                        WHERE lvm_changed.lvm_old IS NOT NULL AND (SELECT \(filter) FROM (SELECT lvm_was.*) AS \(table))) AS lvm_old_run,
                       lvm_now_row.lvm_new_run, lvm_now_row.lvm_value
                FROM lvm_changed LEFT JOIN LATERAL (
                    SELECT \(run(of: "lvm_now")) AS lvm_new_run,
                           to_jsonb(ARRAY[\(value(of: "lvm_now").map { "\($0)::text" }.joined(separator: ", "))])::text AS lvm_value
                    FROM (SELECT * FROM \(table) WHERE \(filter)) AS lvm_now
                    WHERE lvm_now.\(query.key.quotedIdentifier) = lvm_changed.lvm_key
                ) AS lvm_now_row ON true
            )
            SELECT lvm_placed.lvm_key, lvm_placed.lvm_old_run, lvm_placed.lvm_new_run,
                   CASE WHEN lvm_placed.lvm_new_run IS NULL THEN NULL ELSE \(offset) END,
                   lvm_placed.lvm_value
            FROM lvm_placed
            """
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }

    /// The placement of `query`'s rows, with its order's types read through `connection`.
    static func read(_ query: PostgresListQuery, on connection: PostgresConnection) async throws -> PostgresPlacement {
        var types: [String] = []
        for row in try await connection.send(query.orderTypesQuery.query) { types.append(try row.decode(String.self)) }
        guard types.count == query.orderTerms.count else {
            throw PostgresStorageError.unknownColumn(tr("table %@ has no column of the order %@", query.table, query.orderTerms.map(\.column).joined(separator: ", ")))
        }
        return PostgresPlacement(query: query, types: types)
    }

    /// Runs `statement(bounds:keys:oldRows:)` on `connection` (in the transaction whose
    /// snapshot the places are to be of).
    func places(bounds: [[String?]], keys: [Int64], oldRows: [String?], on connection: PostgresConnection) async throws -> [Place] {
        var places: [Place] = []
        let rows = try await connection.query(statement(bounds: bounds, keys: keys, oldRows: oldRows), logger: .silent)
        for try await (key, oldRun, newRun, newOffset, value) in rows.decode((Int64, Int?, Int?, Int?, String?).self) {
            let decoded = try value.map { try JSONDecoder().decode([String?].self, from: Data($0.utf8)) }
            places.append(Place(key: key, oldRun: oldRun, newRun: newRun, newOffset: newOffset, value: decoded))
        }
        return places
    }
}
