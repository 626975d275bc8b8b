import Foundation
import GRDB
import ModelStorage
import SQLiteStorage

/// Commits to the paged scenarios' table, each shown by a `PagedQueryStorage` before the next
/// is made: with the table's change log (`SQLiteChangeLog`) and without it (every rowid read
/// again). `paged_commits` / `paged_commits_logged`.
enum PagedCommitScenario {
    /// `commits` commits (the table indexed by its order, genre then title) through the storage's own pool (seen at once, then read after the
    /// storage's 20 ms coalescing delay), in turn: a row's title changed (it moves), a row
    /// inserted, a row deleted. Commit to shown (the storage's `onLoad`): median and 99th
    /// percentile; the process's CPU per commit (the writes' own included); how many reads of
    /// every rowid the storage made after opening.
    static func run(_ path: String, rows: Int, logged: Bool, commits: Int) throws -> Measurement {
        let database = try DatabasePool(path: path)
        // The order's index, as an app showing this order would have: without it, every read
        // of the rowids is a sort of the table.
        try database.write { db in try db.execute(sql: "CREATE INDEX IF NOT EXISTS book_genre_title ON book (genre, title)") }
        let installStart = ContinuousClock.now
        if logged { try database.write { db in try SQLiteChangeLog.install(on: "book", in: db) } }
        let install = milliseconds(of: ContinuousClock.now - installStart)
        let storage = PagedQueryStorage<BenchmarkBook>(database: database, query: PagedQuery(table: "book", orderBy: "title", sectionBy: "genre"))
        _ = PagedScenarios.waitForFirstScreen(of: storage)
        let keyReads = storage.keyReadCount
        var random = SeededRandom(seed: 35)
        var latencies: [Double] = []
        let cpuStart = cpuMilliseconds()
        for commit in 0..<commits {
            let row = 1 + Int(random.nextUnit() * Double(rows - 1))
            let loads = storage.loadCount
            let written = ContinuousClock.now
            try database.write { db in
                switch commit % 3 {
                case 0: try db.execute(sql: "UPDATE book SET title = 'Title ' || ? WHERE rowid = ?", arguments: [row * 31 % rows, row])
                case 1: try db.execute(sql: "INSERT INTO book VALUES ('Title ' || ?, 'Author 1', 'Genre ' || printf('%02d', ? % 100), 2000, 100)",
                                       arguments: [row, row])
                default: try db.execute(sql: "DELETE FROM book WHERE rowid = (SELECT max(rowid) FROM book)")
                }
            }
            spin { storage.loadCount > loads }
            latencies.append(milliseconds(of: ContinuousClock.now - written))
        }
        let cpu = (cpuMilliseconds() - cpuStart) / Double(commits)
        storage.stopObserving()
        if logged { try database.write { db in try SQLiteChangeLog.remove(from: "book", in: db) } }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
        return Measurement(scenario: logged ? "paged_commits_logged" : "paged_commits", n: rows, wallMilliseconds: percentile(0.5), extra: [
            ("commits", Double(commits)),
            ("p99_ms", percentile(0.99)),
            ("cpu_per_commit_ms", cpu),
            ("key_reads_after_opening", Double(storage.keyReadCount - keyReads)),
            ("install_ms", install),
        ])
    }
}
