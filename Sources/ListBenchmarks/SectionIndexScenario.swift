import CGtk
import Foundation
import GRDB
import ListViewManager
import ModelStorage
import SQLiteStorage

/// The section index of a table of N books in 100 sections read a page at a time
/// (`section_index_paged`): ten titles picked in turn, far apart, as a press on the strip
/// picks them. Each jump is timed to the frame showing the section's first row at the top
/// (a placeholder, if its page is still being read), and to the frame showing that row's
/// record.
enum SectionIndexScenario {
    /// `scenario` on a table of `count` books in `database` (see `PagedScenarios.onBookTable`).
    @MainActor
    static func run(_ scenario: String, count: Int, database: DatabasePool) -> Measurement? {
        let storage = PagedQueryStorage<BenchmarkBook>(database: database, query: PagedQuery(table: "book", sectionBy: "genre"))
        MainLoop.run { storage.isLoaded }
        let manager = ListViewManager(storage: storage)
        manager.register(BenchmarkBookRow.self)
        manager.sectionIndexTitles(fromHeaders: String.self) { String($0.suffix(2)) }
        let window = GtkScenarios.window(showing: manager)

        var shown: [Double] = [], filled: [Double] = [], frames: [Double] = []
        for title in [50, 3, 97, 25, 75, 10, 90, 40, 60, 0] {
            let first = IndexPath(item: 0, section: title)
            let clock = gtk_widget_get_frame_clock(window)
            let start = ContinuousClock.now, startFrame = gdk_frame_clock_get_frame_counter(clock)
            manager.pickSectionIndexTitle(title)
            MainLoop.run { manager.topItemRow()?.indexPath == first }
            shown.append(milliseconds(of: ContinuousClock.now - start))
            frames.append(Double(gdk_frame_clock_get_frame_counter(clock) - startFrame))
            MainLoop.run { (storage.item(at: first) as? PagedRow<BenchmarkBook>)?.record != nil }
            GtkScenarios.waitForFrames(window, 1)
            filled.append(milliseconds(of: ContinuousClock.now - start))
        }
        gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        return Measurement(scenario: scenario, n: count, wallMilliseconds: median(filled), extra: [
            ("shown_ms_median", median(shown)), ("shown_ms_max", shown.max()!),
            ("frames_median", median(frames)), ("frames_max", frames.max()!),
            ("filled_ms_median", median(filled)), ("filled_ms_max", filled.max()!),
        ])
    }
}
