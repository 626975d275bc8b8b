import Foundation
import ModelStorage
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
        /// nil when it is not a row of the query now. The offset is not counted (nil) for a
        /// row that kept its place (`kept`).
        let newRun: Int?
        let newOffset: Int?
        /// Whether the row was and is a row of the query with the same value of its order:
        /// it is where it was among the rows (its content alone may have changed), in the
        /// same run.
        let kept: Bool
        /// Its value of the query's whole order now (as text), for a run or a section it
        /// starts: nil when it is not a row of the query now.
        let value: [String?]?

        /// Its places, as the runs take them.
        var runPlace: RunPlace {
            RunPlace(key: key, oldRun: oldRun, newRun: newRun, newOffset: newOffset, kept: kept, isRow: value != nil)
        }
    }

    let query: PostgresListQuery
    /// The type of each term's column (`format_type`), for the bounds sent as text.
    let types: [String]
    /// Whether each term's column is `NOT NULL`: when every one is, and the terms after the
    /// section's go one way, the rows of a run are counted over an index's range.
    let notNull: [Bool]

    /// The statement placing `keys`, whose rows were `oldRows` (the log's `jsonb`; nil for a
    /// key that was not a row of the table then), among runs starting at `bounds` (one value
    /// per term each, in the runs' order).
    ///
    /// Its cost is the batch's, not the table's: the bounds and the changed rows (as they
    /// were and as they are) are sorted together once, each row's run being the last bound
    /// before it, whose values a second window carries to the row (a join of the rows with
    /// the bounds would cost the batch times the runs: a second a commit at 1,000,000 rows
    /// under pgbench's load); then each row's offset is a count of the rows between its
    /// run's bound and it, at most a run's rows, unless the row kept its order's value (an
    /// update of other columns, the commonest change), which needs no count.
    func statement(bounds: [[String?]], keys: [Int64], oldRows: [String?]) -> PostgresQuery {
        let terms = query.orderTerms
        precondition(types.count == terms.count && notNull.count == terms.count && bounds.allSatisfy { $0.count == terms.count },
                     "a type, a NOT NULL and a bound value per term")
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
        let point = terms.indices.map { "lvm_t\($0)" }
        func columns(of alias: String) -> String {
            zip(terms, point).map { "\(alias).\($0.column.quotedIdentifier) AS \($1)" }.joined(separator: ", ")
        }
        let partition = query.sectionBy == nil ? "" : "PARTITION BY lvm_t0 "
        let pointOrder = zip(terms, point).map { term, column in
            "\(column) \(term.ascending ? "ASC" : "DESC") NULLS \(term.nullsLast ? "LAST" : "FIRST")"
        }.joined(separator: ", ")
        let text = """
            WITH lvm_changed AS (
                SELECT (lvm_c ->> 'k')::int8 AS lvm_key, nullif(lvm_c -> 'o', 'null'::jsonb) AS lvm_old
                FROM jsonb_array_elements(\(changedParameter)::jsonb) AS lvm_c
            ),
            lvm_point AS (
                SELECT 0 AS lvm_kind, lvm_ordinal::int - 1 AS lvm_run, NULL::int8 AS lvm_key,
                       \(terms.indices.map { "(lvm_b ->> \($0))::\(types[$0]) AS \(point[$0])" }.joined(separator: ", "))
                FROM jsonb_array_elements(\(boundsParameter)::jsonb) WITH ORDINALITY AS lvm_bounds(lvm_b, lvm_ordinal)
                UNION ALL
                SELECT 1, NULL, lvm_changed.lvm_key, \(columns(of: "lvm_was"))
                FROM lvm_changed, jsonb_populate_record(NULL::\(table), lvm_changed.lvm_old) AS lvm_was
                WHERE lvm_changed.lvm_old IS NOT NULL AND (SELECT \(filter) FROM (SELECT lvm_was.*) AS \(table))
                UNION ALL
                SELECT 2, NULL, lvm_changed.lvm_key, \(columns(of: "lvm_now"))
                FROM lvm_changed JOIN (SELECT * FROM \(table) WHERE \(filter)) AS lvm_now
                     ON lvm_now.\(query.key.quotedIdentifier) = lvm_changed.lvm_key
            ),
            lvm_placed AS (
                SELECT *, coalesce(max(lvm_run) OVER (\(partition)ORDER BY \(pointOrder), lvm_kind ROWS UNBOUNDED PRECEDING),
                                   min(lvm_run) OVER (\(partition.trimmingCharacters(in: .whitespaces)))) AS lvm_in_run,
                       min(lvm_run) OVER (\(partition.trimmingCharacters(in: .whitespaces))) AS lvm_first_run
                FROM lvm_point
            ),
            lvm_bounded AS (
                SELECT *, \(point.indices.map { "first_value(\(point[$0])) OVER lvm_in_order AS lvm_b\($0)" }.joined(separator: ", "))
                FROM lvm_placed
                WINDOW lvm_in_order AS (PARTITION BY lvm_in_run ORDER BY \(pointOrder), lvm_kind)
            )
            SELECT lvm_changed.lvm_key, lvm_was.lvm_in_run, lvm_now.lvm_in_run,
                   CASE WHEN lvm_now.lvm_in_run IS NULL OR lvm_kept THEN NULL
                        WHEN lvm_now.lvm_in_run = lvm_now.lvm_first_run THEN \(offset(from: nil))
                        ELSE \(offset(from: point.indices.map { "lvm_now.lvm_b\($0)" })) END,
                   CASE WHEN lvm_now.lvm_kind IS NOT NULL
                        THEN to_jsonb(ARRAY[\(point.map { "lvm_now.\($0)::text" }.joined(separator: ", "))])::text END,
                   lvm_kept
            FROM lvm_changed
            LEFT JOIN lvm_bounded AS lvm_was ON lvm_was.lvm_kind = 1 AND lvm_was.lvm_key = lvm_changed.lvm_key
            LEFT JOIN lvm_bounded AS lvm_now ON lvm_now.lvm_kind = 2 AND lvm_now.lvm_key = lvm_changed.lvm_key,
            LATERAL (SELECT lvm_was.lvm_kind IS NOT NULL AND lvm_now.lvm_kind IS NOT NULL
                            AND \(tuple(point.map { "lvm_was.\($0)" })) IS NOT DISTINCT FROM \(tuple(point.map { "lvm_now.\($0)" })) AS lvm_kept) AS lvm_same
            """
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }

    /// Values as one SQL value to compare: a row of them, or the one.
    private func tuple(_ values: [String]) -> String { values.count == 1 ? values[0] : "ROW(\(values.joined(separator: ", ")))" }

    /// The number of the query's rows in the section of the changed row `lvm_now` (a point
    /// of the statement) that come before it and not before the bound `bound` (a value per
    /// term, or nil for none: the section's first run).
    private func offset(from bound: [String]?) -> String {
        let terms = query.orderTerms
        let point = terms.indices.map { "lvm_t\($0)" }
        let row: (String) -> String = { "lvm_row.\($0.quotedIdentifier)" }
        let source = "(SELECT * FROM \(query.table.quotedIdentifier) WHERE \(query.filter.map { "(\($0))" } ?? "true")) AS lvm_row"
        func count(_ conditions: [String]) -> String {
            "(SELECT count(*) FROM \(source) WHERE \(conditions.joined(separator: " AND ")))"
        }
        let ordered = query.sectionBy == nil ? terms[...] : terms.dropFirst()
        let sectionColumn = query.sectionBy.map(row)
        guard notNull[(query.sectionBy == nil ? 0 : 1)...].allSatisfy({ $0 }), let direction = ordered.first?.ascending,
              ordered.allSatisfy({ $0.ascending == direction }) else {
            // Any order: the comparison ORDER BY makes, term by term.
            var conditions = [query.comesBefore(row: row, bound: point.map { "lvm_now.\($0)" })]
            if let sectionColumn { conditions.insert("\(sectionColumn) IS NOT DISTINCT FROM lvm_now.lvm_t0", at: 0) }
            if let bound { conditions.append("NOT \(query.comesBefore(row: row, bound: bound))") }
            return count(conditions)
        }
        // Values of NOT NULL columns, all one way: one row comparison each side, a range of
        // an index on the section and order columns.
        let orderedPoint = Array(point.suffix(ordered.count))
        let rowTuple = tuple(ordered.map { row($0.column) })
        var conditions = ["\(rowTuple) \(direction ? "<" : ">") \(tuple(orderedPoint.map { "lvm_now.\($0)" }))"]
        if let bound { conditions.append("\(rowTuple) \(direction ? ">=" : "<=") \(tuple(Array(bound.suffix(ordered.count))))") }
        guard let sectionColumn else { return count(conditions) }
        if notNull[0] { return count(["\(sectionColumn) = lvm_now.lvm_t0"] + conditions) }
        return "CASE WHEN lvm_now.lvm_t0 IS NULL THEN \(count(["\(sectionColumn) IS NULL"] + conditions)) "
            + "ELSE \(count(["\(sectionColumn) = lvm_now.lvm_t0"] + conditions)) END"
    }

    /// The placement of `query`'s rows, with its order's types read through `connection`.
    static func read(_ query: PostgresListQuery, on connection: PostgresConnection) async throws -> PostgresPlacement {
        var types: [String] = [], notNull: [Bool] = []
        for row in try await connection.send(query.orderTypesQuery.query) {
            let (type, isNotNull) = try row.decode((String, Bool).self)
            types.append(type)
            notNull.append(isNotNull)
        }
        guard types.count == query.orderTerms.count else {
            throw PostgresStorageError.unknownColumn(tr("table %@ has no column of the order %@", query.table, query.orderTerms.map(\.column).joined(separator: ", ")))
        }
        return PostgresPlacement(query: query, types: types, notNull: notNull)
    }

    /// Runs `statement(bounds:keys:oldRows:)` on `connection` (in the transaction whose
    /// snapshot the places are to be of, with JIT compilation off for the rest of it).
    func places(bounds: [[String?]], keys: [Int64], oldRows: [String?], on connection: PostgresConnection) async throws -> [Place] {
        var places: [Place] = []
        // The planner cannot know that each count covers one run at most: its estimate of
        // the whole table makes PostgreSQL compile the statement (JIT), which took a second
        // where the statement itself takes milliseconds.
        try await connection.send("SET LOCAL jit = off")
        for row in try await connection.send(statement(bounds: bounds, keys: keys, oldRows: oldRows)) {
            let (key, oldRun, newRun, newOffset, value, kept) = try row.decode((Int64, Int?, Int?, Int?, String?, Bool).self)
            let decoded = try value.map { try JSONDecoder().decode([String?].self, from: Data($0.utf8)) }
            places.append(Place(key: key, oldRun: oldRun, newRun: newRun, newOffset: newOffset, kept: kept, value: decoded))
        }
        return places
    }
}
