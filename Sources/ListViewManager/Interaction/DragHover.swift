import CGtk
import GtkKit

/// A drag over a list, from its entering until it leaves or drops. GTK's list views scroll
/// by themselves while a drag is within 30 pixels of their top or bottom edge (GtkListBase);
/// this keeps the line showing where a drop goes right while rows move under a still
/// pointer (GTK scrolling, the storage changing), and scrolls the list up while the drag is
/// over the pinned section header, which hides the list's top edge from GTK.
@MainActor
final class DragHover {
    /// How fast the list scrolls up under a drag over the pinned header, in pixels per
    /// second (GTK's fastest at its edges: 10 pixels a frame).
    static let pinnedHeaderSpeed = 600.0

    /// The view (its manager owns it, and this).
    private let view: UnsafeMutablePointer<GtkWidget>
    /// Where the drag is over the view, in its coordinates; nil when it is elsewhere.
    private var pointer: (x: Double, y: Double)?
    /// Whether the drag is over the pinned section header.
    private var overPinnedHeader = false
    /// Follows the view's layouts while the drag is over it.
    private var layouts: AfterLayout?
    /// The tick scrolling the list while the drag is over the pinned header.
    private var tick: UInt32 = 0
    private var lastFrameTime: Int?
    /// Runs after each layout while the drag is over the view, with where it is: the rows
    /// under it may have moved.
    var followRows: (@MainActor (_ x: Double, _ y: Double) -> Void)?

    init(view: UnsafeMutablePointer<GtkWidget>) {
        self.view = view
    }

    /// Whether anything is followed now (a drag over the list or its pinned header).
    var isActive: Bool { layouts != nil || tick != 0 }

    /// The drag is at (`x`, `y`) over the view.
    func moved(x: Double, y: Double) {
        pointer = (x, y)
        guard layouts == nil else { return }
        // After GTK's layout: the rows have their new places then.
        layouts = AfterLayout(of: view) { [weak self] in
            guard let self, let pointer else { return }
            followRows?(pointer.x, pointer.y)
        }
    }

    /// The drag left the view, or dropped.
    func left() {
        pointer = nil
        layouts = nil
    }

    /// The drag entered (true) or left the pinned section header.
    func pinnedHeaderHovered(_ hovered: Bool) {
        overPinnedHeader = hovered
        if hovered, tick == 0 {
            tick = everyFrame(of: view) { [weak self] frameTime in
                self?.scrollUp(at: frameTime)
                return self != nil
            }
        } else if !hovered, tick != 0 {
            gtk_widget_remove_tick_callback(view, tick)
            tick = 0
            lastFrameTime = nil
        }
    }

    private func scrollUp(at frameTime: Int) {
        defer { lastFrameTime = frameTime }
        guard let lastFrameTime, let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(view)) else { return }
        // At most a tenth of a second a step, however long the frames took.
        let seconds = min(Double(frameTime - lastFrameTime) / 1_000_000, 0.1)
        let value = gtk_adjustment_get_value(adjustment)
        let next = max(value - Self.pinnedHeaderSpeed * seconds, gtk_adjustment_get_lower(adjustment))
        if next != value { gtk_adjustment_set_value(adjustment, next) }
    }

    isolated deinit {
        left()
    }
}
