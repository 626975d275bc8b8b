import CGtk
import Foundation
import ListViewManager
import Logging
import ModelStorage
import PostgresNIO
import PostgresStorage
import PostgresTestSupport
import Synchronization

/// A book's row in `postgres_latency`: its title. Every row made is listed, so that a frame
/// can tell whether it shows a title.
final class ServerBookRow: ListRow, ModelTransfer {
    private final class Weak { weak var row: ServerBookRow?; init(_ row: ServerBookRow) { self.row = row } }
    nonisolated(unsafe) private static var made: [Weak] = []

    let title = Label()
    required init() {
        super.init()
        append(title)
        Self.made.append(Weak(self))
    }

    func update(with model: PagedRow<ServerBook>) { title.text = model.record?.title ?? "–" }

    /// Whether a row on screen (mapped) shows `text`.
    static func isShown(_ text: String) -> Bool {
        made.contains { $0.row.map { $0.title.text == text && gtk_widget_get_mapped($0.rootWidget) != 0 } ?? false }
    }
}

/// The time from a commit on another connection to the frame that shows it: a list of N
/// books by title from `PostgresQueryStorage` in a window, and 1,000 commits, one after
/// another, alternately a new book (a row inserted on screen, second from the top, with the
/// book the commit before inserted deleted) and a new title for that book (a row updated in
/// place). Each is timed from just before its statement is sent to the end of the first
/// frame painted with a mapped row showing the new title. `postgres_latency` keeps the
/// storage's coalescing delay (20 ms, its default); `postgres_latency_undelayed` sets it to
/// zero.
enum PostgresLatencyScenario {
    static let commits = 1_000

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
        manager.register(ServerBookRow.self)
        let window = GtkScenarios.window(showing: manager)
        while storage.state != .live || !ServerBookRow.isShown("Title 0") { g_main_context_iteration(nil, 1) }

        let writer = Writer(address: server.address(), environment: environment)
        let probe = Probe()
        let clock = gtk_widget_get_frame_clock(window)!
        let handler = Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
            if probe.painted == nil, ServerBookRow.isShown(probe.expected) { probe.painted = .now }
        }
        var latencies: [Double] = []
        let readsBefore = storage.keyReadCount
        for commit in 1...commits {
            // "Title 0 …" sorts right after "Title 0", the first book.
            let expected = "Title 0, commit \(commit)"
            probe.expected = expected
            let statement = commit % 2 == 1
                ? ["BEGIN", "DELETE FROM book WHERE id > \(count)",
                   "INSERT INTO book VALUES (\(count + commit), '\(expected)', 'Author', 'Genre 00', 2000, 100)", "COMMIT"]
                : ["UPDATE book SET title = '\(expected)' WHERE id = \(count + commit - 1)"]
            probe.painted = nil
            let sent = ContinuousClock.now
            writer.run(statement)
            let deadline = ContinuousClock.now + .seconds(10)
            while (probe.painted == nil && writer.failure == nil && ContinuousClock.now < deadline) || !writer.isIdle {
                // Without blocking: the writer's end is no GLib source.
                if g_main_context_iteration(nil, 0) == 0 { usleep(100) }
            }
            if let failure = writer.failure ?? (probe.painted == nil ? "commit \(commit) not shown in 10 s" : nil) {
                writeToStandardError("list-benchmarks: a commit failed: \(failure)")
                return nil
            }
            latencies.append(milliseconds(of: probe.painted! - sent))
        }
        writer.close()
        g_signal_handler_disconnect(UnsafeMutableRawPointer(clock).assumingMemoryBound(to: GObject.self), handler)
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
        return Measurement(scenario: scenario, n: count, wallMilliseconds: percentile(0.5), extra: [
            ("commits", Double(commits)),
            ("median_ms", percentile(0.5)),
            ("p99_ms", percentile(0.99)),
            ("max_ms", sorted.last ?? 0),
            ("min_ms", sorted.first ?? 0),
            ("key_reads", Double(storage.keyReadCount - readsBefore)),
        ])
    }

    /// The title a frame should show, and when the first frame that shows it was painted.
    @MainActor
    final class Probe {
        var expected = ""
        var painted: ContinuousClock.Instant?
    }

    /// Runs statements on a connection of its own, one at a time, off the main thread.
    final class Writer: Sendable {
        private let connection: Task<PostgresConnection, Error>
        private let state = Mutex<(busy: Bool, failure: String?)>((false, nil))

        init(address: PostgresAddress, environment: [String: String]) {
            connection = Task { try await address.connect(environment: environment) }
        }

        var isIdle: Bool { !state.withLock { $0.busy } }
        var failure: String? { state.withLock { $0.failure } }

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
                    state.withLock { $0.busy = false }
                } catch {
                    state.withLock { $0 = (false, "\(error)") }
                }
            }
        }
    }
}
