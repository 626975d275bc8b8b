import CGtk

/// Anything a window, a pane, a stack or a scrolled window can show: a ``Widget``, or any
/// Swift object that owns a GTK widget (conform it with ``gtkWidget``).
///
/// A container keeps the Swift object it is given as long as it shows it, so an object put
/// into a window lives as long as the window shows it.
@MainActor
public protocol GtkWidgetConvertible: AnyObject {
    /// The widget the container shows.
    var gtkWidget: UnsafeMutablePointer<GtkWidget> { get }
}

extension Widget: GtkWidgetConvertible {}

/// The Swift objects a container shows, kept alive while it shows them: one slot per place
/// (a window's child, a pane's two children, a stack's pages).
@MainActor
struct HeldChildren {
    private var held: [String: any GtkWidgetConvertible] = [:]

    /// Keeps `child` in `slot` (letting go of what was there), or empties the slot, and
    /// hands its widget (or nil) to `put`, the GTK call that shows it there.
    mutating func place(_ child: (any GtkWidgetConvertible)?, in slot: String, _ put: (UnsafeMutablePointer<GtkWidget>?) -> Void) {
        held[slot] = child
        put(child?.gtkWidget)
    }

    /// What `slot` holds.
    subscript(slot: String) -> (any GtkWidgetConvertible)? { held[slot] }
}
