import Foundation
import GRDB
import ModelStorage
import SQLiteStorage
import TestSupport

/// A row of the paged scenarios' table.
struct BenchmarkBook: FetchableRecord, Equatable, Sendable {
    var id: Int64
    var title: String
    var genre: String

    init(row: Row) {
        id = row[0]
        title = row["title"]
        genre = row["genre"]
    }
}

/// `PagedQueryStorage` on tables of N rows (5 columns, made by the scenario in a temporary
/// file, with an index on the section column): opening to a first screen of records, with
/// and without 100 sections, and a row written by another connection arriving (found by
/// the storage's polling, every 100 ms, as in the viewer); commits shown one after another,
/// with and without the table's change log (`PagedCommitScenario`); then the
/// release `list-viewer` opening the same table to a screenshot, against a table of 2 rows
/// (under a display only). `--scenario paged --sizes 1000000,10000000`.
enum PagedScenarios {
    static func run(sizes: [Int], only prefix: String) -> [Measurement] {
        guard !prefix.isEmpty, "paged".hasPrefix(prefix) || prefix.hasPrefix("paged") else { return [] }
        var results: [Measurement] = []
        for size in sizes {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("list-benchmarks-paged-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let path = folder.appendingPathComponent("books.sqlite").path
                try makeTable(at: path, rows: size)
                // `--scenario paged_open`: the openings alone; `paged_commits`, `paged_viewer`: those.
                func wanted(_ name: String) -> Bool { name.hasPrefix(prefix) || prefix.hasPrefix(name) }
                if wanted("paged_open") {
                    results.append(try open(path, rows: size, name: "paged_open", query: PagedQuery(table: "book")))
                    results.append(try open(path, rows: size, name: "paged_open_sections", query: PagedQuery(table: "book", sectionBy: "genre")))
                    // Keys in an order of their own (titles), whose runs pack least.
                    try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE INDEX IF NOT EXISTS book_genre_title ON book (genre, title)") }
                    results.append(try open(path, rows: size, name: "paged_open_by_title", query: PagedQuery(table: "book", orderBy: "title", sectionBy: "genre")))
                    // The scenarios after it find the table as it was made.
                    try DatabaseQueue(path: path).write { db in try db.execute(sql: "DROP INDEX book_genre_title") }
                }
                if wanted("paged_commits") {
                    results.append(try PagedCommitScenario.run(path, rows: size, logged: false, commits: 30))
                    results.append(try PagedCommitScenario.run(path, rows: size, logged: true, commits: 300))
                }
                if wanted("paged_viewer"), let viewer = viewerOpen(path, rows: size, folder: folder) { results += viewer }
            } catch {
                writeToStandardError("list-benchmarks: the paged scenarios at \(size) rows failed: \(error)")
            }
        }
        return results
    }

    /// A table `book` of `rows` rows (title, author, genre of 100, year, pages; about 41
    /// bytes a row), indexed by genre, made by SQLite itself.
    /// A GTK scenario run on a new table of N books (`withBookTable`), with GTK's display open.
    @MainActor
    static func onBookTable(_ scenario: @escaping @MainActor (String, Int, DatabasePool) -> Measurement?) -> @MainActor (String, Int) -> Measurement? {
        { name, count in
            guard GtkScenarios.openDisplay() else { return nil }
            return withBookTable(rows: count) { scenario(name, count, $0) }
        }
    }

