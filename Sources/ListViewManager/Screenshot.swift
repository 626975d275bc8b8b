import CGtk
import Foundation

/// Renders widgets to PNG files: for `--screenshot` options, documentation and tests.
public enum Screenshot {
    /// Renders `widget` (usually a window, mapped) as it looks now and writes it to `path`.
    /// - Returns: whether the file was written.
    @MainActor
    @discardableResult
    public static func savePNG(of widget: UnsafeMutablePointer<GtkWidget>, to path: String) -> Bool {
        let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
        guard width > 0, height > 0, let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else { return false }
        let paintable = gtk_widget_paintable_new(widget)
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return false }
        defer { gsk_render_node_unref(node) }
        guard let texture = gsk_renderer_render_texture(renderer, node, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        return gdk_texture_save_to_png(texture, path) != 0
    }

    /// Runs `action` once `widget` has drawn `frames` more frames.
    @MainActor
    public static func afterFrames(of widget: UnsafeMutablePointer<GtkWidget>, _ frames: Int, _ action: @escaping @MainActor () -> Void) {
        final class Countdown {
            var remaining: Int
            let action: @MainActor () -> Void
            init(_ remaining: Int, _ action: @escaping @MainActor () -> Void) { self.remaining = remaining; self.action = action }
        }
        let tick: GtkTickCallback = { _, _, data in
            let countdown = Unmanaged<Countdown>.fromOpaque(data!).takeUnretainedValue()
            countdown.remaining -= 1
            guard countdown.remaining <= 0 else { return 1 }
            MainActor.assumeIsolated { countdown.action() }
            return 0
        }
        let destroy: GDestroyNotify = { data in Unmanaged<Countdown>.fromOpaque(data!).release() }
        gtk_widget_add_tick_callback(widget, tick, Unmanaged.passRetained(Countdown(frames, action)).toOpaque(), destroy)
        gtk_widget_queue_draw(widget)
    }
}
