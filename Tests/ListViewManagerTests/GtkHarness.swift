import CGtk
import Foundation
@testable import ListViewManager
import XCTest

/// A real GtkWindow (800×600) with a scrolled GtkListView driven by a manager.
@MainActor
final class GtkHarness {
    let window: UnsafeMutablePointer<GtkWidget>
    var manager: ListViewManager!
    var windowPointer: UnsafeMutablePointer<GtkWindow> { UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self) }

    init(selectionMode: SelectionMode = .single, configure: (ListViewManager) -> Void = { _ in }) {
        if gtk_init_check() == 0 { XCTFail("GTK could not open a display: run the tests under xvfb-run") }
        MainQueue.attachToGLib()
        window = gtk_window_new()
        g_object_ref_sink(window)
        gtk_window_set_default_size(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), 800, 600)
        let manager = ListViewManager(selectionMode: selectionMode)
        configure(manager)
        let scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), manager.listView)
        self.manager = manager
        gtk_window_set_child(windowPointer, scrolled)
        gtk_window_present(windowPointer)
        waitForFrames()
    }

    /// Closes the window and lets GTK finish with it.
    func close() {
        gtk_window_destroy(windowPointer)
        g_object_unref(window)
        iterate(times: 20)
    }

    /// Runs pending main-loop work without blocking.
    func iterate(times: Int = 1) {
        for _ in 0..<times {
            while g_main_context_iteration(nil, 0) != 0 {}
        }
    }

    /// Runs the main loop until `condition` holds (or fails after `timeout` seconds).
    func wait(until condition: () -> Bool, timeout: Double = 5, _ message: String = "condition", file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(timeout)
        let tick = g_timeout_add(5, { _ in 1 }, nil)
        defer { g_source_remove(tick) }
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out waiting for \(message)", file: file, line: line)
                return
            }
            g_main_context_iteration(nil, 1)
        }
    }

    /// Lets the window lay out and draw a few frames, so rows are realised and bound.
    func waitForFrames(_ count: Int = 3) {
        let clock = gtk_widget_get_frame_clock(window)
        guard let clock else {
            wait(until: { gtk_widget_get_mapped(window) != 0 }, "the window to be mapped")
            return waitForFrames(count)
        }
        let start = gdk_frame_clock_get_frame_counter(clock)
        gtk_widget_queue_draw(window)
        wait(until: { gdk_frame_clock_get_frame_counter(clock) >= start + Int(count) }, "\(count) frames")
    }
}

/// Runs a test body on the main actor. XCTest on Linux runs tests on the main thread but
/// cannot call main-actor test methods, so tests are nonisolated and wrap their body.
func onMain(_ body: @MainActor () throws -> Void) rethrows {
    try MainActor.assumeIsolated(body)
}
