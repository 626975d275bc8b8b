import CGtk

/// Calls an action after each layout of the window a widget is in: once GTK has allocated
/// every widget of the window, before it paints, while the widget is realized.
///
/// What the action changes is laid out in the same frame: a change during the layout phase
/// asks for another layout, which GDK runs before painting (up to four in a frame).
@MainActor
package final class AfterLayout {
    private let widget: UnsafeMutablePointer<GtkWidget>
    private let action: () -> Void
    /// The handler of the `layout` of the frame clock watched.
    private var watched: SignalConnection?
    /// The handlers of the widget's `realize` and `unrealize`.
    private var realizeHandlers: [SignalConnection] = []

    /// Calls `action` after each layout of `widget`'s window, until this is let go of.
    package init(of widget: UnsafeMutablePointer<GtkWidget>, action: @escaping () -> Void) {
        self.widget = widget
        self.action = action
        let instance = UnsafeMutableRawPointer(widget)
        realizeHandlers = [
            SignalConnection(Signal.connect(instance, "realize") { [weak self] in self?.watchClock() }, on: instance),
            SignalConnection(Signal.connect(instance, "unrealize") { [weak self] in self?.stopWatching() }, on: instance),
        ]
        if gtk_widget_get_realized(widget) != 0 { watchClock() }
    }

    private func watchClock() {
        guard let clock = gtk_widget_get_frame_clock(widget) else { return }
        let instance = UnsafeMutableRawPointer(clock)
        if watched?.isConnected(to: instance) == true { return }
        stopWatching()
        // After: the window's own handler, which allocates its widgets, runs first.
        watched = SignalConnection(Signal.connect(instance, "layout", after: true) { [weak self] in self?.action() }, on: instance)
    }

    private func stopWatching() {
        watched?.disconnect()
        watched = nil
    }
}
