import CGtk
import Foundation
import CGtkTestShims
import ListViewManager

/// A long session: windows opened and closed one after another, each with a manager of
/// its own (a list, a grid and a column view in turn) showing 1,000 items in 10 sections
/// (headed in the list),
/// drawn, scrolled and with a row selected before it closes. What a leak per window or per
/// manager would show as growth: heap bytes (malloc's own count) and resident memory,
/// measured after the first tenth of the windows and again after the last.
@MainActor
enum LongSession {
    static func run(windows: Int) -> Measurement? {
        guard gtk_init_check() != 0 else {
            writeToStandardError("list-benchmarks: no display for the long session (run under xvfb-run)")
            return nil
        }
        MainQueue.attachToGLib()
        let warmUp = max(1, windows / 10)
        var heapAfterWarmUp = 0, residentAfterWarmUp = 0
        let wall = milliseconds {
            for index in 0..<windows {
                openAndClose(index)
                if index + 1 == warmUp {
                    heapAfterWarmUp = cgtk_shims_heap_bytes_in_use()
                    residentAfterWarmUp = residentBytes()
                }
            }
        }
        let counted = cgtk_shims_heap_is_counted() != 0
        let measured = Double(windows - warmUp)
        var extra: [(String, Double)] = [("windows", Double(windows)), ("heap_counted", counted ? 1 : 0)]
        if counted {
            extra.append(("heap_growth_bytes_per_window", Double(cgtk_shims_heap_bytes_in_use() - heapAfterWarmUp) / measured))
        }
        extra.append(("rss_growth_bytes_per_window", Double(residentBytes() - residentAfterWarmUp) / measured))
        return Measurement(scenario: "long_session", n: windows, wallMilliseconds: wall, extra: extra)
    }

    private static func openAndClose(_ index: Int) {
        let window = gtk_window_new()!
        let gtkWindow = gtkCast(window, to: GtkWindow.self)
        gtk_window_set_default_size(gtkWindow, 400, 300)
        do {
            let manager: ItemViewManager
            switch index % 3 {
            case 0:
                let list = ListViewManager()
                list.register(BenchmarkRow.self)
                gtk_window_set_child(gtkWindow, list.gtkWidget)
                manager = list
            case 1:
                let grid = GridViewManager()
                grid.register(BenchmarkTile.self)
                gtk_window_set_child(gtkWindow, scrolled(grid.view))
                manager = grid
            default:
                let columns = ColumnViewManager()
                columns.addColumn(TableColumn("Post", text: { (post: BenchmarkPost) in "Post \(post.id)" }) { $0.id < $1.id })
                gtk_window_set_child(gtkWindow, scrolled(columns.view))
                manager = columns
            }
            let storage = manager.memoryStorage!
            storage.setItemsForAllSections((0..<10).map { section in
                (0..<100).map { item -> Any in
                    index % 3 == 1 ? BenchmarkPhoto(id: section * 100 + item) : BenchmarkPost(id: section * 100 + item, title: "")
                }
            })
            // Grids and column views show no section headers before GTK 4.12 (and say so).
            if index % 3 == 0 { storage.setSectionHeaderModels((0..<10).map { "Section \($0)" }) }
            gtk_window_present(gtkWindow)
            GtkScenarios.waitForFrames(window, 2)
            _ = manager.select(IndexPath(item: 50, section: 5))
            if let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view)) {
                gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) / 2)
            }
            GtkScenarios.waitForFrames(window, 1)
        }
        gtk_window_destroy(gtkWindow)
        // Let GTK finish what the window's end queued (idle teardown, unrealising).
        MainLoop.drain()
    }

    private static func scrolled(_ view: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), view)
        return scrolled
    }
}
