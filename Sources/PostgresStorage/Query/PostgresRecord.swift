import Foundation

/// A record a `PostgresQueryStorage` makes of each row it reads: from the row's key and
/// its values as the server writes them as text.
public protocol PostgresRecordDecodable: Equatable, Sendable {
    /// A record of the row `key` whose `columns` hold `values` (nil for NULL), in the same
    /// order.
    init(key: Int64, columns: [String], values: [String?]) throws
}

/// A row's values as text, by column: the record of a table whose columns are not known
/// in advance (a viewer's).
public struct PostgresRecord: PostgresRecordDecodable, Hashable {
    /// The row's key (the query's `key` column).
    public let key: Int64
    /// The columns, in the query's order.
    public let columns: [String]
    /// Their values as text, nil for NULL.
    public let values: [String?]

    public init(key: Int64, columns: [String], values: [String?]) {
        self.key = key
        self.columns = columns
        self.values = values
    }

    /// The value of `column` (nil for NULL or no such column).
    public subscript(column: String) -> String? {
        columns.firstIndex(of: column).flatMap { values[$0] }
    }
}
