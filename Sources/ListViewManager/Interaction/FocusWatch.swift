import CGtk
import GtkKit

/// Follows the keyboard focus of the window a view is in, while the view is shown, and tells
/// `moved` each time the focus lands in another row widget (or leaves the view: nil).
///
/// The window's `focus-widget` is watched rather than each row: GTK binds a row widget it
/// makes before putting it in the view, so a row made while scrolling could not be watched
/// from its bind.
@MainActor
final class FocusWatch {
    private let base: UnsafeMutablePointer<GtkWidget>
    private let rowWidget: (UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>?
    private let moved: (UnsafeMutablePointer<GtkWidget>?) -> Void
    /// The window watched, and the handler of its `notify::focus-widget`.
    private var watched: (root: UnsafeMutablePointer<GtkWidget>, connection: SignalConnection)?
    /// The row widget that had the focus when last told.
    private var focusedRow: UnsafeMutablePointer<GtkWidget>?

    /// Watches the window of `base` (a view's list base) whenever `base` is mapped.
    /// `rowWidget` finds the row widget holding a widget; `moved` hears of each change.
    init(base: UnsafeMutablePointer<GtkWidget>, rowWidget: @escaping (UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>?,
         moved: @escaping (UnsafeMutablePointer<GtkWidget>?) -> Void) {
        self.base = base
        self.rowWidget = rowWidget
        self.moved = moved
        Signal.connect(UnsafeMutableRawPointer(base), "map") { [weak self] in self?.watchWindow() }
        Signal.connect(UnsafeMutableRawPointer(base), "unmap") { [weak self] in self?.stopWatching() }
        if gtk_widget_get_mapped(base) != 0 { watchWindow() }
    }

    private func watchWindow() {
        guard let root = gtk_widget_get_root(base).map({ UnsafeMutablePointer<GtkWidget>($0) }) else { return }
        if let watched, watched.connection.isConnected(to: UnsafeMutableRawPointer(root)) { return }
        stopWatching()
        let handler = Signal.onChange(of: "focus-widget", of: UnsafeMutableRawPointer(root)) { [weak self] in self?.focusChanged() }
        watched = (root, SignalConnection(handler, on: UnsafeMutableRawPointer(root)))
    }

    private func stopWatching() {
        guard let watched else { return }
        watched.connection.disconnect()
        self.watched = nil
        focusedRow = nil
    }

    private func focusChanged() {
        guard let root = watched?.root else { return }
        let row = gtk_root_get_focus(OpaquePointer(root)).flatMap(rowWidget)
        guard row != focusedRow else { return }
        focusedRow = row
        moved(row)
    }

}
