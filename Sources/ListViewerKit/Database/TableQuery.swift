import Foundation
import GRDB
import GRDBSQLite
import SQLiteStorage

/// Which rows of a table the viewer shows and how: the table, its columns, the column
/// that sections them, and the SQL that reads them (every column, in sections, filtered
/// by a search).
///
/// Rows are identified by their rowid, so a `WITHOUT ROWID` table cannot be shown (a
/// `DatabaseProblem` says so): its rows would have no identity that lasts across edits.
///
/// SQLite returns at most 2,000 columns in a row (`SQLITE_LIMIT_COLUMN`), and a table may
/// have that many: the rowid then takes one place, and a row is read with the table's
/// first columns that fit (`shownColumns`; the section column always among them). The
/// list, the details and the table view show those columns; the search still looks in
/// every column.
public struct TableQuery: Equatable, Sendable {
    /// The table's name, as the database spells it.
    public let table: String
    /// The table's columns, in order.
    public let columns: [String]
    /// The columns a row is read with, in the table's order: every column, unless the
    /// table has more than fit in a row beside the rowid (see the type's notes).
    public let shownColumns: [String]
    /// The column whose values make the sections, if any.
    public let sectionColumn: String?
    /// The name that reads the rowid: `rowid`, or `_rowid_` or `oid` when a column is
    /// called `rowid`.
    public let rowIDName: String
    /// The column that is the rowid under another name (an `INTEGER PRIMARY KEY`), if any.
    public let rowIDColumn: String?
    /// The first column declared as text (SQLite's TEXT affinity: a type naming CHAR, CLOB
    /// or TEXT, and not INT), besides the section column: what typing in the list looks in when the rows
    /// are not sorted by a column (a row's title is its first text).
    public let firstTextColumn: String?

    /// The columns a row need not repeat in its summary: the section column (its header
    /// says it) and the rowid's column (the row shows the rowid).
    public var columnsShownElsewhere: Set<String> {
        Set([sectionColumn, rowIDColumn].compactMap { $0 })
    }