    /// Runs `body` on a new table of `rows` books (`makeTable`) in a temporary folder,
    /// removed after; nil, with a message, when the table cannot be made.
    static func withBookTable(rows: Int, _ body: (DatabasePool) -> Measurement?) -> Measurement? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("list-benchmarks-books-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("books.sqlite").path
        let database: DatabasePool
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try makeTable(at: path, rows: rows)
            database = try DatabasePool(path: path)
        } catch {
            writeToStandardError("list-benchmarks: cannot make the table: \(error)")
            return nil
        }
        return body(database)
    }

    static func makeTable(at path: String, rows: Int) throws {
        let database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(sql: """
                CREATE TABLE book (title TEXT NOT NULL, author TEXT NOT NULL, genre TEXT NOT NULL, year INTEGER, pages INTEGER);
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(rows))
                INSERT INTO book SELECT 'Title ' || (x * 7919 % \(rows)), 'Author ' || (x % 5000),
                    'Genre ' || printf('%02d', x % 100), 1900 + x % 120, 100 + x % 900 FROM n;
                CREATE INDEX book_genre ON book (genre);
                """)
        }
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
    }

    /// Opens a storage of `query` and waits for its first screen (30 rows) of records;
    /// then writes a row through another connection and waits for the update.
    private static func open(_ path: String, rows: Int, name: String, query: PagedQuery) throws -> Measurement {
        try measureOpening(name, rows: rows) {
            // The storage as the viewer makes it: polling every 100 ms, its default.
            PagedQueryStorage<BenchmarkBook>(database: try DatabasePool(path: path), query: query)
        } write: { storage in
            // A row written by another connection (found by polling), into the first screen.
            let other = try DatabaseQueue(path: path)
            try other.write { db in try db.execute(sql: "INSERT INTO book VALUES ('Title 0', 'Author 0', 'Genre 00', 2000, 100)") }
            return {
                storage.stopObserving()
                try other.write { db in try db.execute(sql: "DELETE FROM book WHERE rowid = (SELECT max(rowid) FROM book)") }
            }
        }
    }

    /// Makes a storage with `make` and waits for its first screen (30 rows) of records; then,
    /// once it is `ready` to be told of writes, runs `write` (a row written by another
    /// program, into the first screen) and waits for
    /// the storage's update, and runs what `write` returns (which stops the storage and
    /// takes the row away). Its time and memory, and the write's.
    static func measureOpening<Storage: PagedStorage<Record, SectionValue>, Record, SectionValue>(
        _ name: String, rows: Int, make: () throws -> Storage, ready: (Storage) -> Bool = { _ in true },
        write: (Storage) throws -> (() throws -> Void)
    ) throws -> Measurement {
        releaseFreedMemory()
        let residentBefore = residentBytes()
        let start = ContinuousClock.now
        let storage = try make()
        let counter = UpdateRecorder()
        storage.delegate = counter
        let (firstScreen, placesRead) = waitForFirstScreen(of: storage)
        let residentAdded = Double(residentBytes() - residentBefore) / 1_048_576
        spin { ready(storage) }

        counter.updates = []
        let written = ContinuousClock.now
        let undo = try write(storage)
        spin { !counter.updates.isEmpty }
        let arrived = ContinuousClock.now
        spin(for: .milliseconds(200))  // any further update the write would cause
        try undo()
        return Measurement(scenario: name, n: rows, wallMilliseconds: milliseconds(of: firstScreen - start), extra: [
            ("places_read_ms", milliseconds(of: placesRead - start)),
            ("rss_added_mb", residentAdded),
            ("sections", Double(storage.numberOfSections())),
            ("write_shown_ms", milliseconds(of: arrived - written)),
            ("updates_for_write", Double(counter.updates.count)),
            ("pages_read", Double(storage.pagesRead)),
        ])
    }

    /// Waits for `storage`'s first rows (shown before every key is read), then asks for its
    /// first screen (30 rows) and waits for their records, then waits for every key; returns
    /// when the first screen had its records and when every key was read.
    static func waitForFirstScreen<Record, SectionValue>(of storage: PagedStorage<Record, SectionValue>)
        -> (firstScreen: ContinuousClock.Instant, placesRead: ContinuousClock.Instant) {
        spin { storage.numberOfSections() > 0 || storage.isLoaded }
        let screen = (0..<min(30, storage.numberOfItems(inSection: 0))).map { IndexPath(item: $0, section: 0) }
        for indexPath in screen { _ = storage.item(at: indexPath) }
        spin { screen.allSatisfy { storage.record(at: $0) != nil } }
        let firstScreen = ContinuousClock.now
        spin { storage.isLoaded }
        return (firstScreen, ContinuousClock.now)
    }

    /// The release `list-viewer` (beside this executable) showing the table, with and
    /// without sections, from process start to picture written, against a table of 2 rows:
    /// time and peak memory, each the best of three runs. Needs a display.
    private static func viewerOpen(_ path: String, rows: Int, folder: URL) -> [Measurement]? {
        let small = folder.appendingPathComponent("two.sqlite").path
        guard (try? makeTable(at: small, rows: 2)) != nil else { return nil }
        return viewerFigures(rows: rows, folder: folder, small: [small], plain: [path], sectioned: [path, "--section-by", "genre"],
                             names: ("viewer_open", "viewer_open_sections"))
    }

    /// The release `list-viewer` (beside this executable) run with `plain` and `sectioned`
    /// to a screenshot in `folder`, against the same viewer run with `small` (2 rows): each
    /// run's time and peak memory, the best of three. Nil without a display or a viewer.
    static func viewerFigures(rows: Int, folder: URL, small: [String], plain: [String], sectioned: [String],
                              names: (plain: String, sectioned: String)) -> [Measurement]? {
        let viewer = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("list-viewer").path
        guard FileManager.default.isExecutableFile(atPath: viewer), ProcessInfo.processInfo.environment["DISPLAY"] != nil else { return nil }
        let shot = folder.appendingPathComponent("shot.png").path
        func best(_ arguments: [String]) -> (seconds: Double, megabytes: Double)? {
            let runs = (0..<3).compactMap { _ in run(viewer, arguments + ["--screenshot", shot]) }
            guard runs.count == 3 else { return nil }
            return (runs.map(\.seconds).min()!, runs.map(\.megabytes).min()!)
        }
        guard let base = best(small), let plain = best(plain), let sectioned = best(sectioned) else { return nil }
        return [(names.plain, plain), (names.sectioned, sectioned)].map { name, figures in
            Measurement(scenario: name, n: rows, wallMilliseconds: figures.seconds * 1000, extra: [
                ("added_ms", (figures.seconds - base.seconds) * 1000),
                ("peak_mb", figures.megabytes),
                ("added_peak_mb", figures.megabytes - base.megabytes),
                ("two_rows_ms", base.seconds * 1000),
                ("two_rows_peak_mb", base.megabytes),
            ])
        }
    }

    /// Runs `executable` to its end: its wall time, and its own peak resident memory.
    private static func run(_ executable: String, _ arguments: [String]) -> (seconds: Double, megabytes: Double)? {
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = (argv + [nil]).withUnsafeBufferPointer { arguments in
            withShellLikeSpawnAttributes { posix_spawn(&pid, executable, nil, $0, UnsafeMutablePointer(mutating: arguments.baseAddress!), environ) }
        }
        guard spawned == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid, status == 0 else { return nil }
        return (milliseconds(of: ContinuousClock.now - start) / 1000, Double(usage.ru_maxrss) / 1024)
    }
}

/// Runs the main run loop (where a storage applies what it reads) until `condition`.
func spin(until deadline: ContinuousClock.Instant = .now + .seconds(60), _ condition: () -> Bool) {
    while !condition() && ContinuousClock.now < deadline {
        RunLoop.main.run(until: Date().addingTimeInterval(0.001))
    }
}

/// Runs the main run loop for `duration`.
func spin(for duration: Duration) {
    let end = ContinuousClock.now + duration
    spin { ContinuousClock.now >= end }
}
