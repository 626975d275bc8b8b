import Foundation
import ListViewManager
import ModelStorage
import PostgresStorage

/// A table of a PostgreSQL database as the viewer shows it: its rows read a page at a
/// time, following the server live (`PostgresQueryStorage`: through `LISTEN` when the table
/// has the change trigger, else by polling), and connecting again when the server goes.
/// A search and a sort change the query itself. A read that fails because the table changed
/// (a column renamed or dropped, the table made again) reads the table's columns again and
/// the rows with them.
@MainActor
public final class ServerTable: FollowedTable {
    /// Where the table is.
    public let address: PostgresAddress
    /// The table, its columns and its key, as last read.
    public private(set) var table: PostgresTable
    /// The column whose values make the sections, if any.
    public let sectionColumn: String?
    /// The rows: `PagedRow<DatabaseRecord>`s whose records hold the table's columns, the
    /// title's first (see `DatabaseRecord.init(key:columns:values:)`).
    public let storage: PostgresQueryStorage<DatabaseRecord>
    public private(set) var search = ""
    /// The order within the sections in force, nil for the key's.
    public private(set) var order: (column: String, ascending: Bool)?
    public var onFetch: () -> Void = {}
    public var onError: (String) -> Void = { _ in }
    public var onFirstRows: () -> Void = {}
    public var onColumnsChange: () -> Void = {}
    /// Called when the way the storage follows the server changes (`storage.state`, its
    /// `wakeUpInUse`).
    public var onStateChange: (PostgresQueryStorage<DatabaseRecord>.State) -> Void = { _ in }
    /// Where `PGPASSWORD` and `PGPASSFILE` are looked up.
    private let environment: [String: String]

    /// The rows of `table` (read by `inspect`) at `address`, in sections of the values of
    /// `sectionColumn`, read off the main thread from now on.
    /// - Parameters:
    ///   - environment: where `PGPASSWORD` and `PGPASSFILE` are looked up.
    public init(address: PostgresAddress, table: PostgresTable, sectionColumn: String?,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.address = address
        self.table = table
        self.sectionColumn = sectionColumn
        self.environment = environment
        let name = table.name
        storage = PostgresQueryStorage(address: address, query: Self.query(of: table, sectionBy: sectionColumn, search: "", order: nil),
                                       environment: environment,
                                       header: { value in sectionColumn.map { "\($0): \(value ?? "NULL")" } ?? name })
        // A drift repaired is said with the read that repaired it (`onFetch`).
        report(storage)
        storage.onError = { [weak self] error in
            guard let self else { return }
            // While the server is away, the banner says "Reconnecting…", not each page's failure.
            if error.isConnectionProblem, case .reconnecting = storage.state { return }
            guard !error.isConnectionProblem else { return reportReadError(error.localizedDescription, loaded: storage.isLoaded) }
            // A query of columns the table no longer has is made again from those it has;
            // a read made before then, or followed by one that succeeded, is not reported.
            let (failed, loads) = (table, storage.loadCount)
            lookAtTable { [weak self] in
                guard let self, table == failed, storage.loadCount == loads else { return }
                reportReadError(error.localizedDescription, loaded: storage.isLoaded)
            }
        }
        storage.onStateChange = { [weak self] state in self?.onStateChange(state) }
    }

    isolated deinit {
        storage.close()
    }

    /// The server's address.
    public var origin: String { address.description }

    /// How the rows follow the server, a line each, as the title's tooltip says it: told
    /// of each commit (`LISTEN`), looking in the change log every so often (through
    /// PgBouncer, on a replica), or polling a table without the trigger; and the writes the
    /// log missed that were found and repaired.
    public var following: [String] {
        var lines: [String] = []
        switch (storage.state, storage.wakeUpInUse) {
        case (.live, .listen):
            lines.append(tr("each commit is told at once (LISTEN)"))
        case (.live, .pollLog(let interval)):
            lines.append(tr("changes are looked for in the change log every %lld ms", Int64((interval / .milliseconds(1)).rounded())))
        case (.polling, _):
            lines.append(tr("table %@ has no change trigger: changes are looked for every %lld s", tableName,
                            storage.pollInterval.components.seconds))
        default:
            break
        }
        if storage.driftsRepaired > 0 {
            lines.append(tr("writes the change log did not record, found and repaired: %ld", storage.driftsRepaired))
        }
        return lines
    }

