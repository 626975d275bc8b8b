import CGtk

/// A GTK signal named together with the shape of its handler, so that
/// `Signal.connect(_:_:_:)` checks the closure when compiling and needs no type annotation:
///
/// ```swift
/// Signal.connect(button, .clicked) { print("clicked") }
/// Signal.connect(listView, .activatePosition) { position in print("opened row", position) }
/// Signal.connect(model, .itemsChanged) { position, removed, added in … }
/// ```
///
/// Signals not listed here are made the same way: `TypedSignal<@MainActor (UInt32) -> Void>("name")`,
/// with any of the handler shapes `Signal.connect` takes by name.
@MainActor
public struct TypedSignal<Handler> {
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

extension TypedSignal where Handler == @MainActor () -> Void {
    /// A signal whose handler takes no arguments besides the instance.
    public init(_ name: String) { self.init(name) { Signal.connect($0, $1, $2) } }
    /// GtkButton's `clicked`.
    public static var clicked: Self { Self("clicked") }
    /// GtkToggleButton's and GtkCheckButton's `toggled`.
    public static var toggled: Self { Self("toggled") }
    /// GtkSearchEntry's `search-changed`: the text changed and the typing paused.
    public static var searchChanged: Self { Self("search-changed") }
    /// GtkEditable's `changed`: the text changed.
    public static var changed: Self { Self("changed") }
    /// GtkEntry's and GtkSearchEntry's `activate` (Enter), GApplication's `activate`.
    public static var activate: Self { Self("activate") }
    /// GtkWidget's `destroy`: a window closed, or a widget leaving for good.
    public static var destroy: Self { Self("destroy") }
    /// GtkWidget's `map`: the widget is about to be shown on screen.
    public static var map: Self { Self("map") }
}

extension TypedSignal where Handler == @MainActor (UInt32) -> Void {
    /// A signal whose handler takes one `guint`.
    public init(_ name: String) { self.init(name) { Signal.connect($0, $1, $2) } }
    /// GtkListView's, GtkGridView's and GtkColumnView's `activate`: the position of the row
    /// activated (double click, or Enter).
    public static var activatePosition: Self { Self("activate") }
}

extension TypedSignal where Handler == @MainActor (UInt32, UInt32) -> Void {
    /// A signal whose handler takes two `guint`s.
    public init(_ name: String) { self.init(name) { Signal.connect($0, $1, $2) } }
    /// GtkSelectionModel's `selection-changed`: the first position and the count of items
    /// whose selection may have changed.
    public static var selectionChanged: Self { Self("selection-changed") }
}

extension TypedSignal where Handler == @MainActor (UInt32, UInt32, UInt32) -> Void {
    /// A signal whose handler takes three `guint`s.
    public init(_ name: String) { self.init(name) { Signal.connect($0, $1, $2) } }
    /// GListModel's `items-changed`: the position, the items removed there and the items
    /// added.
    public static var itemsChanged: Self { Self("items-changed") }
}

extension TypedSignal where Handler == @MainActor (UInt32, UInt32, UInt32) -> Bool {
    /// A signal whose handler takes three `guint`s and answers whether it handled it.
    public init(_ name: String) { self.init(name) { Signal.connect($0, $1, $2) } }
    /// GtkEventControllerKey's `key-pressed`: the key value, the hardware key code and the
    /// modifier mask; answer false to let the key go on to other handlers.
    public static var keyPressed: Self { Self("key-pressed") }
}

extension TypedSignal where Handler == @MainActor (Int32, Double, Double) -> Void {
    /// A signal whose handler takes a count and a point.
    public init(_ name: String) { self.init(name) { Signal.connect($0, $1, $2) } }
    /// GtkGestureClick's `pressed`: the number of presses (2 for a double click) and where.
    public static var pressed: Self { Self("pressed") }
    /// GtkGestureClick's `released`: the number of presses and where.
    public static var released: Self { Self("released") }
}

extension TypedSignal where Handler == @MainActor (Double, Double) -> Void {
    /// A signal whose handler takes a point.
    public init(_ name: String) { self.init(name) { Signal.connect($0, $1, $2) } }
    /// GtkEventControllerMotion's `enter`: the pointer came in, here.
    public static var enter: Self { Self("enter") }
    /// GtkEventControllerMotion's `motion`: the pointer moved, to here.
    public static var motion: Self { Self("motion") }
}

extension Signal {
    /// Connects `action` to `signal` of `instance` (a widget, the application, or a GObject
    /// pointer); the handler's shape comes with the signal. Returns the handler id.
    @MainActor
    @discardableResult
    public static func connect<Handler>(_ instance: some GObjectConvertible, _ signal: TypedSignal<Handler>, _ action: Handler) -> UInt {
        signal.connect(instance.gObject, action)
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

extension UnsafeMutablePointer: GObjectConvertible {}
extension UnsafeMutableRawPointer: GObjectConvertible {}
extension OpaquePointer: GObjectConvertible {}

extension Widget: GObjectConvertible {
    public var gObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(gtkWidget) }
}

extension Application: GObjectConvertible {
    public var gObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(gtkApplication) }
}
