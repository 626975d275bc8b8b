import Foundation
import ListViewManager
import PostgresStorage

extension ViewerWindow {
    /// Shows the rows of a table of the PostgreSQL database at `address`, read a page at a
    /// time and following the server live. The table's schema is read off the main thread;
    /// a problem (no server, a refused password, no such table or column) is shown in the
    /// banner and the list stays as it was. While the connection is lost, the banner says
    /// "Reconnecting…" and the rows stay; it goes when the server is back.
    /// - Parameters:
    ///   - table: the table to show; nil for the database's only table.
    ///   - sectionBy: the column whose values make the sections; nil for one section
    ///     headed by the table's name.
    ///   - environment: where `PGPASSWORD` and `PGPASSFILE` are looked up.
    public func openServerTable(_ address: PostgresAddress, table: String? = nil, sectionBy: String? = nil,
                                environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard !isClosed else { return }
        databaseOpens += 1
        let (attempt, generation) = (databaseOpens, loadGeneration)
        Task { [weak self] in
            let result: Result<PostgresTable, Error>
            do {
                result = .success(try await ServerTable.inspect(address, table: table, sectionBy: sectionBy, environment: environment))
            } catch {
                result = .failure(error)
            }
            guard let self, !isClosed, attempt == databaseOpens, generation == loadGeneration else { return }
            show(result.map { read in
                let shown = ServerTable(address: address, table: read, sectionColumn: sectionBy, environment: environment)
                shown.onStateChange = { [weak self, unowned shown] state in self?.showConnection(state, of: shown) }
                return (shown, "\(address.database) — \(read.name)")
            })
        }
    }

    /// Says in the banner that the connection to `table`'s server is being made again, and
    /// takes that away once it is; says in the title's tooltip how the rows follow the
    /// server (`ServerTable.following`).
    private func showConnection(_ state: PostgresQueryStorage<DatabaseRecord>.State, of table: ServerTable) {
        guard table === followedTable else { return }
        switch state {
        case .reconnecting(let attempt):
            showProblem(tr("Reconnecting… the connection to %@ was lost (attempt %ld); the rows shown are those last read", table.address.description, attempt))
            fetchError = .reconnecting
        case .live, .polling:
            if fetchError == .reconnecting {
                hideProblem()
                fetchError = .none
            }
            showFollowing(table)
        case .connecting, .stopped:
            break
        }
    }
}
