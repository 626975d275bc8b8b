import CGtk
import Foundation
import ListViewManager
import Logging
import ModelStorage
import PostgresNIO
import PostgresStorage
import PostgresTestSupport
import Synchronization

/// The time from a commit on another connection to the frame that shows it: a list of N
/// books by title from `PostgresQueryStorage` in a window, and 1,000 commits, one after
/// another, alternately a new book (a row inserted on screen, second from the top, with the
/// book the commit before inserted deleted) and a new title for that book (a row updated in
/// place). Each is timed from just before its statement is sent to the end of the first
/// frame painted with a mapped row showing the new title. `postgres_latency` keeps the
/// storage's coalescing delay (20 ms, its default); `postgres_latency_undelayed` sets it to
/// zero.
enum PostgresLatencyScenario {
    @MainActor
    static func run(_ scenario: String, count: Int) -> Measurement? {
        guard GtkScenarios.openDisplay() else { return nil }
        let server: PostgresTestServer
        do {
            server = try PostgresTestServer()
            try PostgresScenarios.makeTable(on: server, rows: count)
            try server.psql("CREATE INDEX book_title ON book (title, id)")
        } catch {
            writeToStandardError("list-benchmarks: no PostgreSQL server for \(scenario): \(error)")
            return nil
        }
        defer { server.stop() }
        let environment = ["PGPASSWORD": PostgresTestServer.ownerPassword, "PGPASSFILE": "/nonexistent"]
        let storage = PostgresQueryStorage<ServerBook>(
            address: server.address(), query: PostgresListQuery(table: "book", columns: ["title", "genre"], orderBy: [.init("title")]),
            environment: environment, coalescingDelay: scenario.hasSuffix("undelayed") ? .zero : .milliseconds(20))
        let manager = ListViewManager(storage: storage)
        manager.register(LatencyBookRow<ServerBook>.self)
        let window = GtkScenarios.window(showing: manager)
        // Every key read (the first rows show before): the commits are timed alone.
        MainLoop.run { storage.state == .live && storage.isLoaded && ShownTitles.isShown("Title 0") }

        let writer = Writer(address: server.address(), environment: environment)
        defer { writer.close() }
        return CommitToFrame.measure(scenario, count: count, window: window, keyReads: { storage.keyReadCount }) { number, title in
            writer.run(number % 2 == 1
                ? ["BEGIN", "DELETE FROM book WHERE id > \(count)",
                   "INSERT INTO book VALUES (\(count + number), '\(title)', 'Author', 'Genre 00', 2000, 100)", "COMMIT"]
                : ["UPDATE book SET title = '\(title)' WHERE id = \(count + number - 1)"])
            return nil
        } writer: {
            (!writer.isIdle, writer.failure)
        }
    }

    /// Runs statements on a connection of its own, one at a time, off the main thread.
    final class Writer: Sendable {
        private let connection: Task<PostgresConnection, Error>
        private let state = Mutex<(busy: Bool, failure: String?)>((false, nil))
        private let finished = Mutex<ContinuousClock.Instant?>(nil)

        init(address: PostgresAddress, environment: [String: String]) {
            connection = Task { try await address.connect(environment: environment) }
        }

        var isIdle: Bool { !state.withLock { $0.busy } }
        var failure: String? { state.withLock { $0.failure } }
        /// When the statements last run were answered (their commit, for a statement alone).
        var lastFinished: ContinuousClock.Instant? { finished.withLock { $0 } }

        /// Closes the connection, waiting until it is closed.
        func close() {
            let closed = Mutex(false)
            Task { [connection] in
                try? await connection.value.close()
                closed.withLock { $0 = true }
            }
            while !closed.withLock({ $0 }) { usleep(1_000) }
        }

        /// Runs `statements` one after another.
        func run(_ statements: [String]) {
            state.withLock { $0.busy = true }
            Task { [self] in
                do {
                    for statement in statements {
                        try await connection.value.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "writer") { _ in SwiftLogNoOpLogHandler() })
                    }
                    finished.withLock { $0 = .now }
                    state.withLock { $0.busy = false }
                } catch {
                    state.withLock { $0 = (false, "\(error)") }
                }
            }
        }
    }
}
