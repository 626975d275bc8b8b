import CGtk
import Foundation

/// The one way the GTK tests run GLib's main loop, for the manager's tests and the viewer's.
@MainActor
public enum MainLoopPump {
    /// Runs everything pending, without blocking, `rounds` times over: idle callbacks that
    /// queue more work, finalisations, a window's teardown.
    public static func drain(rounds: Int = 1) {
        for _ in 0..<rounds {
            while g_main_context_iteration(nil, 0) != 0 {}
        }
    }

    /// Runs the main loop until `condition` holds or `timeout` seconds have passed, looking
    /// again at least every 5 ms; returns whether it held.
    ///
    /// The pump's own 5 ms timer has a low priority: GLib dispatches only the most urgent
    /// sources ready, so at the default priority it would be ready again whenever a round
    /// (a slow `condition`, a sanitizer) takes over 5 ms, and GTK's frames (layout and
    /// drawing, `GDK_PRIORITY_REDRAW`) would never run.
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let tick = g_timeout_add_full(G_PRIORITY_LOW, 5, { _ in 1 }, nil, nil)
        defer { g_source_remove(tick) }
        while !condition() {
            if Date() > deadline { return false }
            g_main_context_iteration(nil, 1)
        }
        return true
    }

    /// Runs the main loop, blocking, until `condition` holds or `iterations` have run,
    /// woken only by its own sources (no tick of the pump's): for tests of what wakes the
    /// loop. Returns how many iterations ran.
    @discardableResult
    public static func run(until condition: () -> Bool, iterations: Int) -> Int {
        var ran = 0
        while ran < iterations, !condition() {
            g_main_context_iteration(nil, 1)
            ran += 1
        }
        return ran
    }
}
