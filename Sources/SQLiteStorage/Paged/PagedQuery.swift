import Foundation
import GRDB
import ModelStorage

/// The rows a `PagedQueryStorage` shows, as the parts of an SQL query: the storage runs it
/// in pieces (the sections' counts, the rowids in order, one page of rows), never whole.
///
/// Rows are ordered by `sectionBy` (ascending, one section per value), then by `orderBy`,
/// then by rowid, so the order is total and a page always holds the same rows.
///
/// ```swift
/// // SELECT rowid, * FROM book WHERE year > ? ORDER BY genre, title, rowid
/// let query = PagedQuery(table: "book", filter: "year > ?", arguments: [1900],
///                        orderBy: "title", sectionBy: "genre")
/// ```
public struct PagedQuery: Sendable, Equatable {
    /// The table (a rowid table; its name is quoted).
    public var table: String
    /// The columns a row's record is decoded from, after its rowid: a page is
    /// `SELECT rowid, <columns> FROM <table> WHERE rowid IN (…)`.
    public var columns: String
    /// The name the rowid is read by: `rowid`, or `_rowid_` or `oid` for a table with a
    /// column called `rowid`.
    public var rowID: String
    /// A `WHERE` condition (SQL), or nil for every row.
    public var filter: String?
    /// The values of the `?` placeholders in `filter`.
    public var arguments: [DatabaseValue]
    /// The `ORDER BY` terms within a section (SQL, such as `"title COLLATE NOCASE DESC"`),
    /// or nil for the rowid order.
    public var orderBy: String?
    /// The column or expression whose values make the sections, in ascending order, or nil
    /// for one section of every row.
    public var sectionBy: String?
    /// The column or expression type-ahead find looks in (GtkTreeView's search column), or
    /// nil for none: a search asks SQLite for the rows whose value starts with (or
    /// contains) what was typed, with `LIKE` (ASCII letters in either case), reading no page.
    /// An index on it `COLLATE NOCASE` lets SQLite find those starting with what was typed
    /// without reading every row. Changing it alone reads no key again.
    public var searchBy: String?

    /// A query of `table`'s rows.
    public init(table: String, columns: String = "*", rowID: String = "rowid", filter: String? = nil,
                arguments: [DatabaseValue] = [], orderBy: String? = nil, sectionBy: String? = nil, searchBy: String? = nil) {
        self.table = table
        self.columns = columns
        self.rowID = rowID
        self.filter = filter
        self.arguments = arguments
        self.orderBy = orderBy
        self.sectionBy = sectionBy
        self.searchBy = searchBy
    }

    /// Whether this query's rows are those of `other`, in the same order and sections (it
    /// may search in something else).
    func rowsAreThoseOf(_ other: PagedQuery) -> Bool {
        var other = other
        other.searchBy = searchBy
        return self == other
    }

    // MARK: The statements

    /// The whole query as one statement (what the storage never runs): every row, in order.
    public var sql: String {
        "SELECT \(rowID), \(columns) \(source) ORDER BY \(order)"
    }

    /// `FROM … WHERE …`.
    var source: String {
        "FROM \(table.quotedSQLIdentifier)" + (filter.map { " WHERE (\($0))" } ?? "")
    }

    /// The whole order: the section, the order within it, the rowid.
    var order: String {
        [sectionBy, orderBy, rowID].compactMap { $0 }.joined(separator: ", ")
    }

    /// Each section's value and row count, in the sections' order (one row of the count
    /// alone without `sectionBy`).
    func counts(_ db: Database) throws -> [(value: DatabaseValue, count: Int)] {
        guard let sectionBy else {
            let count = try Int.fetchOne(db, sql: "SELECT count(*) \(source)", arguments: StatementArguments(arguments)) ?? 0
            return [(.null, count)]
        }
        let rows = try Row.fetchCursor(db, sql: "SELECT \(sectionBy), count(*) \(source) GROUP BY 1 ORDER BY 1",
                                       arguments: StatementArguments(arguments))
        var counts: [(value: DatabaseValue, count: Int)] = []
        while let row = try rows.next() { counts.append((row[0], row[1])) }
        return counts
    }

    /// Every row's rowid, in order.
    func keys(_ db: Database, capacity: Int) throws -> [Int64] {
        var keys: [Int64] = []
        keys.reserveCapacity(capacity)
        let cursor = try Int64.fetchCursor(db, sql: "SELECT \(rowID) \(source) ORDER BY \(order)", arguments: StatementArguments(arguments))
        while let key = try cursor.next() { keys.append(key) }
        return keys
    }

    /// Those of the rows `keys` that are rows of the query in the section of `section` (its
    /// value by the section's own comparison; any row without sections), in the query's order.
    func rowIDs(_ db: Database, of keys: [Int64], inSection section: DatabaseValue) throws -> [Int64] {
        // The condition first, so that the parameters after it are numbered after its own,
        // whether they are `?` or `?NNN`.
        var conditions = [filter.map { "(\($0))" } ?? "1", "\(rowID) IN (SELECT value FROM json_each(?))"]
        var values = arguments + [("[" + keys.map(String.init).joined(separator: ",") + "]").databaseValue]
        if let sectionBy {
            conditions.append("(\(sectionBy)) IS ?")
            values.append(section)
        }
        return try Int64.fetchAll(db, sql: "SELECT \(rowID) FROM \(table.quotedSQLIdentifier) WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order)",
                                  arguments: StatementArguments(values))
    }

