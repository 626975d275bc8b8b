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
        manager.register(LatencyBookRow<BenchmarkBook>.self)
        let window = GtkScenarios.window(showing: manager)
        // Every key read (the first rows show before): the commits are timed alone.
        MainLoop.run { storage.isLoaded && ShownTitles.isShown("Title 0") }
        defer { storage.stopObserving() }
        return CommitToFrame.measure(scenario, count: count, window: window, keyReads: { storage.keyReadCount }) { number, title in
            do {
                try writer.write { db in
                    if number % 2 == 1 {
                        try db.execute(sql: "DELETE FROM book WHERE rowid > ?", arguments: [count])
                        try db.execute(sql: "INSERT INTO book (rowid, title, author, genre, year, pages) VALUES (?, ?, 'Author', 'Genre 00', 2000, 100)",
                                       arguments: [count + number, title])
                    } else {
                        try db.execute(sql: "UPDATE book SET title = ? WHERE rowid = ?", arguments: [title, count + number - 1])
                    }
                }
                return nil
            } catch {
                return "\(error)"
            }
        }
    }
}
