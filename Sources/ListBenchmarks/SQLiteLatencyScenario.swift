import CGtk
import Foundation
import GRDB
import ListViewManager
import ModelStorage
import SQLiteStorage

/// The time from a commit by another connection to the frame that shows it, for the paged
/// SQLite storage following its table through the change log (`SQLiteChangeLog`): a list of
/// N books by title (the paged scenarios' table, indexed by title) in a window, and 1,000
/// commits, one after another, alternately a new book (a row inserted on screen, second from
/// the top, with the book the commit before inserted deleted) and a new title for that book
/// (a row updated in place), timed as `postgres_latency` times them. The storage finds another
/// connection's commits by polling `data_version`: `sqlite_latency` keeps its defaults (a poll
/// every 100 ms, a coalescing delay of 20 ms); `sqlite_latency_undelayed` polls every 10 ms and
/// reads at once.
enum SQLiteLatencyScenario {
    static let commits = 1_000

    @MainActor
    static func run(_ scenario: String, count: Int) -> Measurement? {
        guard GtkScenarios.openDisplay() else { return nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("list-benchmarks-latency-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("books.sqlite").path
        let storage: PagedQueryStorage<BenchmarkBook>
        let writer: DatabaseQueue
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try PagedScenarios.makeTable(at: path, rows: count)
            writer = try DatabaseQueue(path: path)
            try writer.write { db in
                try db.execute(sql: "CREATE INDEX book_title ON book (title)")
                try SQLiteChangeLog.install(on: "book", in: db)
            }
            let undelayed = scenario.hasSuffix("undelayed")
            storage = PagedQueryStorage<BenchmarkBook>(
                database: try DatabasePool(path: path), query: PagedQuery(table: "book", orderBy: "title"),
                pollInterval: undelayed ? .milliseconds(10) : .milliseconds(100), coalescingDelay: undelayed ? .zero : .milliseconds(20))
        } catch {
            writeToStandardError("list-benchmarks: no table for \(scenario): \(error)")
            return nil
        }
        let manager = ListViewManager(storage: storage)
        manager.register(LatencyBookRow.self)
        let window = GtkScenarios.window(showing: manager)
        while !LatencyBookRow.isShown("Title 0") { g_main_context_iteration(nil, 1) }

        let probe = PostgresLatencyScenario.Probe()
        let clock = gtk_widget_get_frame_clock(window)!
        let handler = Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
            if probe.painted == nil, LatencyBookRow.isShown(probe.expected) { probe.painted = .now }
        }
        var latencies: [Double] = []
        let readsBefore = storage.keyReadCount
        for commit in 1...commits {
            // "Title 0 …" sorts right after "Title 0", the first book.
            let expected = "Title 0, commit \(commit)"
            probe.expected = expected
            probe.painted = nil
            let sent = ContinuousClock.now
            do {
                try writer.write { db in
                    if commit % 2 == 1 {
                        try db.execute(sql: "DELETE FROM book WHERE rowid > ?", arguments: [count])
                        try db.execute(sql: "INSERT INTO book (rowid, title, author, genre, year, pages) VALUES (?, ?, 'Author', 'Genre 00', 2000, 100)",
                                       arguments: [count + commit, expected])
                    } else {
                        try db.execute(sql: "UPDATE book SET title = ? WHERE rowid = ?", arguments: [expected, count + commit - 1])
                    }
                }
            } catch {
                writeToStandardError("list-benchmarks: a commit failed: \(error)")
                return nil
            }
            let deadline = ContinuousClock.now + .seconds(10)
            while probe.painted == nil && ContinuousClock.now < deadline {
                if g_main_context_iteration(nil, 0) == 0 { usleep(100) }
            }
            guard let painted = probe.painted else {
                writeToStandardError("list-benchmarks: commit \(commit) not shown in 10 s")
                return nil
            }
            latencies.append(milliseconds(of: painted - sent))
        }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(clock).assumingMemoryBound(to: GObject.self), handler)
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
        storage.stopObserving()
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
}
