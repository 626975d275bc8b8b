import CGtk
import CGtkShims

/// A top-level window (GtkWindow).
///
/// The Swift object lives as long as the window is open: a window made and presented in
/// `Application.onActivate` stays, with what it shows, until it is closed, though nothing
/// else keeps it.
@MainActor
open class Window: Widget {
    private var children = HeldChildren()
    /// The window itself, from its creation until it is closed.
    private var keptOpen: Window?
    /// What runs once the window is closed.
    private var closedActions: [@MainActor () -> Void] = []
    /// The handler watching GTK's list of open windows, until the window leaves it.
    private var toplevelsConnection: SignalConnection?

    /// Takes ownership of `window`, a new GtkWindow or subclass.
    override public init(_ window: UnsafeMutablePointer<GtkWidget>) {
        super.init(window)
        keptOpen = self
        // A closed window (`gtk_window_destroy`) leaves GTK's list of open windows; its
        // `destroy` signal comes only with its last reference, which this object holds.
        let toplevels = gtk_window_get_toplevels()!
        toplevelsConnection = Signal.connection(toplevels, .itemsChanged) { [unowned self] _, removed, _ in
            if removed > 0, !isOpen(in: toplevels) { closed() }
        }
    }

    /// Whether GTK still lists the window among the open ones.
    private func isOpen(in toplevels: OpaquePointer) -> Bool {
        (0..<g_list_model_get_n_items(toplevels)).contains { index in
            let item = g_list_model_get_item(toplevels, index)
            defer { g_object_unref(item) }
            return item == UnsafeMutableRawPointer(gtkWidget)
        }
    }

    /// Runs what waited for the window to close, and lets the Swift object go (with what it
    /// holds) once nothing else keeps it.
    private func closed() {
        toplevelsConnection?.disconnect()
        toplevelsConnection = nil
        let actions = closedActions
        closedActions = []
        actions.forEach { $0() }
        keptOpen = nil
    }

    /// Creates a window.
    public convenience init(title: String = "") {
        self.init(gtk_window_new()!)
        self.title = title
    }

    private var gtkWindow: UnsafeMutablePointer<GtkWindow> { gtkPointer() }

    /// The window's title (shown in the title bar, the task switcher).
    public var title: String {
        get { gtk_window_get_title(gtkWindow).map { String(cString: $0) } ?? "" }
        set { gtk_window_set_title(gtkWindow, newValue) }
    }

    /// The size the window opens at (the user may resize it).
    public func setDefaultSize(width: Int, height: Int) {
        gtk_window_set_default_size(gtkWindow, Int32(width), Int32(height))
    }

    /// What the window shows.
    public var child: (any GtkWidgetConvertible)? {
        get { children["child"] }
        set { children.place(newValue, in: "child") { gtk_window_set_child(gtkWindow, $0) } }
    }

    /// The widget shown as the title bar: a ``HeaderBar``, usually.
    public var titlebar: (any GtkWidgetConvertible)? {
        get { children["titlebar"] }
        set { children.place(newValue, in: "titlebar") { gtk_window_set_titlebar(gtkWindow, $0) } }
    }

    /// Shows the window and brings it to the front.
    public func present() {
        gtk_window_present(gtkWindow)
    }

    /// Closes the window, as its close button does (a window never shown is just destroyed).
    public func close() {
        if gtk_widget_get_realized(gtkWidget) != 0 { gtk_window_close(gtkWindow) } else { gtk_window_destroy(gtkWindow) }
    }

    /// Runs `action` once the window is closed, by its close button, `close()` or
    /// `gtk_window_destroy`.
    public func onClosed(_ action: @escaping @MainActor () -> Void) {
        closedActions.append(action)
    }
}

/// A window of an ``Application`` (GtkApplicationWindow): the application runs as long as
/// one is open.
@MainActor
public final class ApplicationWindow: Window {
    /// Creates a window of `application`, titled `title`, opening at `width` × `height`
    /// when given.
    public init(application: Application, title: String = "", width: Int? = nil, height: Int? = nil) {
        super.init(gtk_application_window_new(application.gtkApplication)!)
        self.title = title
        if let width, let height { setDefaultSize(width: width, height: height) }
    }
}