    /// Reads the schema of `table` (or of the database's only table when nil). The table
    /// and the section column are found as SQLite finds names (see `SQLiteName`).
    /// - Parameters:
    ///   - fileName: the database's file name, for messages.
    /// - Throws: `DatabaseProblem` for an unknown table or column, a database without
    ///   tables or with several when none was named, or a `WITHOUT ROWID` table.
    public static func inspect(_ db: Database, fileName: String, table: String?, sectionBy: String?) throws -> TableQuery {
        let every = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """)
        // A table's change log (`SQLiteChangeLog`) is not one of the tables to choose from,
        // though it opens when named.
        let logs = Set(every.map(SQLiteChangeLog.logTable(for:)))
        let tables = every.filter { !logs.contains($0) }
        let list = tables.joined(separator: ", ")
        let name: String
        if let table {
            guard let found = SQLiteName.find(table, in: every) else {
                throw DatabaseProblem(tables.isEmpty ? tr("%@ has no table %@; it has no tables", fileName, table)
                                                     : tr("%@ has no table %@; tables: %@", fileName, table, list))
            }
            name = found
        } else {
            guard tables.count == 1 else {
                throw DatabaseProblem(tables.isEmpty ? tr("%@ has no tables", fileName)
                                                     : tr("%@ has several tables; choose one with --table: %@", fileName, list))
            }
            name = tables[0]
        }
        // Bound, not spliced: any table name reads (GRDB's `columns(in:)` does not escape quotes).
        let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [name])
        var sectionColumn: String?
        if let sectionBy {
            guard let found = SQLiteName.find(sectionBy, in: columns) else {
                throw DatabaseProblem.noColumn(sectionBy, in: name, columns: columns)
            }
            sectionColumn = found
        }
        // A column may be called rowid: then one of the rowid's other names reads it.
        guard let rowIDName = ["rowid", "_rowid_", "oid"].first(where: { alias in
            !columns.contains { SQLiteName.equalIgnoringASCIICase($0, alias) }
        }) else {
            throw DatabaseProblem(tr("table %@ has columns named rowid, _rowid_ and oid; its rows cannot be told apart", name))
        }
        do {
            _ = try db.makeStatement(sql: "SELECT \(rowIDName) FROM \(name.quotedSQLIdentifier) LIMIT 0")
        } catch {
            throw DatabaseProblem(tr("table %@ is a WITHOUT ROWID table; the viewer follows rows by their rowid and cannot show it", name))
        }
        // The one primary key column declared INTEGER is the rowid itself.
        let keys = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?) WHERE pk > 0", arguments: [name])
        let rowIDColumn: String? = keys.count == 1 && (keys[0]["type"] as String?)?.uppercased() == "INTEGER" ? keys[0]["name"] : nil
        let room = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_COLUMN, -1)) - 1
        let types = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?) ORDER BY cid", arguments: [name])
        let firstTextColumn: String? = types.first { row in
            let type = ((row["type"] as String?) ?? "").uppercased()
            // SQLite's rules: INT first (INTEGER affinity), then CHAR, CLOB or TEXT.
            return row["name"] != sectionColumn && !type.contains("INT") && ["CHAR", "CLOB", "TEXT"].contains { type.contains($0) }
        }?["name"]
        return TableQuery(table: name, columns: columns, shownColumns: Self.columns(columns, fitting: room, keeping: sectionColumn),
                          sectionColumn: sectionColumn, rowIDName: rowIDName, rowIDColumn: rowIDColumn, firstTextColumn: firstTextColumn)
    }

    /// The first of `columns` that fit in `room` result columns, `kept` always among them.
    static func columns(_ columns: [String], fitting room: Int, keeping kept: String?) -> [String] {
        guard columns.count > room else { return columns }
        guard let kept, !columns.prefix(room).contains(kept) else { return Array(columns.prefix(room)) }
        return Array(columns.prefix(room - 1)) + [kept]
    }

    /// The rows whose columns contain every whitespace-separated term of `search` (any
    /// column for each term, ignoring ASCII case), in sections, ordered within them by
    /// `order` (a column of `shownColumns`, or the rowid's name; values in SQLite's order,
    /// numbers before text, text ignoring ASCII case), then by rowid: as the paged storage
    /// reads them. Typing in the list finds rows by the column they are sorted by, else by
    /// `firstTextColumn`.
    public func pagedQuery(matching search: String = "", sortedBy order: (column: String, ascending: Bool)? = nil) -> PagedQuery {
        let terms = search.split(whereSeparator: \.isWhitespace).map { "%" + Self.escapeLike(String($0)) + "%" }
        // Term n is bound once, as ?n, however many columns it is looked for in.
        let filter = terms.isEmpty ? nil : terms.indices.map { term in
            Self.anyOf(columns.map { "\($0.quotedSQLIdentifier) LIKE ?\(term + 1) ESCAPE '\\'" })
        }.joined(separator: " AND ")
        let orderBy = order.map { order in
            (order.column == rowIDName ? rowIDName : "\(order.column.quotedSQLIdentifier) COLLATE NOCASE") + (order.ascending ? "" : " DESC")
        }
        return PagedQuery(
            table: table,
            columns: shownColumns.count == columns.count ? "*" : shownColumns.map(\.quotedSQLIdentifier).joined(separator: ", "),
            rowID: rowIDName, filter: filter, arguments: terms.map(\.databaseValue), orderBy: orderBy,
            // BINARY: rows whose section values are equal as the viewer sees them stay
            // together whatever the column's collation.
            sectionBy: sectionColumn.map { "\($0.quotedSQLIdentifier) COLLATE BINARY" },
            searchBy: (order.flatMap { $0.column == rowIDName ? nil : $0.column } ?? firstTextColumn)?.quotedSQLIdentifier)
    }

    /// The rows of `pagedQuery(matching:)` as one request.
    public func request(matching search: String = "") -> SQLRequest<DatabaseRecord> {
        let query = pagedQuery(matching: search)
        return SQLRequest<DatabaseRecord>(sql: query.sql, arguments: StatementArguments(query.arguments))
    }

    /// The header of the section of rows whose section column holds `value`: "column:
    /// value", or the table's name when there are no sections.
    public func header(ofSectionValue value: DatabaseValue) -> String {
        sectionColumn.map { "\($0): \(DatabaseRecord.display(value))" } ?? table
    }

    /// `conditions` joined by OR, nested in halves: a flat chain of 2,000 columns' tests
    /// would be deeper than SQLite's expression depth limit (1,000).
    static func anyOf(_ conditions: some Collection<String>) -> String {
        guard conditions.count > 1 else { return conditions.first ?? "0" }
        let middle = conditions.index(conditions.startIndex, offsetBy: conditions.count / 2)
        return "(" + anyOf(conditions[..<middle]) + " OR " + anyOf(conditions[middle...]) + ")"
    }

    /// `text` with the LIKE wildcards and the escape character escaped.
    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// The identity of `record`'s section: its section column's value.
    func sectionID(of record: DatabaseRecord) -> String {
        sectionColumn.flatMap { record.value(of: $0) } ?? table
    }

    /// The header of the section with identity `id`: "column: value", or the table's name
    /// when there are no sections.
    func header(ofSection id: String) -> String {
        sectionColumn.map { "\($0): \(id)" } ?? table
    }
}

/// Why a database or table cannot be shown; the description is the message for the user.
public struct DatabaseProblem: Error, Equatable, CustomStringConvertible {
    public let description: String

    /// A problem described by `message`.
    public init(_ message: String) {
        description = message
    }

    /// The table `table` has no column `column`, only `columns`.
    static func noColumn(_ column: String, in table: String, columns: [String]) -> DatabaseProblem {
        DatabaseProblem(tr("table %@ has no column %@; columns: %@", table, column, columns.joined(separator: ", ")))
    }
}

