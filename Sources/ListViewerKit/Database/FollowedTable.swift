import ListViewManager
import ModelStorage

/// A database table the viewer shows and follows as it changes: an SQLite file's
/// (`LiveTable`) or a PostgreSQL server's (`ServerTable`). Its rows are
/// `PagedRow<DatabaseRecord>`s, read a page at a time; a search and a sort change the
/// query itself.
@MainActor
public protocol FollowedTable: AnyObject {
    /// The table's name.
    var tableName: String { get }
    /// Where the table is: the file's path, the server's address.
    var origin: String { get }
    /// How the rows follow the database, a line each (the title's tooltip says it under
    /// `origin`): from a change log, or by reading again; and what went wrong and was
    /// repaired.
    var following: [String] { get }
    /// The columns rows are read with, in the table's order: the table view's columns.
    var shownColumns: [String] { get }
    /// The name of the key that tells rows apart (SQLite's rowid, a PostgreSQL integer
    /// key): what the table view's first column shows and sorts by.
    var keyName: String { get }
    /// The columns a row's summary need not repeat: its header or its key says them.
    var columnsShownElsewhere: Set<String> { get }
    /// The search in force.
    var search: String { get }
    /// The rows, for `ListViewManager.storage`.
    var rows: any Storage { get }
    /// Called after each read of the rows' places is shown (the first, a change in the
    /// database, a search or a sort).
    var onFetch: () -> Void { get set }
    /// Called when a read fails, with the message for the user (the rows stay as they
    /// were).
    var onError: (String) -> Void { get set }
    /// Called once the first rows shown have their records (or the table has no rows).
    var onFirstRows: () -> Void { get set }
    /// Called when `shownColumns` or `keyName` change: the table's schema changed (a column
    /// renamed, added or dropped, the table made again), or the file was replaced.
    var onColumnsChange: () -> Void { get set }

    /// Shows only the rows containing every whitespace-separated term of `text` (in any
    /// column); the list changes when they are read.
    func setSearch(_ text: String)
    /// Orders each section's rows by a column of `shownColumns` (or `keyName`), nil for the
    /// key's order.
    func setOrder(_ order: (column: String, ascending: Bool)?)
    /// Stops following the database.
    func stopObserving()
}

extension FollowedTable {
    /// The number of rows shown.
    public var rowCount: Int {
        (0..<rows.numberOfSections()).reduce(0) { $0 + rows.numberOfItems(inSection: $1) }
    }

    /// Calls `onFetch` (then `afterLoad`) after each read of `storage`'s rows' places, and
    /// `onFirstRows` once its first rows shown have their records (or it has none).
    func report<SectionValue>(_ storage: PagedStorage<DatabaseRecord, SectionValue>, afterLoad: @escaping () -> Void = {}) {
        storage.onLoad = { [weak self, unowned storage] in
            guard let self else { return }
            onFetch()
            afterLoad()
            if storage.loadCount == 1, storage.numberOfSections() == 0 || storage.numberOfItems(inSection: 0) == 0 { onFirstRows() }
        }
        var firstRowsTold = false
        storage.onPage = { [weak self] _ in
            guard let self, !firstRowsTold else { return }
            firstRowsTold = true
            onFirstRows()
        }
    }

    /// Reports to `onError` that the rows cannot be read, for `reason`; `loaded` says some
    /// were shown (and stay).
    func reportReadError(_ reason: String, loaded: Bool) {
        onError(loaded ? tr("Cannot read table %@ (the rows shown are those last read): %@", tableName, reason)
                       : tr("Cannot read table %@: %@", tableName, reason))
    }
}
