import Foundation
import ModelStorage
import PostgresNIO

/// The rows a `PostgresQueryStorage` shows, given as parts so that the storage can read
/// them a page at a time: a table, its columns, a condition, an order, and a column whose
/// values make the sections. Identifiers are always quoted; values are always bound
/// parameters.
public struct PostgresListQuery: Sendable, Hashable {
    /// A column the rows are sorted by, and in which direction.
    public struct Order: Sendable, Hashable {
        /// The column's name (quoted when the query is written).
        public var column: String
        /// Whether the rows go from the smallest value to the largest (`ASC`), else `DESC`.
        public var ascending: Bool

        /// Sorts by `column`, ascending unless `ascending` is false.
        public init(_ column: String, ascending: Bool = true) {
            self.column = column
            self.ascending = ascending
        }
    }

    /// The table (or view) read.
    public var table: String
    /// The columns read into each record, in this order (nil: every column).
    public var columns: [String]?
    /// An integer column that tells rows apart (the primary key): what the storage keeps
    /// of every row (8 bytes), and how it reads a page and follows a row.
    public var key: String
    /// A condition on the rows (SQL), with `$1`, `$2`… for `arguments`, or nil for all.
    public var filter: String?
    /// The values of the condition's parameters (bound as text).
    public var arguments: [String]
    /// The order of the rows within a section, then the key, so that the order is total
    /// (going the way the last column here goes: an index on these columns and the key, one
    /// way, serves it, and a commit's rows are placed over its ranges).
    public var orderBy: [Order]
    /// The column whose values make the sections, in its order (NULL last), or nil for one
    /// section.
    public var sectionBy: String?
    /// The column type-ahead find looks in (GtkTreeView's search column), or nil for none:
    /// a search asks the server for the rows whose value (as text) starts with (or
    /// contains) what was typed, with `ILIKE` (letters in either case), reading no page.
    /// Changing it alone reads no key again.
    public var searchBy: String?

    /// A query of the rows of `table`; each parameter sets the property of its name.
    public init(table: String, columns: [String]? = nil, key: String = "id", filter: String? = nil, arguments: [String] = [],
                orderBy: [Order] = [], sectionBy: String? = nil, searchBy: String? = nil) {
        self.table = table
        self.columns = columns
        self.key = key
        self.filter = filter
        self.arguments = arguments
        self.orderBy = orderBy
        self.sectionBy = sectionBy
        self.searchBy = searchBy
    }

    /// The query without `searchBy`: what makes its rows (storages showing the same rows
    /// share a feed, whatever they search in).
    var withoutSearch: PostgresListQuery {
        var query = self
        query.searchBy = nil
        return query
    }

    private var whereClause: String { filter.map { " WHERE (\($0))" } ?? "" }

    var bindings: PostgresBindings {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments { bindings.append(argument) }
        return bindings
    }

    /// The sections' values (as text, nil for NULL) and row counts, in order.
    var countsQuery: SQL {
        guard let sectionBy else {
            return SQL(text: "SELECT NULL::text, count(*) FROM \(table.quotedIdentifier)\(whereClause)", bindings: bindings)
        }
        let section = sectionBy.quotedIdentifier
        // The value's text is named apart: an `ORDER BY` of a name orders by the output
        // column of that name first (the text, where the column holds numbers, say).
        return SQL(text: "SELECT \(section)::text AS lvm_section, count(*) FROM \(table.quotedIdentifier)\(whereClause) GROUP BY \(section) ORDER BY \(section) NULLS LAST",
                   bindings: bindings)
    }

    /// Every row's key, in the rows' order (section after section).
    var keysQuery: SQL {
        SQL(text: "SELECT \(key.quotedIdentifier)::int8 FROM \(table.quotedIdentifier)\(whereClause) ORDER BY \(orderTerms.map(\.sql).joined(separator: ", "))",
            bindings: bindings)
    }

    /// The keys of the first `limit` rows, in the rows' order, each with its section's value
    /// (as text, nil for NULL and for the one section of a query without sections).
    func firstKeysQuery(limit: Int) -> SQL {
        let section = sectionBy.map { "\($0.quotedIdentifier)::text" } ?? "NULL::text"
        return SQL(text: "SELECT \(key.quotedIdentifier)::int8 AS lvm_key, \(section) AS lvm_section FROM \(table.quotedIdentifier)\(whereClause) ORDER BY "
                   + orderTerms.map(\.sql).joined(separator: ", ") + " LIMIT \(max(0, limit))", bindings: bindings)
    }

