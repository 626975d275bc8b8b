import CGtk
import Foundation

/// Renders widgets to PNG files: for `--screenshot` options, documentation and tests.
/// (The forms taking a widget's pointer are package API, for the list module and the tests.)
public enum Screenshot {
    /// Renders `widget` (usually a window, shown) as it was last drawn and writes it to
    /// `path`. Call it from `afterPaintedFrames(of:_:_:)`: between frames, a widget that
    /// asked to be drawn again has no drawing, and the window renders as nothing.
    /// - Returns: whether the file was written.
    @MainActor
    @discardableResult
    public static func savePNG(of widget: some GtkWidgetConvertible, to path: String) -> Bool {
        savePNG(of: widget.gtkWidget, to: path)
    }

    /// Runs `action` right after `widget`'s frame clock has painted, `frames` frames from
    /// now, when every widget's drawing of that frame is current (for `savePNG`).
    @MainActor
    public static func afterPaintedFrames(of widget: some GtkWidgetConvertible, _ frames: Int, _ action: @escaping @MainActor () -> Void) {
        afterPaintedFrames(of: widget.gtkWidget, frames, action)
    }

    /// Runs `action` once `widget` has drawn `frames` more frames, before the next frame is
    /// laid out and drawn.
    @MainActor
    public static func afterFrames(of widget: some GtkWidgetConvertible, _ frames: Int, _ action: @escaping @MainActor () -> Void) {
        afterFrames(of: widget.gtkWidget, frames, action)
    }

    /// Renders `widget` (usually a window, mapped) as it was last drawn and writes it to
    /// `path`. Call it from `afterPaintedFrames(of:_:_:)`: between frames, a widget that
    /// asked to be drawn again has no drawing, and the window renders as nothing.
    /// - Returns: whether the file was written.
    @MainActor
    @discardableResult
    package static func savePNG(of widget: UnsafeMutablePointer<GtkWidget>, to path: String) -> Bool {
        guard let texture = render(widget).map({ ObjectReference(adopting: $0) }) else { return false }
        return gdk_texture_save_to_png(texture.pointer, path) != 0
    }

    /// Renders `widget` as it looks now into a new texture (one reference, the caller's),
    /// or nil when it is not shown. A window whose own snapshot is empty (a plain
    /// GtkWindow without decorations gives none) is rendered through its child.
    @MainActor
    package static func render(_ widget: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer? {
        let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
        guard width > 0, height > 0, let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else { return nil }
        let paintable = ObjectReference(adopting: gtk_widget_paintable_new(widget)!)
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable.pointer, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else {
            guard gtk_widget_get_root(widget).map({ UnsafeMutableRawPointer($0) }) == UnsafeMutableRawPointer(widget),
                  let child = gtk_window_get_child(gtkCast(widget, to: GtkWindow.self)) else { return nil }
            return render(child)
        }
        defer { gsk_render_node_unref(node) }
        return gsk_renderer_render_texture(renderer, node, nil)
    }

    /// Runs `action` right after `widget`'s frame clock has painted, `frames` frames from
    /// now: every widget's drawing of that frame is then current, for `savePNG` and
    /// `render`. (`afterFrames` runs before the frame is laid out and drawn, when GTK has
    /// dropped the drawing of any widget that asked to be redrawn since, such as a
    /// scrollbar fading in, and of its parents up to the window.)
    @MainActor
    package static func afterPaintedFrames(of widget: UnsafeMutablePointer<GtkWidget>, _ frames: Int, _ action: @escaping @MainActor () -> Void) {
        afterFrames(of: widget, frames) {
            // Gone meanwhile (unrealised): run `action` anyway, so a caller waiting on it
            // (the viewer's --screenshot, to quit) is not left waiting for ever.
            guard let clock = gtk_widget_get_frame_clock(widget) else { return action() }
            // Once: the handler lets itself go (its data, this box, goes with it).
            final class Once { var connection: SignalConnection? }
            let once = Once()
            let instance = UnsafeMutableRawPointer(clock)
            once.connection = SignalConnection(Signal.connect(instance, "after-paint") {
                once.connection?.disconnect()
                action()
            }, on: instance)
            gtk_widget_queue_draw(widget)
        }
    }

    /// Runs `action` once `widget` has drawn `frames` more frames, before the next frame is
    /// laid out and drawn.
    @MainActor
    package static func afterFrames(of widget: UnsafeMutablePointer<GtkWidget>, _ frames: Int, _ action: @escaping @MainActor () -> Void) {
        var remaining = frames
        everyFrame(of: widget) { _ in
            remaining -= 1
            guard remaining <= 0 else { return true }
            action()
            return false
        }
        gtk_widget_queue_draw(widget)
    }
}
