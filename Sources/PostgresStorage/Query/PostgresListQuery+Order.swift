import Foundation

extension PostgresListQuery {
    /// A column of the rows' whole order, its direction, and where its NULLs go.
    struct OrderTerm: Equatable, Sendable {
        let column: String
        let ascending: Bool
        let nullsLast: Bool

        /// The term in an `ORDER BY`.
        var sql: String {
            "\(column.quotedIdentifier) \(ascending ? "ASC" : "DESC") NULLS \(nullsLast ? "LAST" : "FIRST")"
        }
    }

    /// The rows' whole order: the section column (ascending, NULLs last), the `orderBy`
    /// columns (NULLs where PostgreSQL puts them by default: last going up, first going
    /// down), and the key, which makes it total.
    var orderTerms: [OrderTerm] {
        var terms: [OrderTerm] = []
        if let sectionBy { terms.append(OrderTerm(column: sectionBy, ascending: true, nullsLast: true)) }
        terms += orderBy.map { OrderTerm(column: $0.column, ascending: $0.ascending, nullsLast: $0.ascending) }
        terms.append(OrderTerm(column: key, ascending: true, nullsLast: true))
        return terms
    }

    /// A condition true when the row whose columns are `row(column)` comes before the
    /// values `bound` (one SQL expression per term of `orderTerms`, of its column's type) in
    /// the rows' order, as the server's `ORDER BY` places them: each column's collation,
    /// NULLs where the order puts them, a NULL equal to a NULL.
    func comesBefore(row: (String) -> String, bound: [String]) -> String {
        let terms = orderTerms
        precondition(bound.count == terms.count, "one bound value per term")
        var condition = ""
        for (term, value) in zip(terms, bound).reversed() {
            let column = row(term.column)
            let less = term.ascending ? "\(column) < \(value)" : "\(column) > \(value)"
            let before = term.nullsLast ? "(\(column) IS NOT NULL AND (\(value) IS NULL OR \(less)))"
                                        : "(\(value) IS NOT NULL AND (\(column) IS NULL OR \(less)))"
            condition = condition.isEmpty ? before : "(\(before) OR (\(column) IS NOT DISTINCT FROM \(value) AND \(condition)))"
        }
        return condition
    }
}
