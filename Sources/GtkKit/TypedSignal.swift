import CGtk

/// A GTK signal of objects of type `Instance`, named together with the shape of its
/// handler: `Signal.connect(_:_:_:)` checks both when compiling, so a signal connects only
/// to what has it (`.clicked` to a ``Button``, `.searchChanged` to a ``SearchEntry``) and its
/// closure needs no type annotation:
///
/// ```swift
/// let button = Button(label: "Go")
/// Signal.connect(button, .clicked) { print("clicked") }
/// let search = SearchEntry()
/// Signal.connect(search, .searchChanged) { print("search for", search.text) }
/// ```
///
/// GTK objects reached through a pointer (the escape hatch for what the toolkit does not
/// wrap) carry no GTK class the compiler knows: a signal of theirs is named by the caller,
/// `.named("…")`, with any of the handler shapes below, and checked only for its shape.
/// GListModel's `items-changed` comes ready for a list model's pointer (`.itemsChanged`).
@MainActor
public struct TypedSignal<Instance, Handler> {
    /// The signal's name, as GTK spells it ("search-changed").
    public let name: String
    private let connector: @MainActor (UnsafeMutableRawPointer, String, Handler) -> UInt

    fileprivate init(_ name: String, _ connector: @escaping @MainActor (UnsafeMutableRawPointer, String, Handler) -> UInt) {
        self.name = name
        self.connector = connector
    }

    fileprivate func connect(_ instance: UnsafeMutableRawPointer, _ action: Handler) -> UInt {
        connector(instance, name, action)
    }
}

// MARK: Handler shapes: a signal of any name, checked for its shape only

extension TypedSignal where Handler == @MainActor () -> Void {
    /// The signal `name`, whose handler takes no arguments besides the instance.
    public static func named(_ name: String) -> Self { Self(name) { Signal.connect($0, $1, $2) } }
    /// `notify::property`: the object's `property` changed.
    public static func changed(_ property: String) -> Self {
        Self("notify::" + property) { instance, name, action in
            Signal.connect(instance, name) { (_: UnsafeMutableRawPointer?) in action() }
        }
    }
}

extension TypedSignal where Handler == @MainActor (UInt32) -> Void {
    /// The signal `name`, whose handler takes one `guint`.
    public static func named(_ name: String) -> Self { Self(name) { Signal.connect($0, $1, $2) } }
}

extension TypedSignal where Handler == @MainActor (UInt32, UInt32) -> Void {
    /// The signal `name`, whose handler takes two `guint`s (GtkSelectionModel's
    /// `selection-changed`: the first position and the count).
    public static func named(_ name: String) -> Self { Self(name) { Signal.connect($0, $1, $2) } }
}

extension TypedSignal where Handler == @MainActor (UInt32, UInt32, UInt32) -> Void {
    /// The signal `name`, whose handler takes three `guint`s.
    public static func named(_ name: String) -> Self { Self(name) { Signal.connect($0, $1, $2) } }
}

extension TypedSignal where Handler == @MainActor (UInt32, UInt32, UInt32) -> Bool {
    /// The signal `name`, whose handler takes three `guint`s and answers whether it handled
    /// it (GtkEventControllerKey's `key-pressed`: the key value, the hardware key code and
    /// the modifier mask; false lets the key go on to other handlers).
    public static func named(_ name: String) -> Self { Self(name) { Signal.connect($0, $1, $2) } }
}

extension TypedSignal where Handler == @MainActor (Int32, Double, Double) -> Void {
    /// The signal `name`, whose handler takes a count and a point (GtkGestureClick's
    /// `pressed` and `released`: the number of presses, and where).
    public static func named(_ name: String) -> Self { Self(name) { Signal.connect($0, $1, $2) } }
}

extension TypedSignal where Handler == @MainActor (Double, Double) -> Void {
    /// The signal `name`, whose handler takes a point (GtkEventControllerMotion's `enter`
    /// and `motion`).
    public static func named(_ name: String) -> Self { Self(name) { Signal.connect($0, $1, $2) } }
}

