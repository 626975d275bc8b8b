import Foundation
import GRDB
import ListViewManager
import SQLiteStorage

/// A table's rows as a storage that follows the database: its own writers' and other
/// programs' commits show up in the list as they happen, and a search narrows the rows
/// through the query itself.
@MainActor
public final class LiveTable {
    /// The database file.
    public let path: String
    /// The table, its columns and its sections.
    public let query: TableQuery
    /// The rows, for `ListViewManager.storage`: a `FetchedResultsStorage` of `DatabaseRecord`s,
    /// in sections of the section column's values, or in one section headed by the table's
    /// name.
    public let storage: Storage
    /// The search in force.
    public private(set) var search = ""
    /// Called after each fetch is applied (a change in the database, or a search).
    public var onFetch: () -> Void = {}
    /// Called when a fetch fails (the table was dropped, the file emptied, say) with the
    /// message for the user, which says the rows stay as they were.
    public var onError: (String) -> Void = { _ in }

    private let setRequest: (SQLRequest<DatabaseRecord>) throws -> Void
    private let setOrder: (((DatabaseRecord, DatabaseRecord) -> Bool)?) -> Void
    private let stop: () -> Void

    /// Opens the table `table` of the database at `path` (its only table when nil),
    /// sectioned by the column `sectionBy` when given.
    /// - Throws: `DatabaseProblem`, whose description is the message for the user.
    public init(path: String, table: String?, sectionBy: String?) throws {
        let (database, query) = try DatabaseFile.open(path, table: table, sectionBy: sectionBy)
        self.path = path
        self.query = query
        let parts: Parts
        do {
            parts = query.sectionColumn != nil
                ? Self.parts(of: try FetchedResultsStorage(database: database, request: query.request(),
                                                           sectionedBy: query.sectionID(of:), header: query.header(ofSection:)))
                // One section, kept (with its header) when no row is left.
                : Self.parts(of: try FetchedResultsStorage(database: database, request: query.request(), header: query.table))
        } catch {
            throw DatabaseProblem("Cannot read table \(query.table): \(Self.message(error))")
        }
        storage = parts.storage
        setRequest = parts.setRequest
        setOrder = parts.setOrder
        stop = parts.stop
        parts.report(self)
    }

    /// What the table uses of a storage, whatever its section type.
    private typealias Parts = (storage: Storage, setRequest: (SQLRequest<DatabaseRecord>) throws -> Void,
                               setOrder: (((DatabaseRecord, DatabaseRecord) -> Bool)?) -> Void,
                               stop: () -> Void, report: (LiveTable) -> Void)

    private static func parts<SectionID>(of storage: FetchedResultsStorage<DatabaseRecord, SectionID>) -> Parts {
        (storage, storage.setRequest, { storage.sortOrder = $0 }, storage.stopObserving, { table in
            storage.onFetch = { [weak table] in MainActor.assumeIsolated { table?.onFetch() } }
            storage.onError = { [weak table] error in
                MainActor.assumeIsolated {
                    guard let table else { return }
                    table.onError("Cannot read table \(table.query.table) (the rows shown are those last read): \(message(error))")
                }
            }
        })
    }

    isolated deinit {
        stop()
    }

    /// The number of rows shown.
    public var rowCount: Int {
        (0..<storage.numberOfSections()).reduce(0) { $0 + storage.numberOfItems(inSection: $1) }
    }

    /// Shows only the rows containing every whitespace-separated term of `text` (in any
    /// column); the list changes by the rows that differ.
    /// - Throws: `DatabaseProblem` when the database cannot be read; the rows stay.
    public func setSearch(_ text: String) throws {
        do {
            try setRequest(query.request(matching: text))
            search = text
        } catch {
            throw DatabaseProblem("Cannot search \(query.table): \(Self.message(error))")
        }
    }

    /// Shows each section's rows in `order` (the table view's sorting) instead of the
    /// query's, nil for the query's order; rows fetched later are sorted the same way.
    public func setSortOrder(_ order: ((DatabaseRecord, DatabaseRecord) -> Bool)?) {
        setOrder(order)
    }

    /// Stops following the database.
    public func stopObserving() {
        stop()
    }

    private static func message(_ error: Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }
}
