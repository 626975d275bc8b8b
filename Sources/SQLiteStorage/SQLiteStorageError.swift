import Foundation

/// What a storage reports to its `onError` besides the database's own errors.
public enum SQLiteStorageError: Error, Equatable, Sendable {
    /// Another file now has the database's path (`mv new.db old.db`, a program that saves
    /// by renaming a new file over the old one): the storage's connections still read the
    /// file they opened, which nobody can write any more, so the storage stopped looking for
    /// changes. Open the path again and give the storage the new connection
    /// (`PagedQueryStorage.setDatabase(_:query:)`) to follow the new file.
    case fileReplaced(path: String)
    /// The table lists rows that cannot be read: in one read, its scan gave a rowid twice,
    /// or a rowid that looking it up does not find. The file is damaged (`PRAGMA
    /// integrity_check` says where); the rows read so far stay, the others placeholders.
    case unreadableRows(table: String)
    /// `SQLiteChangeLog.install(on:rowID:in:)` cannot log this table's rows: it has no rowid
    /// (`WITHOUT ROWID`), or a column has the name given for the rowid (give `_rowid_` or
    /// `oid` instead).
    case noRowID(table: String, rowID: String)
}

extension SQLiteStorageError: LocalizedError {
    /// The message, in the user's language: "PATH was replaced by another file".
    public var errorDescription: String? {
        switch self {
        case .fileReplaced(let path):
            tr("%@ was replaced by another file", path)
        case .unreadableRows(let table):
            tr("the table %@ lists rows that cannot be read: the file is damaged", table)
        case .noRowID(let table, let rowID):
            tr("the table %@ has no rowid called %@ to log its changes by", table, rowID)
        }
    }
}
