import CGtk

/// A scrolled window (GtkScrolledWindow) around one widget.
@MainActor
public final class ScrolledWindow: Widget {
    private var children = HeldChildren()

    /// Creates a scrolled window showing `child`.
    public init(child: (any GtkWidgetConvertible)? = nil) {
        super.init(gtk_scrolled_window_new()!)
        self.child = child
    }

    /// What is scrolled.
    public var child: (any GtkWidgetConvertible)? {
        get { children["child"] }
        set { children.place(newValue, in: "child") { gtk_scrolled_window_set_child(opaquePointer, $0) } }
    }

    /// Whether the scrolled window asks for its child's natural width, rather than scrolling
    /// sideways as soon as it is narrower.
    public var propagatesNaturalWidth: Bool {
        get { gtk_scrolled_window_get_propagate_natural_width(opaquePointer) != 0 }
        set { gtk_scrolled_window_set_propagate_natural_width(opaquePointer, newValue ? 1 : 0) }
    }
}

/// Two widgets side by side (or one above the other) with a handle between them to move
/// (GtkPaned).
@MainActor
public final class Paned: Widget {
    private var children = HeldChildren()

    /// Creates a paned of `orientation` (`.horizontal`: side by side).
    public init(orientation: Orientation = .horizontal, start: (any GtkWidgetConvertible)? = nil, end: (any GtkWidgetConvertible)? = nil) {
        super.init(gtk_paned_new(orientation.gtk)!)
        startChild = start
        endChild = end
    }

    /// The first widget: the left one (the right one in right-to-left languages), or the top one.
    public var startChild: (any GtkWidgetConvertible)? {
        get { children["start"] }
        set { children.place(newValue, in: "start") { gtk_paned_set_start_child(opaquePointer, $0) } }
    }

    /// The second widget.
    public var endChild: (any GtkWidgetConvertible)? {
        get { children["end"] }
        set { children.place(newValue, in: "end") { gtk_paned_set_end_child(opaquePointer, $0) } }
    }

    /// Where the handle is, in pixels from the start.
    public var position: Int {
        get { Int(gtk_paned_get_position(opaquePointer)) }
        set { gtk_paned_set_position(opaquePointer, Int32(newValue)) }
    }

    /// Whether the end child grows and shrinks with the paned (otherwise the start child
    /// takes what the window gains or loses).
    public var resizesEndChild: Bool {
        get { gtk_paned_get_resize_end_child(opaquePointer) != 0 }
        set { gtk_paned_set_resize_end_child(opaquePointer, newValue ? 1 : 0) }
    }
}

/// Pages of which one is shown at a time, each with a name (GtkStack).
@MainActor
public final class Stack: Widget {
    private var children = HeldChildren()

    /// Creates an empty stack.
    public init() {
        super.init(gtk_stack_new()!)
    }

    /// Adds `page` under `name` (the first page added is shown).
    public func addPage(_ page: any GtkWidgetConvertible, name: String) {
        children.place(page, in: name) { gtk_stack_add_named(opaquePointer, $0, name) }
    }

    /// The name of the page shown; setting it shows that page.
    public var visiblePageName: String? {
        get { gtk_stack_get_visible_child_name(opaquePointer).map { String(cString: $0) } }
        set { gtk_stack_set_visible_child_name(opaquePointer, newValue) }
    }

    /// The page named `name`, if added.
    public func page(named name: String) -> (any GtkWidgetConvertible)? {
        children[name]
    }
}

/// A window's title bar holding widgets: a title in the middle, widgets packed at the
/// start and at the end, and the window's buttons (GtkHeaderBar).
@MainActor
public final class HeaderBar: Widget {
    private var children = HeldChildren()
    private var packed = 0

    /// Creates a header bar (the window's title in the middle until `titleWidget` is set).
    public init() {
        super.init(gtk_header_bar_new()!)
    }

    /// Adds `widget` at the start (the left, in left-to-right languages), after those
    /// already there.
    public func packStart(_ widget: any GtkWidgetConvertible) {
        pack(widget) { gtk_header_bar_pack_start(opaquePointer, $0) }
    }

    /// Adds `widget` at the end (the right), before those already there.
    public func packEnd(_ widget: any GtkWidgetConvertible) {
        pack(widget) { gtk_header_bar_pack_end(opaquePointer, $0) }
    }

    /// The widget shown in the middle instead of the window's title.
    public var titleWidget: (any GtkWidgetConvertible)? {
        get { children["title"] }
        set { children.place(newValue, in: "title") { gtk_header_bar_set_title_widget(opaquePointer, $0) } }
    }

    private func pack(_ widget: any GtkWidgetConvertible, _ put: (UnsafeMutablePointer<GtkWidget>?) -> Void) {
        packed += 1
        children.place(widget, in: "packed \(packed)", put)
    }
}
