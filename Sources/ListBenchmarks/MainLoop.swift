import CGtk
import Foundation

/// The benchmarks' one way of running GLib's main loop by hand (where GTK lays out and
/// draws, and storages deliver through the main-queue source) until something is true.
@MainActor
enum MainLoop {
    /// Runs the main loop, waiting between its events, until `condition` holds.
    static func run(until condition: () -> Bool) {
        while !condition() { g_main_context_iteration(nil, 1) }
    }

    /// Runs the main loop without waiting (for a condition no GLib source wakes it for, such
    /// as another thread's result), pausing 0.1 ms when it has nothing to do, until
    /// `condition` holds.
    static func poll(until condition: () -> Bool) {
        while !condition() {
            if g_main_context_iteration(nil, 0) == 0 { usleep(100) }
        }
    }

    /// Runs what the main loop has ready now (idle teardown after a window closed, say).
    static func drain() {
        while g_main_context_iteration(nil, 0) != 0 {}
    }
}
