import CGtk

/// Scrolls a list while a drag is held near its top or bottom edge, faster the nearer the
/// edge, on every frame until the pointer moves away from the edge, the drag leaves the
/// list or it drops. GTK 4 does not scroll a list under a drag by itself.
@MainActor
final class DragAutoscroll {
    /// How near an edge the pointer scrolls the list, in pixels (at most a quarter of the
    /// list's height).
    static let edgeZone = 48.0
    /// The speed with the pointer on the edge, in pixels per second.
    static let fastest = 1200.0

    /// The scrollable view (its manager owns it, and this).
    private let view: UnsafeMutablePointer<GtkWidget>
    /// Pixels per second, negative upwards.
    private var velocity = 0.0
    /// Where the pointer is, in the view's coordinates.
    private var pointer = (x: 0.0, y: 0.0)
    private var tick: UInt32 = 0
    private var lastFrameTime: Int?
    /// Runs after each step with the pointer's place: rows have moved under it.
    var didScroll: (@MainActor (_ x: Double, _ y: Double) -> Void)?

    init(view: UnsafeMutablePointer<GtkWidget>) {
        self.view = view
    }

    /// Whether the list is scrolling now.
    var isScrolling: Bool { tick != 0 }

    /// The drag is at (`x`, `y`) over the view: scrolls while that is near an edge.
    func follow(x: Double, y: Double) {
        pointer = (x, y)
        let height = Double(gtk_widget_get_height(view))
        let zone = min(Self.edgeZone, height / 4)
        if y < zone {
            velocity = -Self.fastest * (zone - max(y, 0)) / zone
        } else if y > height - zone {
            velocity = Self.fastest * (min(y, height) - (height - zone)) / zone
        } else {
            velocity = 0
        }
        if velocity == 0 { stop() } else { start() }
    }

    /// Stops scrolling (the drag left the list, or dropped).
    func stop() {
        guard tick != 0 else { return }
        gtk_widget_remove_tick_callback(view, tick)
        tick = 0
        lastFrameTime = nil
    }

    private func start() {
        guard tick == 0 else { return }
        tick = everyFrame(of: view) { [weak self] frameTime in
            self?.step(at: frameTime) ?? false
        }
    }

    private func step(at frameTime: Int) -> Bool {
        defer { lastFrameTime = frameTime }
        guard let lastFrameTime, let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(view)) else { return true }
        // At most a tenth of a second per step, however long the frames took.
        let seconds = min(Double(frameTime - lastFrameTime) / 1_000_000, 0.1)
        let value = gtk_adjustment_get_value(adjustment)
        let highest = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
        let next = min(max(value + velocity * seconds, gtk_adjustment_get_lower(adjustment)), highest)
        guard next != value else { return true }
        gtk_adjustment_set_value(adjustment, next)
        didScroll?(pointer.x, pointer.y)
        return true
    }
}