    /// The number of the query's rows in the section of `section` (every row without sections).
    func count(_ db: Database, inSection section: DatabaseValue) throws -> Int {
        guard let sectionBy else { return try Int.fetchOne(db, sql: "SELECT count(*) \(source)", arguments: StatementArguments(arguments)) ?? 0 }
        let sql = "SELECT count(*) FROM \(table.quotedSQLIdentifier) WHERE \(filter.map { "(\($0))" } ?? "1") AND (\(sectionBy)) IS ?"
        return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments + [section])) ?? 0
    }

    /// Whether the query has a row in a section after the section of `lower` and before the
    /// section of `upper`, by the sections' own order (`NULL` first); a bound not given does
    /// not bound. Without sections, whether it has a row at all. Each condition is a range
    /// an index on the sections can answer (no `OR` within a statement: `NULL`, before
    /// every value, is looked for on its own).
    func hasRow(_ db: Database, inSectionsAfter lower: DatabaseValue?, before upper: DatabaseValue?) throws -> Bool {
        guard let sectionBy else { return try exists(db, []) }
        if let upper, upper.isNull { return false }
        var bounds: [(condition: String, value: DatabaseValue?)] = []
        switch lower {
        case nil: break
        case let lower? where lower.isNull: bounds.append(("(\(sectionBy)) IS NOT NULL", nil))
        case let lower?: bounds.append(("(\(sectionBy)) > ?", lower))
        }
        if let upper { bounds.append(("(\(sectionBy)) < ?", upper)) }
        // Before the first section, rows of NULL too (`NULL < value` is not true).
        let nullFirst = lower == nil && upper != nil
        return try exists(db, bounds) || (nullFirst && exists(db, [("(\(sectionBy)) IS NULL", nil)]))
    }

    /// Whether the query has a row meeting `bounds` (conditions, each with the value of its
    /// `?` if it has one).
    private func exists(_ db: Database, _ bounds: [(condition: String, value: DatabaseValue?)]) throws -> Bool {
        // The condition first, so that the parameters after it are numbered after its own.
        let conditions = [filter.map { "(\($0))" } ?? "1"] + bounds.map(\.condition)
        let sql = "SELECT EXISTS (SELECT 1 FROM \(table.quotedSQLIdentifier) WHERE \(conditions.joined(separator: " AND ")))"
        return try Bool.fetchOne(db, sql: sql, arguments: StatementArguments(arguments + bounds.compactMap(\.value))) ?? false
    }

    /// The rowids of the rows in `scope` whose `searchBy` starts with `text` (or,
    /// `anywhere`, contains it), ASCII letters in either case; in no particular order but
    /// for `.first`. None without `searchBy`.
    func matches(_ db: Database, of text: String, anywhere: Bool, in scope: MatchScope) throws -> [Int64] {
        guard let searchBy else { return [] }
        // The condition first, so that the parameters after it are numbered after its own.
        // SQLite finds a prefix through an index of `searchBy` `COLLATE NOCASE` (its LIKE
        // optimization, which takes this `ESCAPE`).
        var conditions = [filter.map { "(\($0))" } ?? "1", "(\(searchBy)) LIKE ? ESCAPE '\\'"]
        var values = arguments + [likePattern(for: text, anywhere: anywhere).databaseValue]
        var last = ""
        switch scope {
        case .among(let keys):
            conditions.append("\(rowID) IN (SELECT value FROM json_each(?))")
            values.append(("[" + keys.map(String.init).joined(separator: ",") + "]").databaseValue)
        case .first: last = " ORDER BY \(order) LIMIT 1"
        case .every: break
        }
        return try Int64.fetchAll(db, sql: "SELECT \(rowID) FROM \(table.quotedSQLIdentifier) WHERE \(conditions.joined(separator: " AND "))" + last,
                                  arguments: StatementArguments(values))
    }

    /// The rows whose rowids are `keys`, each with its rowid, in no particular order.
    func rows<Record: FetchableRecord>(_ db: Database, keys: some Collection<Int64>, as: Record.Type) throws -> [(Int64, Record)] {
        guard !keys.isEmpty else { return [] }
        let list = keys.map(String.init).joined(separator: ",")
        let rows = try Row.fetchCursor(db, sql: "SELECT \(rowID), \(columns) FROM \(table.quotedSQLIdentifier) WHERE \(rowID) IN (\(list))")
        var result: [(Int64, Record)] = []
        result.reserveCapacity(keys.count)
        while let row = try rows.next() { result.append((row[0], try Record(row: row))) }
        return result
    }
}

extension String {
    /// The name quoted as an SQL identifier: in double quotes, its own doubled (GRDB's
    /// `quotedDatabaseIdentifier` leaves them as they are).
    public var quotedSQLIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
