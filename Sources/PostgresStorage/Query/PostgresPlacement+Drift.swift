import Foundation
import PostgresNIO

extension PostgresPlacement {
    /// What a drift check of one run compares: a run's rows, where its range is.
    struct RunRange: Sendable {
        /// The run's section's value (nil for NULL), when the query has sections.
        let section: String??
        /// Where the run starts (nil for its section's first run: from the section's start).
        let lower: [String?]?
        /// Where the next run of its section starts (nil for its section's last run).
        let upper: [String?]?
        /// Whether it is its section's last run: rows in a section after it and before the
        /// next one the storage has are looked for too.
        let lastOfSection: Bool
        /// The value of the next section the storage has (nil for NULL), or nil when there
        /// is none.
        let nextSection: String??
        /// Whether the run is the first of the first section: rows in a section before
        /// it are looked for too.
        let first: Bool
    }

    /// One statement, of one snapshot: whether the log has no change to the table after
    /// `position` (the storage's runs are then what the table should be), the keys of the
    /// query's rows in `range`, in order, and whether a row is in a section the storage does
    /// not have around that run. A storage that finds other keys or such a row has drifted
    /// from the table: a write the log did not record (its trigger disabled, or
    /// `session_replication_role = replica`, as logical replication and `pg_restore` run).
    func driftCheck(of range: RunRange, after position: PostgresChangePosition) -> PostgresQuery {
        let terms = query.orderTerms
        var bindings = query.bindings
        func parameter(_ value: some PostgresNonThrowingEncodable & Sendable) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }
        func value(_ text: String?, term: Int) -> String {
            text.map { "\(parameter($0))::\(types[term])" } ?? "NULL::\(types[term])"
        }
        let row: (String) -> String = { "lvm_row.\($0.quotedIdentifier)" }
        let source = "(SELECT * FROM \(query.table.quotedIdentifier) WHERE \(query.filter.map { "(\($0))" } ?? "true")) AS lvm_row"
        var conditions: [String] = []
        var outside: [String] = []
        if let section = range.section, let sectionBy = query.sectionBy {
            // Conditions an index on the section column serves (`IS NOT DISTINCT FROM` is
            // not one). The section term goes up, NULLs last.
            let column = row(sectionBy)
            conditions.append(section.map { "\(column) = \(value($0, term: 0))" } ?? "\(column) IS NULL")
            if range.lastOfSection, let section {
                let greater = "\(column) > \(value(section, term: 0))"
                switch range.nextSection {
                case .some(.some(let next)): outside.append("\(greater) AND \(column) < \(value(next, term: 0))")
                case .some(.none): outside.append(greater)
                case .none:
                    outside.append(greater)
                    if !notNull[0] { outside.append("\(column) IS NULL") }
                }
            }
            if range.first { outside.append(section.map { "\(column) < \(value($0, term: 0))" } ?? "\(column) IS NOT NULL") }
        }
        // The run's range in the order: one row comparison each side (an index's range) when
        // the order's columns after the section's are NOT NULL and go one way, else the
        // comparison ORDER BY makes, term by term.
        let ordered = query.sectionBy == nil ? terms.indices : terms.indices.dropFirst()
        let direction = terms[ordered.first ?? 0].ascending
        let oneRange = ordered.allSatisfy { notNull[$0] && terms[$0].ascending == direction }
        func tuple(_ values: [String]) -> String { values.count == 1 ? values[0] : "ROW(\(values.joined(separator: ", ")))" }
        let rowTuple = tuple(ordered.map { row(terms[$0].column) })
        // Only the values a condition uses become parameters (the server refuses one it cannot
        // type).
        func side(_ values: [String?], before: Bool) -> String {
            if oneRange {
                let operation = before ? (direction ? "<" : ">") : (direction ? ">=" : "<=")
                return "\(rowTuple) \(operation) \(tuple(ordered.map { value(values[$0], term: $0) }))"
            }
            let comesBefore = query.comesBefore(row: row, bound: values.enumerated().map { value($1, term: $0) })
            return before ? comesBefore : "NOT \(comesBefore)"
        }
        if let lower = range.lower { conditions.append(side(lower, before: false)) }
        if let upper = range.upper { conditions.append(side(upper, before: true)) }
        let (table, sequence, running, horizon) = (parameter(query.table), parameter(position.sequence), parameter(position.running),
                                                    parameter(position.horizon))
        // The rows are read only when the log is quiet (the server evaluates a branch's
        // subqueries only when it is taken): a busy table costs a lookup in the log.
        let text = """
            SELECT lvm_quiet,
                   CASE WHEN lvm_quiet THEN ARRAY(SELECT \(row(query.key))::int8 FROM \(source)
                         WHERE \(conditions.isEmpty ? "true" : conditions.joined(separator: " AND "))
                         ORDER BY \(terms.map { "\(row($0.column)) \($0.ascending ? "ASC" : "DESC") NULLS \($0.nullsLast ? "LAST" : "FIRST")" }.joined(separator: ", ")))
                        ELSE '{}'::int8[] END,
                   lvm_quiet AND \(outside.isEmpty ? "false" : "(" + outside.map { "EXISTS (SELECT 1 FROM \(source) WHERE \($0))" }.joined(separator: " OR ") + ")")
            FROM (SELECT NOT \(PostgresChangeLog.changesAfter(sequence: sequence, running: running, horizon: horizon, table: table)) AS lvm_quiet OFFSET 0) AS lvm_log
            """
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }
}
