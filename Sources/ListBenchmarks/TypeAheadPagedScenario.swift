import CGtk
import Foundation
import GRDB
import ListViewManager
import ModelStorage
import SQLiteStorage

/// Type-ahead find on a table of N books read a page at a time, searched in SQL
/// (`type_ahead_paged`: the list ordered by title, which an index `COLLATE NOCASE` orders
/// and searches; `type_ahead_paged_by_rowid`: the list in rowid order, searched by title).
/// A title typed a key at a time, each key a search from the focused row as type-ahead
/// find does it, timed to the frame showing the row found focused (a placeholder, if its
/// page is still being read) and to the frame showing its record; then Up, a search
/// backwards to the match before (the only other row matching the whole title is none:
/// round the list to itself).
enum TypeAheadPagedScenario {
    @MainActor
    static func run(_ scenario: String, count: Int, database: DatabasePool) -> Measurement? {
        let byTitle = scenario == "type_ahead_paged"
        do {
            try database.write { db in try db.execute(sql: "CREATE INDEX book_title ON book (title COLLATE NOCASE)") }
        } catch {
            writeToStandardError("list-benchmarks: cannot index the titles: \(error)")
            return nil
        }
        let query = PagedQuery(table: "book", orderBy: byTitle ? "title COLLATE NOCASE" : nil, searchBy: "title")
        let storage = PagedQueryStorage<BenchmarkBook>(database: database, query: query)
        MainLoop.run { storage.isLoaded }
        let manager = ListViewManager(storage: storage)
        manager.register(BenchmarkBookRow.self)
        let window = GtkScenarios.window(showing: manager)
        _ = manager.focus(IndexPath(item: 0, section: 0))
        GtkScenarios.waitForFrames(window, 3)

        // A title far down whichever the order: 'Title ' || (x * 7919 % N) for rowid x.
        let title = "title \(count * 3 / 4 + 17)"
        var shown: [Double] = [], filled: [Double] = []
        var missed = 0
        /// One search as a key does it, from `offset` rows after (or before) the focused row.
        @MainActor func search(_ typed: String, forward: Bool, offset: Int) {
            let start = ContinuousClock.now
            let focused = manager.focusedIndexPath?.item ?? 0
            nonisolated(unsafe) let answer = Answer()  // (answered on this thread: the storage schedules on the main queue)
            storage.searchItem(matching: typed, anywhere: false, from: IndexPath(item: (focused + (forward ? offset : -offset) + count) % count, section: 0),
                               forward: forward) { answer.indexPath = .some($0) }
            MainLoop.run { answer.indexPath != nil }
            guard let indexPath = answer.indexPath ?? nil, let found = manager.position(of: indexPath) else { return missed += 1 }
            manager.focusAndSelect(position: found)
            MainLoop.run { manager.focusedIndexPath == indexPath }
            GtkScenarios.waitForFrames(window, 1)
            shown.append(milliseconds(of: ContinuousClock.now - start))
            MainLoop.run { (storage.item(at: indexPath) as? PagedRow<BenchmarkBook>)?.record != nil }
            GtkScenarios.waitForFrames(window, 1)
            filled.append(milliseconds(of: ContinuousClock.now - start))
        }
        for length in 1...title.count { search(String(title.prefix(length)), forward: true, offset: 0) }
        let typedMedian = shown.sorted()[shown.count / 2], typedMax = shown.max() ?? 0, filledMedian = filled.sorted()[filled.count / 2]
        let focusedTitle = manager.focusedIndexPath.flatMap { (storage.item(at: $0) as? PagedRow<BenchmarkBook>)?.record?.title }
        if focusedTitle?.lowercased() != title { writeToStandardError("list-benchmarks: type-ahead found \(focusedTitle ?? "nothing"), not \(title)") }
        (shown, filled) = ([], [])
        search(title, forward: false, offset: 1)
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
        return Measurement(scenario: scenario, n: count, wallMilliseconds: typedMedian, extra: [
            ("keys", Double(title.count)), ("shown_ms_median", typedMedian), ("shown_ms_max", typedMax),
            ("filled_ms_median", filledMedian), ("backwards_round_ms", shown.first ?? -1), ("missed", Double(missed)),
        ])
    }
}

/// A search's answer, once given.
private final class Answer {
    var indexPath: IndexPath??
}