    /// What the server's statistics say of the table, for estimating the sections' counts:
    /// its row count (`reltuples`, -1 when never analyzed); and for a query with sections,
    /// the section column's type, its most common values (as text) and their shares of the
    /// rows, and the share of NULLs; no row when the column has no statistics, or a
    /// collation of its own (its values' order is then not the text's). Nil for a query with
    /// a condition, whose rows the statistics do not count.
    var statisticsQuery: SQL? {
        guard filter == nil else { return nil }
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(table.quotedIdentifier)
        guard let sectionBy else {
            return SQL(text: "SELECT reltuples::float8, NULL::text, NULL::text[], NULL::float8[], 0::float8 FROM pg_class WHERE oid = $1::text::regclass",
                       bindings: bindings)
        }
        bindings.append(sectionBy)
        return SQL(text: """
            SELECT c.reltuples::float8, format_type(a.atttypid, a.atttypmod), s.most_common_vals::text::text[], s.most_common_freqs::float8[], s.null_frac::float8
            FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = $2 AND a.attcollation IN (0, 100)
            JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = a.attname AND NOT s.inherited
            WHERE c.oid = $1::text::regclass
            """, bindings: bindings)
    }

    /// `values` (the statistics' text of values of the section column's type `type`, as the
    /// server wrote it) with their `shares`, in the sections' order, each value as the
    /// column's `::text` gives it (`true`, not the statistics' `t`).
    func sectionOrderQuery(values: [String], shares: [Double], type: String) -> SQL {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(values)
        bindings.append(shares)
        return SQL(text: "SELECT (v::\(type))::text AS lvm_section, f FROM unnest($1::text[], $2::float8[]) AS u(v, f) ORDER BY v::\(type)", bindings: bindings)
    }

    /// The names of the table's columns, in order (for a query of every column).
    var columnNamesQuery: SQL {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(table.quotedIdentifier)
        return SQL(text: "SELECT attname::text FROM pg_attribute WHERE attrelid = $1::text::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
                   bindings: bindings)
    }

    /// The records of the rows `keys` (in no order), each with its key first, then the
    /// values of `columns` as text.
    func rowsQuery(keys: [Int64], columns: [String]) -> SQL {
        let selected = columns.map { "\($0.quotedIdentifier)::text" }.joined(separator: ", ")
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(keys)
        return SQL(text: "SELECT \(key.quotedIdentifier)::int8, \(selected) FROM \(table.quotedIdentifier) WHERE \(key.quotedIdentifier) = ANY($1)",
                   bindings: bindings)
    }

    /// The keys of the rows in `scope` whose `searchBy` starts with `text` (or, `anywhere`,
    /// contains it), letters in either case; in no order but for `.first`. Nil without
    /// `searchBy`.
    func matchesQuery(of text: String, anywhere: Bool, in scope: MatchScope) -> SQL? {
        guard let searchBy else { return nil }
        var bindings = bindings
        bindings.append(likePattern(for: text, anywhere: anywhere))
        var sql = "SELECT \(key.quotedIdentifier)::int8 FROM \(table.quotedIdentifier) WHERE "
            + (filter.map { "(\($0)) AND " } ?? "") + "\(searchBy.quotedIdentifier)::text ILIKE $\(arguments.count + 1) ESCAPE '\\'"
        switch scope {
        case .among(let keys):
            bindings.append(keys)
            sql += " AND \(key.quotedIdentifier) = ANY($\(arguments.count + 2))"
        case .first: sql += " ORDER BY " + orderTerms.map(\.sql).joined(separator: ", ") + " LIMIT 1"
        case .every: break
        }
        return SQL(text: sql, bindings: bindings)
    }

    /// A statement and its parameters.
    struct SQL {
        let text: String
        let bindings: PostgresBindings

        var query: PostgresNIO.PostgresQuery { PostgresNIO.PostgresQuery(unsafeSQL: text, binds: bindings) }
    }
}

extension String {
    /// The string as a PostgreSQL identifier, quoted: `"name"`, its double quotes doubled.
    public var quotedIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
