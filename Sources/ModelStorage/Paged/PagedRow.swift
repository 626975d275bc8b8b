import Foundation

/// An item of a paged storage (`PagedQueryStorage` of SQLiteStorage, `PostgresQueryStorage`
/// of PostgresStorage): a row of the query, whose record is there once its page has been read.
///
/// A row type registered for `PagedRow<Record>` shows a placeholder state while `record` is
/// nil (a row's `update(with:)` is called again, in place, when the page arrives).
///
/// A storage shows its first rows before it has read every key: a row further down is then
/// a placeholder whose key is not known yet either (`id` nil), until the keys are read.
public struct PagedRow<Record: Sendable>: Identifiable, Sendable {
    /// The row's key: its rowid in SQLite, its integer key column in PostgreSQL; nil for a
    /// placeholder shown before the keys around it were read.
    public let id: Int64?
    /// The row's record, or nil while its page is being read.
    public let record: Record?

    /// A row with its record, or a placeholder (`record` nil).
    public init(id: Int64?, record: Record?) {
        self.id = id
        self.record = record
    }

    /// Whether the record is still being read.
    public var isPlaceholder: Bool { record == nil }
}

extension PagedRow: Equatable where Record: Equatable {}
