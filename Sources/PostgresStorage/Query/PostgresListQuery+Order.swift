import Foundation
import PostgresNIO

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
    /// down), and the key, which makes it total, going the way the last `orderBy` column goes
    /// (so that an order all one way is one index's range).
    var orderTerms: [OrderTerm] {
        var terms: [OrderTerm] = []
        if let sectionBy { terms.append(OrderTerm(column: sectionBy, ascending: true, nullsLast: true)) }
        terms += orderBy.map { OrderTerm(column: $0.column, ascending: $0.ascending, nullsLast: $0.ascending) }
        let keyAscending = orderBy.last?.ascending ?? true
        terms.append(OrderTerm(column: key, ascending: keyAscending, nullsLast: keyAscending))
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

extension PostgresListQuery {
    /// Every row's key in the rows' order, and for the first row of each run (the first of
    /// its section, then every `runSize`th) its order's value as a JSON array of text:
    /// what a storage's runs (`KeyRuns`) are made of, in one sort.
    func keysAndBoundsQuery(runSize: Int) -> SQL {
        let order = orderTerms.map(\.sql).joined(separator: ", ")
        let partition = sectionBy.map { "PARTITION BY \($0.quotedIdentifier) " } ?? ""
        let value = orderTerms.map { "\($0.column.quotedIdentifier)::text" }.joined(separator: ", ")
        return SQL(text: """
            SELECT \(key.quotedIdentifier)::int8,
                   CASE WHEN (row_number() OVER (\(partition)ORDER BY \(order)) - 1) % \(max(1, runSize)) = 0
                        THEN to_jsonb(ARRAY[\(value)])::text END
            FROM \(table.quotedIdentifier)\(filter.map { " WHERE (\($0))" } ?? "") ORDER BY \(order)
            """, bindings: bindings)
    }

    /// The type of each column of the rows' whole order (`format_type`), and whether it is
    /// `NOT NULL`, in its order.
    var orderTypesQuery: SQL {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(table.quotedIdentifier)
        bindings.append(orderTerms.map(\.column))
        return SQL(text: """
            SELECT format_type(a.atttypid, a.atttypmod), a.attnotnull FROM unnest($2::text[]) WITH ORDINALITY AS term(name, place)
            JOIN pg_attribute a ON a.attrelid = $1::text::regclass AND a.attname = term.name AND NOT a.attisdropped
            ORDER BY term.place
            """, bindings: bindings)
    }
}
