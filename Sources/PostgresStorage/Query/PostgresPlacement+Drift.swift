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
        /// For a section's last run: the value of the next section the storage has (nil
        /// when there is none), so that rows in a section between the two are found.
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
        let schema = PostgresChangeLog.schema.quotedIdentifier
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
            let column = row(sectionBy)
            conditions.append("\(column) IS NOT DISTINCT FROM \(value(section, term: 0))")
            // The section term goes up, NULLs last: after a value, the greater ones and NULL.
            func after(_ section: String?) -> String {
                section == nil ? "false" : "(\(column) IS NULL OR \(column) > \(value(section, term: 0)))"
            }
            func before(_ section: String?) -> String {
                section == nil ? "\(column) IS NOT NULL" : "\(column) < \(value(section, term: 0))"
            }
            if let next = range.nextSection {
                outside.append(next.map { "(\(after(section)) AND \(before($0)))" } ?? after(section))
            }
            if range.first { outside.append(before(section)) }
        }
        if let lower = range.lower {
            conditions.append("NOT \(query.comesBefore(row: row, bound: lower.enumerated().map { value($1, term: $0) }))")
        }
        if let upper = range.upper {
            conditions.append(query.comesBefore(row: row, bound: upper.enumerated().map { value($1, term: $0) }))
        }
        let (table, sequence, running) = (parameter(query.table), parameter(position.sequence), parameter(position.running))
        let text = """
            SELECT NOT EXISTS (SELECT 1 FROM \(schema).changes WHERE seq > \(sequence) AND table_name = \(table))
                   AND NOT EXISTS (SELECT 1 FROM \(schema).changes
                                   WHERE xid = ANY (ARRAY(SELECT running::text::xid8 FROM unnest(\(running)::bigint[]) running))
                                     AND table_name = \(table)),
                   ARRAY(SELECT \(row(query.key))::int8 FROM \(source)
                         WHERE \(conditions.isEmpty ? "true" : conditions.joined(separator: " AND "))
                         ORDER BY \(terms.map { "\(row($0.column)) \($0.ascending ? "ASC" : "DESC") NULLS \($0.nullsLast ? "LAST" : "FIRST")" }.joined(separator: ", "))),
                   \(outside.isEmpty ? "false" : "EXISTS (SELECT 1 FROM \(source) WHERE \(outside.joined(separator: " OR ")))")
            """
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }
}
