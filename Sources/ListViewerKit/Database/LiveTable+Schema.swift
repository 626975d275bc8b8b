import Foundation
import GRDB
import SQLiteStorage

/// How a live table follows what its query was made from: the table's schema, read again
/// when it changes, and the file at its path, opened again when another file is moved there.
extension LiveTable {
    /// Reads the schema's version off the main thread and, when it is not the one `query`
    /// was read at, the table's schema; shows the rows as the new schema has them when it
    /// differs (a column renamed, added or dropped; the table made again). Then runs `done`.
    func lookAtSchema(then done: @escaping @MainActor () -> Void = {}) {
        let (database, fileName, table, sectionBy, known) = (database, (path as NSString).lastPathComponent, query.table, query.sectionColumn, schemaVersion)
        schemaQueue.async {
            let read = Result {
                try database.read { db -> (version: Int, query: TableQuery?) in
                    let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
                    guard version != known else { return (version, nil) }
                    return (version, try TableQuery.inspect(db, fileName: fileName, table: table, sectionBy: sectionBy))
                }
            }
            Task { @MainActor [weak self] in
                self?.take(read, from: database)
                done()
            }
        }
    }

    /// Takes a read of the schema from `database`. A schema that cannot be read (the table
    /// dropped, or its section column) changes nothing: the rows' own read says what is wrong.
    private func take(_ read: Result<(version: Int, query: TableQuery?), Error>, from database: DatabaseQueue) {
        guard database === self.database, case .success(let schema) = read else { return }
        schemaVersion = schema.version
        guard let read = schema.query, read != query else { return }
        show(read, from: nil)
    }

    /// Shows the rows as `newQuery` reads them (from `newDatabase` when given): the search
    /// and the sort in force looked for in its columns (a sort by a column that went is
    /// dropped), and the table view given the new columns.
    private func show(_ newQuery: TableQuery, from newDatabase: DatabaseQueue?) {
        let columnsChanged = newQuery.shownColumns != query.shownColumns || newQuery.rowIDName != query.rowIDName
        query = newQuery
        if let order, order.column != query.rowIDName, !query.shownColumns.contains(order.column) { self.order = nil }
        let paged = query.pagedQuery(matching: search, sortedBy: order)
        if let newDatabase {
            storage.setDatabase(newDatabase, query: paged)
        } else if paged != storage.query {
            storage.setQuery(paged)
        }
        if columnsChanged { onColumnsChange() }
    }

    /// A read of the rows failed: another file took the path (opened again), or the schema
    /// changed under the query (read again, and the rows with it), or the message says
    /// what is wrong, unless a read of the rows' places succeeded meanwhile.
    func readFailed(_ error: Error) {
        if case SQLiteStorageError.fileReplaced = error { return reopen() }
        // The old file's connection, closed.
        guard !oldFileClosed else { return }
        let (failed, loads) = (query, storage.loadCount)
        lookAtSchema { [weak self] in
            // Read again, with the columns there are now; or read since.
            guard let self, query == failed, storage.loadCount == loads else { return }
            reportReadError(Self.message(error), loaded: storage.isLoaded)
        }
    }

    /// Opens the file at the path again off the main thread, once the connection to the
    /// old file is closed (connections to two files at one path would share the journal
    /// files named after it), and shows its rows: as the changes from the rows shown when
    /// they are the same table's.
    private func reopen() {
        guard !oldFileClosed else { return }
        oldFileClosed = true
        let (old, path, table, sectionBy) = (database, path, query.table, query.sectionColumn)
        schemaQueue.async {
            try? old.close()
            let opened = Result { try DatabaseFile.open(path, table: table, sectionBy: sectionBy) }
            Task { @MainActor [weak self] in self?.reopened(opened) }
        }
    }

    /// Shows the file opened again, or why it cannot be (the rows shown stay, and the
    /// old file's connection stays closed).
    private func reopened(_ result: Result<(DatabaseQueue, TableQuery), Error>) {
        switch result {
        case .success(let (database, query)):
            self.database = database
            oldFileClosed = false
            schemaVersion = nil
            show(query, from: database)
        case .failure(let problem):
            onError(tr("%@ was replaced by another file, which cannot be shown: %@", (path as NSString).lastPathComponent, "\(problem)"))
        }
    }
}