    /// Connects to `address` and reads the table `name` (the current schema's only table
    /// when nil), checking that it has an integer key and the column `sectionBy`.
    /// - Throws: `DatabaseProblem`, whose description is the message for the user: no
    ///   server, a refused password, an unknown database, table or column, several tables
    ///   and none named, or a table without an integer key.
    public nonisolated static func inspect(_ address: PostgresAddress, table name: String?, sectionBy: String?,
                                           environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> PostgresTable {
        let table: PostgresTable
        do {
            table = try await PostgresTable.read(name, at: address, environment: environment)
        } catch {
            throw DatabaseProblem(error.localizedDescription)
        }
        let columns = table.columns.map(\.name)
        if let sectionBy, !columns.contains(sectionBy) {
            throw DatabaseProblem.noColumn(sectionBy, in: table.name, columns: columns)
        }
        guard table.integerKey != nil else {
            throw DatabaseProblem(tr("table %@ has no integer key (a primary key, or a unique column never NULL), which the viewer follows its rows by", table.name))
        }
        return table
    }

    /// Installs the change log and its trigger (`PostgresChangeLog`) on the table `name`
    /// at `address` (the current schema's only table when nil), in one transaction, so that
    /// the viewer, and any `PostgresQueryStorage` following the table, is told of each commit
    /// and reads it from the log instead of reading every key.
    /// - Throws: `DatabaseProblem`, whose description is the message for the user: those of
    ///   `inspect`, and a refusal of the server (a user who may not make the trigger).
    public nonisolated static func installChangeLog(_ address: PostgresAddress, table name: String?,
                                                    environment: [String: String] = ProcessInfo.processInfo.environment) async throws {
        let table = try await inspect(address, table: name, sectionBy: nil, environment: environment)
        do {
            let connection = try await address.connect(environment: environment)
            do {
                try await PostgresChangeLog.install(on: table.name, key: table.integerKey ?? "id", connection: connection)
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        } catch {
            throw DatabaseProblem(tr("Cannot install the change log on table %@: %@", table.name, error.localizedDescription))
        }
    }

    public var tableName: String { table.name }
    public var shownColumns: [String] { table.columns.map(\.name) }
    public var keyName: String { table.integerKey ?? "id" }
    public var columnsShownElsewhere: Set<String> { Set([sectionColumn, table.integerKey].compactMap { $0 }) }
    public var rows: any Storage { storage }

    public func setSearch(_ text: String) {
        search = text
        storage.setQuery(Self.query(of: table, sectionBy: sectionColumn, search: search, order: order))
    }

    public func setOrder(_ order: (column: String, ascending: Bool)?) {
        guard order?.column != self.order?.column || order?.ascending != self.order?.ascending else { return }
        self.order = order
        storage.setQuery(Self.query(of: table, sectionBy: sectionColumn, search: search, order: order))
    }

    /// Reads the table's columns and key again, off the main thread; when they changed (and
    /// the table can still be shown: its key and section column are there), shows the rows as
    /// the search and the sort in force read them now (a sort by a column that went is
    /// dropped). Then runs `done`.
    private func lookAtTable(then done: @escaping () -> Void) {
        let (address, name, environment) = (address, table.name, environment)
        Task { [weak self] in
            let read = try? await PostgresTable.read(name, at: address, environment: environment)
            self?.take(read)
            done()
        }
    }

    /// Takes the table as read again.
    private func take(_ read: PostgresTable?) {
        guard let read, read != table, read.integerKey != nil,
              sectionColumn.map({ section in read.columns.contains { $0.name == section } }) ?? true else { return }
        table = read
        if let order, order.column != keyName, !shownColumns.contains(order.column) { self.order = nil }
        storage.setQuery(Self.query(of: table, sectionBy: sectionColumn, search: search, order: order))
        onColumnsChange()
    }

    /// Stops following the server and closes the connections (the viewer leaves the table
    /// or closes the window): the rows shown stay.
    public func stopObserving() {
        storage.close()
    }

    /// The rows of `table` containing every whitespace-separated term of `search` (in any
    /// column, ignoring case), in sections of `sectionBy`'s values, ordered by `order`, then
    /// by the key. The first column holding text is read first: the records' title. Typing in
    /// the list finds rows by the column they are sorted by, else by that title.
    static func query(of table: PostgresTable, sectionBy: String?, search: String, order: (column: String, ascending: Bool)?) -> PostgresListQuery {
        let names = table.columns.map(\.name)
        let title = table.columns.first(where: \.holdsText)?.name
        let terms = search.split(whereSeparator: \.isWhitespace).map(String.init)
        // Each term is a bound value looked for in the row's values joined by spaces (a term
        // has none, so it never matches across two columns).
        let rowText = "lower(array_to_string(ARRAY[\(names.map { "\($0.quotedIdentifier)::text" }.joined(separator: ", "))], ' '))"
        let filter = terms.isEmpty ? nil : terms.indices.map { "strpos(\(rowText), lower($\($0 + 1))) > 0" }.joined(separator: " AND ")
        return PostgresListQuery(table: table.name, columns: title.map { [$0] + names.filter { $0 != title } } ?? names,
                                 key: table.integerKey ?? "id", filter: filter, arguments: terms,
                                 orderBy: order.map { [.init($0.column, ascending: $0.ascending)] } ?? [], sectionBy: sectionBy,
                                 searchBy: order?.column ?? title)
    }
}
