import CGtk
import Foundation
import ListViewManager

/// A label row, what the C baseline's rows are.
final class BenchmarkRow: Row, ModelTransfer {
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: BenchmarkPost) { title.text = "Post \(model.id)" }
}

/// Scenarios on a real GtkListView in an 800×600 window (run under Xvfb): what GTK does
/// for the manager's updates, counted.
@MainActor
enum GtkScenarios {
    static func run(count: Int) -> [Measurement] {
        guard gtk_init_check() != 0 else {
            writeToStandardError("list-benchmarks: no display for the GTK scenarios (run under xvfb-run)")
            return []
        }
        MainQueue.attachToGLib()
        let window = gtk_window_new()!
        gtk_window_set_default_size(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), 800, 600)
        let manager = ListViewManager()
        manager.register(BenchmarkRow.self)
        manager.memoryStorage.setItemsForAllSections((0..<10).map { section in
            (0..<(count / 10)).map { BenchmarkPost(id: section * count / 10 + $0, title: "") }
        })
        let scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), manager.listView)
        gtk_window_set_child(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), scrolled)
        gtk_window_present(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self))
        waitForFrames(window, 5)
        let signals = SignalCounter(manager.selectionModel)
        var results: [Measurement] = []

        func measure(_ scenario: String, n: Int, _ change: () -> Void) {
            signals.count = 0
            let updatesBefore = manager.rowUpdateCount
            let start = ContinuousClock.now
            change()
            waitForFrames(window, 2)
            let wall = milliseconds(of: ContinuousClock.now - start)
            results.append(Measurement(scenario: scenario, n: n, wallMilliseconds: wall, extra: [
                ("signals", Double(signals.count)),
                ("binds", Double(manager.rowUpdateCount - updatesBefore)),
                ("realised_rows", Double(manager.boundRowCount)),
            ]))
        }

        measure("gtk_batch_1000_adjacent_inserts", n: count) {
            manager.memoryStorage.performUpdates {
                for offset in 0..<1000 {
                    try? manager.memoryStorage.insertItem(BenchmarkPost(id: -offset, title: ""), to: IndexPath(item: 5 + offset, section: 0))
                }
            }
        }
        measure("gtk_1000_separate_inserts", n: count) {
            for offset in 0..<1000 {
                try? manager.memoryStorage.insertItem(BenchmarkPost(id: -offset, title: ""), to: IndexPath(item: 5 + offset, section: 0))
            }
        }
        measure("gtk_content_update_visible_item", n: count) {
            manager.memoryStorage.reloadItem(BenchmarkPost(id: 3, title: "edited"))
        }
        gtk_window_destroy(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self))
        return results
    }

    /// Runs the main loop until `frames` more frames were drawn.
    static func waitForFrames(_ window: UnsafeMutablePointer<GtkWidget>, _ frames: Int) {
        while gtk_widget_get_frame_clock(window) == nil { g_main_context_iteration(nil, 1) }
        let clock = gtk_widget_get_frame_clock(window)
        let target = gdk_frame_clock_get_frame_counter(clock) + frames
        let tick = g_timeout_add(5, { _ in 1 }, nil)
        while gdk_frame_clock_get_frame_counter(clock) < target {
            gtk_widget_queue_draw(window)  // a frame happens only when something asks for one
            g_main_context_iteration(nil, 1)
        }
        g_source_remove(tick)
    }
}

extension BenchmarkPost: Equatable {
    static func == (lhs: BenchmarkPost, rhs: BenchmarkPost) -> Bool { lhs.id == rhs.id }
}

/// Counts `items-changed` emissions of a GListModel.
@MainActor
final class SignalCounter {
    var count = 0

    init(_ model: OpaquePointer) {
        typealias Handler = @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void
        let handler: Handler = { _, _, _, _, data in
            MainActor.assumeIsolated { Unmanaged<SignalCounter>.fromOpaque(data!).takeUnretainedValue().count += 1 }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(model), "items-changed", unsafeBitCast(handler, to: GCallback.self),
                              Unmanaged.passRetained(self).toOpaque(), { data, _ in Unmanaged<SignalCounter>.fromOpaque(data!).release() },
                              GConnectFlags(rawValue: 0))
    }
}
