import CGtk
import Foundation
import GRDB
import ListViewManager
import ModelStorage
import SQLiteStorage

/// Scrolling a list of N books in 100 sections from the first row to the last in 300
/// frames (each frame a three-hundredth of the list further: a page fault every frame), from
/// `PagedQueryStorage` (`scroll_paged`: pages read as GTK binds rows, placeholders in
/// between) or from a `MemoryStorage` holding every record (`scroll_paged_memory`, the
/// comparison).
enum PagedScrollScenario {
    /// `scenario` on a table of `count` books in `database` (see `PagedScenarios.onBookTable`).
    @MainActor
    static func run(_ scenario: String, count: Int, database: DatabasePool) -> Measurement? {
        let query = PagedQuery(table: "book", sectionBy: "genre")
        let paged = PagedQueryStorage<BenchmarkBook>(database: database, query: query)
        MainLoop.run { paged.isLoaded }
        let storage: Storage
        if scenario == "scroll_paged_memory" {
            let memory = MemoryStorage()
            do {
                let books = try database.read { db in try BenchmarkBook.fetchAll(db, sql: "SELECT rowid, * FROM book ORDER BY genre, rowid") }
                memory.setItemsForAllSections((0..<paged.numberOfSections()).map { section in
                    let start = (0..<section).reduce(0) { $0 + paged.numberOfItems(inSection: $1) }
                    return books[start..<(start + paged.numberOfItems(inSection: section))].map { PagedRow(id: $0.id, record: $0) }
                })
            } catch {
                writeToStandardError("list-benchmarks: cannot read the table: \(error)")
                return nil
            }
            memory.setSectionHeaderModels((0..<paged.numberOfSections()).map { paged.headerModel(forSection: $0) as? String ?? "" })
            storage = memory
        } else {
            storage = paged
        }

        let manager = ListViewManager(storage: storage)
        manager.register(BenchmarkBookRow.self)
        let window = GtkScenarios.window(showing: manager)

        let pagesBefore = paged.pagesRead
        let start = ContinuousClock.now
        let cpuStart = cpuMilliseconds()
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view))!
        for step in 1...300 {
            let limit = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
            gtk_adjustment_set_value(adjustment, limit * Double(step) / 300)
            GtkScenarios.waitForFrames(window, 1)
        }
        let cpu = cpuMilliseconds() - cpuStart
        let wall = milliseconds(of: ContinuousClock.now - start)
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
        return Measurement(scenario: scenario, n: count, wallMilliseconds: wall, extra: [
            ("cpu_ms_per_frame", cpu / 300),
            ("pages_read", Double(paged.pagesRead - pagesBefore)),
            ("pages_kept", Double(paged.pagesKept)),
            ("binds", Double(manager.rowUpdateCount)),
        ])
    }
}
