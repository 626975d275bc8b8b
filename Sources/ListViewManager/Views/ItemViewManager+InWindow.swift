import CGtk
import GtkKit

extension ItemViewManager {
    /// The scrolled view: ``gtkWidget``, by its older name.
    @available(*, deprecated, renamed: "gtkWidget")
    public var scrolledView: UnsafeMutablePointer<GtkWidget> { gtkWidget }
}

extension ItemViewManager: GtkWidgetConvertible {
    /// The view in a scrolled window, in a box with the section index beside it (when the
    /// app gives titles, ``sectionIndexTitles(_:)``): what a container given the manager
    /// shows (made the first time it is asked for; the container keeps the manager alive as
    /// long as it shows it).
    ///
    /// - A list view comes with the current section's header pinned over its top
    ///   (`configuration.pinsSectionHeaders`), which a scrolled window of your own would not
    ///   have.
    /// - A sectioned grid lays its tiles out by the width given, and never scrolls sideways.
    /// - A grid or column view is in a plain scrolled window.
    public var gtkWidget: UnsafeMutablePointer<GtkWidget> {
        if let scrolledViewReference { return scrolledViewReference.pointer }
        let made: UnsafeMutablePointer<GtkWidget>
        if kind.pinsSectionHeaders {
            let pinned = PinnedHeader(manager: self)
            pinnedHeader = pinned
            pinned.setNeedsRefresh()
            made = pinned.overlay
        } else {
            made = gtk_scrolled_window_new()!
            gtk_scrolled_window_set_child(OpaquePointer(made), view)
            // Across, the window may be made narrower than the strips: they lay out again to
            // fit (with `NEVER`, the strips' width would be the window's minimum, and it could
            // only grow).
            if kind.showsTiles {
                gtk_scrolled_window_set_policy(OpaquePointer(made), GTK_POLICY_EXTERNAL, GTK_POLICY_AUTOMATIC)
                passFocusOnToATile(from: made)
            }
        }
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        // The box expands as the scrolled window alone did; the scrolled window takes the
        // width the section index leaves.
        gtk_widget_set_hexpand(box, gtk_widget_compute_expand(made, GTK_ORIENTATION_HORIZONTAL))
        gtk_widget_set_vexpand(box, gtk_widget_compute_expand(made, GTK_ORIENTATION_VERTICAL))
        gtk_widget_set_hexpand(made, 1)
        gtk_box_append(gtkCast(box, to: GtkBox.self), made)
        if let sectionIndexStrip { gtk_box_append(gtkCast(box, to: GtkBox.self), sectionIndexStrip) }
        scrolledViewReference = ObjectReference(sinking: box)
        return box
    }
}

extension ItemViewManager {
    /// Focus coming into a sectioned grid backwards (Shift+Tab from the section index) is
    /// taken by the scrolled window itself: GTK's list of strips declines it (its rows are
    /// not focusable, their tiles are). It goes on to the tile at the top.
    private func passFocusOnToATile(from scrolled: UnsafeMutablePointer<GtkWidget>) {
        let entered = gtk_event_controller_focus_new()!
        Signal.connect(UnsafeMutableRawPointer(entered), "enter") { [weak self] in
            guard gtk_event_controller_focus_is_focus(entered) != 0 else { return }
            // Once GTK has moved the focus (it tells the controller while moving it).
            whenIdle { [weak self] in
                guard let self, gtk_widget_has_focus(scrolled) != 0, let top = topItemRow() else { return }
                self.focus(position: top.position)
            }
        }
        gtk_widget_add_controller(scrolled, entered)
    }

    /// Gives the view the keyboard: arrows move between rows, Enter activates.
    public func grabFocus() {
        gtk_widget_grab_focus(view)
    }
}

extension ItemViewManager: GObjectConvertible {
    /// The view (GtkListView, GtkGridView or GtkColumnView), for its signals.
    public var gObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(view) }
}

extension ScrolledWindow {
    /// A manager is already scrolled: put the manager itself into the container.
    @available(*, unavailable, message: "a manager is put into containers already scrolled (with its pinned section header): use the manager itself")
    public convenience init(child manager: ItemViewManager) {
        self.init(child: nil as (any GtkWidgetConvertible)?)
    }
}

/// A manager whose GTK view activates rows by their position in the list: a list, grid or
/// column view (not a sectioned grid, whose GTK view holds strips of tiles).
@MainActor
public protocol ActivatesPositions: ItemViewManager {}

extension ListViewManager: ActivatesPositions {}
extension GridViewManager: ActivatesPositions {}
extension ColumnViewManager: ActivatesPositions {}

extension TypedSignal where Instance: ActivatesPositions, Handler == @MainActor (UInt32) -> Void {
    /// The view's `activate`: the position, in the list, of the row activated (a double
    /// click, or Enter; one click with `singleClickActivation`). The manager's own
    /// `didActivate` events say which item it was.
    public static var activatePosition: Self { .named("activate") }
}
