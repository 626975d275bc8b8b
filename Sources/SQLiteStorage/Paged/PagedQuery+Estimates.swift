import Foundation
import GRDB

extension PagedQuery {
    /// The fewest rows a table has for its first rows to be shown with estimated counts: a
    /// smaller table's sections are counted (in under a tenth of a second).
    static var fewestRowsEstimated: Int { 1_000_000 }
    /// The most sections' values looked up one by one for an estimate.
    static var mostSectionsEstimated: Int { 10_000 }

    /// Each section's value and an estimate of its row count, in the sections' order, found
    /// without a count of each section's rows (which reads every row): the rows (`count(*)`,
    /// which SQLite takes from the table's pages without reading the rows) shared evenly
    /// among the sections, whose values an index on the section gives one by one (a step
    /// each). Nil, to count instead, for a query without sections or with a condition, a
    /// table of fewer than `fewestRowsEstimated` rows, or a section no index orders.
    ///
    /// Under a collation that holds different values equal (`NOCASE`), a section's value is
    /// that of its first row in the index here and of any of its rows in the count: the two
    /// may differ, and then every key reloads the list once instead of correcting it.
    func estimatedCounts(_ db: Database) throws -> [(value: DatabaseValue, count: Int)]? {
        guard let sectionBy, filter == nil else { return nil }
        let table = self.table.quotedSQLIdentifier
        let first = "SELECT \(sectionBy) FROM \(table) ORDER BY 1 LIMIT 1"
        let afterNull = "SELECT \(sectionBy) FROM \(table) WHERE (\(sectionBy)) IS NOT NULL ORDER BY 1 LIMIT 1"
        let after = "SELECT \(sectionBy) FROM \(table) WHERE (\(sectionBy)) > ? ORDER BY 1 LIMIT 1"
        // The first value and the first after NULL: the index in order, from its start (past
        // the NULLs); each value after another: a search of the index. Looked at first: a
        // query that cannot be estimated costs no count of its own.
        guard try [first, afterNull].allSatisfy({ try Self.readsAnIndexInOrder($0, db) }),
              try Self.searchesAnIndex(after, db, arguments: [DatabaseValue.null]) else { return nil }
        let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
        guard rows >= Self.fewestRowsEstimated else { return nil }
        var values: [DatabaseValue] = []
        var next = try Row.fetchOne(db, sql: first).map { $0[0] as DatabaseValue }
        while let value = next {
            values.append(value)
            guard values.count <= Self.mostSectionsEstimated else { return nil }
            let row = value.isNull ? try Row.fetchOne(db, sql: afterNull) : try Row.fetchOne(db, sql: after, arguments: [value])
            next = row.map { $0[0] as DatabaseValue }
        }
        guard !values.isEmpty else { return nil }
        return values.indices.map { (values[$0], rows / values.count + ($0 < rows % values.count ? 1 : 0)) }
    }

    /// The rowids of the first `limit` rows, in order, each with its section's value
    /// (`NULL` without sections).
    func firstKeysAndSections(_ db: Database, limit: Int) throws -> [(key: Int64, section: DatabaseValue)] {
        let sql = "SELECT \(rowID), \(sectionBy ?? "NULL") \(source) ORDER BY \(order) LIMIT \(max(0, limit))"
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { ($0[0], $0[1]) }
    }

    /// Whether SQLite answers `sql` from an index, in its order (no sort of its own).
    private static func readsAnIndexInOrder(_ sql: String, _ db: Database) throws -> Bool {
        let plan = try plan(of: sql, db, arguments: [])
        return plan.contains { $0.contains("INDEX") } && !plan.contains { $0.contains("TEMP B-TREE") }
    }

    /// Whether SQLite answers `sql` by a search of an index (no scan, no sort of its own).
    private static func searchesAnIndex(_ sql: String, _ db: Database, arguments: StatementArguments) throws -> Bool {
        let plan = try plan(of: sql, db, arguments: arguments)
        return plan.contains { $0.hasPrefix("SEARCH") && $0.contains("INDEX") }
            && !plan.contains { $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE") }
    }

    /// The steps of SQLite's plan for `sql` (`EXPLAIN QUERY PLAN`'s details), with `arguments`.
    private static func plan(of sql: String, _ db: Database, arguments: StatementArguments) throws -> [String] {
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
    }
}
