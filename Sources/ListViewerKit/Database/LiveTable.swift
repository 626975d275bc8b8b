import Foundation
import GRDB
import ListViewManager
import ModelStorage
import SQLiteStorage

/// A table's rows as a storage that reads them a page at a time and follows the database:
/// its own writers' and other programs' commits show up in the list as they happen, and a
/// search or a sort changes the query itself. It follows the table's schema too (a column
/// renamed, added or dropped, the table made again: the search and the sort look in the
/// columns there are), and the file at its path (another file moved there is opened and
/// shown instead). No query runs on the main thread.
@MainActor
public final class LiveTable: FollowedTable {
    /// The database file.
    public let path: String
    /// The database file.
    public var origin: String { path }

    /// How the rows follow the file, a line each, as the title's tooltip says it: each
    /// commit read from the table's change log, or by reading every rowid (and how to add
    /// the log).
    public var following: [String] {
        guard storage.isLoaded else { return [] }
        return [storage.followsChangeLog ? tr("each commit is read from the table's change log")
                                         : tr("table %@ has no change log: each commit reads every rowid (list-viewer --install-change-log adds one)", tableName)]
    }
    /// The table, its columns and its sections, as last read: read again when the schema
    /// changes or another file takes the path.
    public internal(set) var query: TableQuery
    /// The rows, for `ListViewManager.storage`: `PagedRow<DatabaseRecord>`s in sections of
    /// the section column's values, or in one section headed by the table's name.
    public let storage: PagedQueryStorage<DatabaseRecord>
    /// The search in force.
    public private(set) var search = ""
    /// The order within the sections in force (a column, or the rowid's name), nil for the
    /// rowid's.
    public internal(set) var order: (column: String, ascending: Bool)?
    /// Called after each read of the rows' places is shown (the first, a change in the
    /// database, a search or a sort).
    public var onFetch: () -> Void = {}
    /// Called when a read fails (rows that cannot be read; the table dropped or the file
    /// emptied later, say) with the message for the user, which says the rows stay as they
    /// were once some were shown.
    public var onError: (String) -> Void = { _ in }
    /// Called once the first rows shown have their records (or the table has no rows).
    public var onFirstRows: () -> Void = {}
    /// Called when the columns change (the schema changed, or another file took the path).
    public var onColumnsChange: () -> Void = {}

    /// The connection to the file (read-only); another one once another file takes the path.
    var database: DatabaseQueue
    /// The schema's version when `query` was last read, nil before the first look
    /// (`LiveTable+Schema`).
    var schemaVersion: Int?
    /// Whether `database` was closed because another file took the path (and is being
    /// opened, or could not be): the errors of its reads are not shown.
    var oldFileClosed = false
    /// Where the schema is read and the file opened again, off the main thread.
    let schemaQueue = DispatchQueue(label: "list-viewer.schema")

    /// Opens the table `table` of the database at `path` (its only table when nil),
    /// sectioned by the column `sectionBy` when given, and starts reading its rows. Opens
    /// the file and reads its schema on the calling thread (`DatabaseFile.open`); a window
    /// does that off the main thread, then makes its table with `init(path:database:query:)`.
    /// - Throws: `DatabaseProblem`, whose description is the message for the user.
    public convenience init(path: String, table: String?, sectionBy: String?) throws {
        let (database, query) = try DatabaseFile.open(path, table: table, sectionBy: sectionBy)
        self.init(path: path, database: database, query: query)
    }

    /// The rows of `query`'s table in `database` (opened by `DatabaseFile.open`), read off
    /// the main thread from now on.
    public init(path: String, database: DatabaseQueue, query: TableQuery) {
        self.path = path
        self.query = query
        self.database = database
        storage = PagedQueryStorage(database: database, query: query.pagedQuery(), header: query.header(ofSectionValue:))
        report(storage) { [weak self] in self?.lookAtSchema() }
        storage.onError = { [weak self] error in self?.readFailed(error) }
    }

    isolated deinit {
        storage.stopObserving()
    }

    public var tableName: String { query.table }
    public var shownColumns: [String] { query.shownColumns }
    public var keyName: String { query.rowIDName }
    public var columnsShownElsewhere: Set<String> { query.columnsShownElsewhere }
    public var rows: any Storage { storage }

    /// Shows only the rows containing every whitespace-separated term of `text` (in any
    /// column), read off the main thread; the list changes when they are read.
    public func setSearch(_ text: String) {
        search = text
        storage.setQuery(query.pagedQuery(matching: search, sortedBy: order))
    }

    /// Shows each section's rows ordered by `order` (the table view's sorting: a column of
    /// the query, or the rowid's name), nil for the rowid's order.
    public func setOrder(_ order: (column: String, ascending: Bool)?) {
        guard order?.column != self.order?.column || order?.ascending != self.order?.ascending else { return }
        self.order = order
        storage.setQuery(query.pagedQuery(matching: search, sortedBy: order))
    }

    /// Stops following the database.
    public func stopObserving() {
        storage.stopObserving()
    }

    static func message(_ error: Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }
}
