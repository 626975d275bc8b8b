import CGtk

/// Calls an action after each layout of the window a widget is in: once GTK has allocated
/// every widget of the window, before it paints, while the widget is realized.
///
/// What the action changes is laid out in the same frame: a change during the layout phase
/// asks for another layout, which GDK runs before painting (up to four in a frame).
@MainActor
final class AfterLayout {
    /// The widget (a reference of its own, for the handlers taken off at the end).
    private let reference: ObjectReference<UnsafeMutablePointer<GtkWidget>>
    private var widget: UnsafeMutablePointer<GtkWidget> { reference.pointer }
    private let action: () -> Void
    /// The frame clock watched, and the handler of its `layout`.
    private var watched: (clock: ObjectReference<OpaquePointer>, handler: UInt)?
    /// The handlers of the widget's `realize` and `unrealize`.
    private var realizeHandlers: [UInt] = []

    /// Calls `action` after each layout of `widget`'s window, until this is let go of.
    init(of widget: UnsafeMutablePointer<GtkWidget>, action: @escaping () -> Void) {
        reference = ObjectReference(retaining: widget)
        self.action = action
        realizeHandlers = [
            Signal.connect(UnsafeMutableRawPointer(widget), "realize") { [weak self] in self?.watchClock() },
            Signal.connect(UnsafeMutableRawPointer(widget), "unrealize") { [weak self] in self?.stopWatching() },
        ]
        if gtk_widget_get_realized(widget) != 0 { watchClock() }
    }

    private func watchClock() {
        guard let clock = gtk_widget_get_frame_clock(widget) else { return }
        if watched?.clock.pointer == clock { return }
        stopWatching()
        // After: the window's own handler, which allocates its widgets, runs first.
        let handler = Signal.connect(UnsafeMutableRawPointer(clock), "layout", after: true) { [weak self] in self?.action() }
        watched = (ObjectReference(retaining: clock), handler)
    }

    private func stopWatching() {
        guard let watched else { return }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(watched.clock.pointer), gulong(watched.handler))
        self.watched = nil
    }

    isolated deinit {
        stopWatching()
        for handler in realizeHandlers { g_signal_handler_disconnect(UnsafeMutableRawPointer(widget), gulong(handler)) }
    }
}