// MARK: The signals of the toolkit's objects

extension TypedSignal where Instance: Widget, Handler == @MainActor () -> Void {
    /// GtkWidget's `destroy`: a window closed, or a widget leaving for good.
    public static var destroy: Self { .named("destroy") }
    /// GtkWidget's `map`: the widget is about to be shown on screen.
    public static var map: Self { .named("map") }
    /// GtkWidget's `unmap`: the widget left the screen.
    public static var unmap: Self { .named("unmap") }
}

extension TypedSignal where Instance == Button, Handler == @MainActor () -> Void {
    /// GtkButton's `clicked`.
    public static var clicked: Self { .named("clicked") }
}

extension TypedSignal where Instance: Toggling, Handler == @MainActor () -> Void {
    /// GtkToggleButton's and GtkCheckButton's `toggled`.
    public static var toggled: Self { .named("toggled") }
}

extension TypedSignal where Instance == SearchEntry, Handler == @MainActor () -> Void {
    /// GtkSearchEntry's `search-changed`: the text changed and the typing paused.
    public static var searchChanged: Self { .named("search-changed") }
    /// GtkEditable's `changed`: the text changed.
    public static var changed: Self { .named("changed") }
    /// GtkSearchEntry's `activate`: Enter.
    public static var activate: Self { .named("activate") }
}

extension TypedSignal where Instance == Application, Handler == @MainActor () -> Void {
    /// GApplication's `activate`: the application started (or was started again).
    public static var activate: Self { .named("activate") }
}

extension TypedSignal where Instance == OpaquePointer, Handler == @MainActor (UInt32, UInt32, UInt32) -> Void {
    /// GListModel's `items-changed` (of a list model's pointer): the position, the items
    /// removed there and the items added.
    public static var itemsChanged: Self { .named("items-changed") }
}

/// The toolkit's widgets that toggle (``ToggleButton``, ``CheckButton``): they have
/// `toggled`.
@MainActor
public protocol Toggling: Widget {}

extension ToggleButton: Toggling {}
extension CheckButton: Toggling {}

extension Signal {
    /// Connects `action` to `signal` of `instance` for as long as `instance` lives (GTK
    /// releases the closure with the object): the signal must be one of the instance's
    /// type, and the handler's shape comes with it.
    @MainActor
    public static func connect<Instance: GObjectConvertible, Handler>(_ instance: Instance, _ signal: TypedSignal<Instance, Handler>,
                                                                      _ action: Handler) {
        _ = signal.connect(instance.gObject, action)
    }

    /// Connects `action` to `signal` of `instance` until the connection returned goes (or
    /// is disconnected): keep it for as long as the handler is wanted.
    @MainActor
    public static func connection<Instance: GObjectConvertible, Handler>(_ instance: Instance, _ signal: TypedSignal<Instance, Handler>,
                                                                         _ action: Handler) -> SignalConnection {
        SignalConnection(signal.connect(instance.gObject, action), on: instance.gObject)
    }
}

/// Anything a GObject can be reached through: a ``Widget``, the ``Application``, a pointer to
/// the object, or a Swift object of your own that owns one.
@MainActor
public protocol GObjectConvertible {
    /// The object, untyped.
    var gObject: UnsafeMutableRawPointer { get }
}

extension GObjectConvertible where Self: GObjectPointer {
    /// The pointer, untyped.
    public var gObject: UnsafeMutableRawPointer { rawPointer }
}

extension UnsafeMutablePointer: GObjectConvertible where Pointee: InstanceType {}
extension UnsafeMutableRawPointer: GObjectConvertible {}
extension OpaquePointer: GObjectConvertible {}

extension Widget: GObjectConvertible {
    public var gObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(gtkWidget) }
}

extension Application: GObjectConvertible {
    public var gObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(gtkApplication) }
}
