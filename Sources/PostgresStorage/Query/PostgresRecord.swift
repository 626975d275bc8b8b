import Foundation

/// A record a `PostgresQueryStorage` makes of each row it reads: from the row's values
/// as the server writes them as text.
public protocol PostgresRecordDecodable: Equatable, Sendable {
    /// A record of the values of `columns` (nil for NULL), in the same order.
    init(columns: [String], values: [String?]) throws
}

/// A row's values as text, by column: the record of a table whose columns are not known
/// in advance (a viewer's).
public struct PostgresRecord: PostgresRecordDecodable, Hashable {
    /// The columns, in the query's order.
    public let columns: [String]
    /// Their values as text, nil for NULL.
    public let values: [String?]

    public init(columns: [String], values: [String?]) {
        self.columns = columns
        self.values = values
    }

    /// The value of `column` (nil for NULL or no such column).
    public subscript(column: String) -> String? {
        columns.firstIndex(of: column).flatMap { values[$0] }
    }
}
