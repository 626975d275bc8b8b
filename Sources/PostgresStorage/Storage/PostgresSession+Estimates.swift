import Foundation
import ModelStorage
import PostgresNIO

extension PostgresSession {
    /// The fewest rows a table has (by its statistics) for its first rows to be shown with
    /// estimated counts: a smaller table is counted (in under a tenth of a second).
    static var fewestRowsEstimated: Double { 1_000_000 }

    /// The sections' counts of `query` estimated from the server's statistics (`ANALYZE`,
    /// which autovacuum runs): the table's row count, shared among the section column's
    /// most common values by their shares of the rows, in the sections' order (NULL last).
    /// Nil, to count instead, for a query with a condition, a table of fewer than
    /// `fewestRowsEstimated` rows or never analyzed, or a section column whose statistics do
    /// not list every value (a share of the rows is left to the others) or that has a
    /// collation of its own.
    static func estimatedCounts(of query: PostgresListQuery, on connection: PostgresConnection) async throws -> [(value: String?, count: Int)]? {
        guard let statistics = query.statisticsQuery else { return nil }
        var found: (rows: Double, type: String?, values: [String]?, shares: [Double]?, nulls: Double)?
        for row in try await connection.send(statistics.query) { found = try row.decode((Double, String?, [String]?, [Double]?, Double).self) }
        guard let found, found.rows >= fewestRowsEstimated else { return nil }
        guard query.sectionBy != nil else { return [(nil, Int(found.rows.rounded()))] }
        guard let type = found.type, let values = found.values, let shares = found.shares, values.count == shares.count,
              shares.reduce(0, +) + found.nulls >= 0.999 else { return nil }
        var counts: [(value: String?, count: Int)] = []
        for row in try await connection.send(query.sectionOrderQuery(values: values, shares: shares, type: type).query) {
            let (value, share) = try row.decode((String, Double).self)
            counts.append((value, Int((share * found.rows).rounded())))
        }
        if found.nulls > 0 { counts.append((nil, Int((found.nulls * found.rows).rounded()))) }
        return counts
    }
}
