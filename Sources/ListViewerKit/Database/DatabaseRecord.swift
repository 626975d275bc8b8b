import Foundation
import GRDB
import PostgresStorage

/// One row of any table, as the viewer shows it: its key and every column's value as text.
///
/// Decoded from an SQLite row whose first column is the rowid and whose other columns are
/// the table's (`SELECT rowid, * FROM …`, as `TableQuery` asks), or from a PostgreSQL row
/// (see `init(key:columns:values:)`). Two records are equal when their key and every value
/// are: a row whose values change keeps its identity and is updated in place.
public struct DatabaseRecord: FetchableRecord, PostgresRecordDecodable, Identifiable, Equatable, Sendable {
    /// The row's key: its rowid in SQLite, its integer key in PostgreSQL.
    public let id: Int64
    /// What the details call the key when it is not one of the columns (`rowid`), or nil
    /// when it is (a PostgreSQL key).
    public let keyName: String?
    /// The table's column names, in the table's order.
    public let columns: [String]
    /// Each column's value as text (see `display(_:)`), in the order of `columns`.
    public let values: [String]
    /// The index in `columns` of the title: the first column holding text (the first
    /// column when none does).
    public let titleIndex: Int

    /// Decodes a row of `SELECT rowid, * FROM …`.
    public init(row: Row) {
        let databaseValues = Array(row.databaseValues)
        id = databaseValues.first.flatMap { Int64.fromDatabaseValue($0) } ?? 0
        columns = Array(row.columnNames.dropFirst())
        values = databaseValues.dropFirst().map(Self.display)
        titleIndex = databaseValues.dropFirst().firstIndex { if case .string = $0.storage { true } else { false } }.map { $0 - 1 } ?? 0
        keyName = "rowid"
    }

    /// Decodes a row of a PostgreSQL table whose key is `key`. The server gives every value
    /// as text, so the title is the first column: the query puts the column to show as the
    /// title first (`ServerTable` puts the first column holding text).
    public init(key: Int64, columns: [String], values: [String?]) {
        self.init(id: key, columns: columns, values: values.map { $0 ?? "NULL" }, keyName: nil)
    }

    /// Makes a record from its parts (previews and tests).
    public init(id: Int64, columns: [String], values: [String], titleIndex: Int = 0, keyName: String? = "rowid") {
        self.id = id
        self.keyName = keyName
        self.columns = columns
        self.values = values
        self.titleIndex = titleIndex
    }

    /// How a value reads: `NULL`, an integer, a real, the text itself, or a blob's size.
    public static func display(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let integer): "\(integer)"
        case .double(let real): "\(real)"
        case .string(let text): text
        case .blob(let data): data.count == 1 ? "1 byte" : "\(data.count) bytes"
        }
    }

    /// The title: the value of the first column holding text.
    public var title: String { values.indices.contains(titleIndex) ? values[titleIndex] : tr("Row %lld", id) }

    /// The name of the column shown as the title.
    public var titleColumn: String? { columns.indices.contains(titleIndex) ? columns[titleIndex] : nil }

    /// The value of `column` (nil when the table has no such column).
    public func value(of column: String) -> String? {
        columns.firstIndex(of: column).map { values[$0] }
    }

    /// The first `count` columns other than the title and those in `skipping`, as
    /// "name: value" pairs.
    public func summary(_ count: Int = 3, skipping: Set<String> = []) -> String {
        columns.indices.filter { $0 != titleIndex && !skipping.contains(columns[$0]) }.prefix(count)
            .map { "\(columns[$0]): \(values[$0])" }
            .joined(separator: " · ")
    }
}
