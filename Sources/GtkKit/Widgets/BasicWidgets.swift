import CGtk
import CGtkShims
import Foundation
import VisibleText

/// A widget type that can wrap a GtkWidget made elsewhere (by GtkBuilder, say).
@MainActor
public protocol WrappingWidget: Widget {
    /// The GTK type the wrapped widget must be.
    static var gtkType: GType { get }
    /// Wraps `widget` (taking one reference), which must be of `gtkType`.
    static func wrapping(_ widget: UnsafeMutablePointer<GtkWidget>) -> Self
    /// A new widget not shown anywhere, standing in for one a template lacks.
    static func standIn() -> Self
}

/// A line of text (GtkLabel), aligned to the start by default.
@MainActor
public final class Label: Widget, WrappingWidget {
    public static var gtkType: GType { gtk_label_get_type() }
    public static func wrapping(_ widget: UnsafeMutablePointer<GtkWidget>) -> Label { Label(wrapping: widget) }
    public static func standIn() -> Label { Label() }
    private init(wrapping widget: UnsafeMutablePointer<GtkWidget>) { super.init(widget) }

    /// Creates a label showing `text` (as ``text`` shows it).
    public init(_ text: String = "") {
        super.init(gtk_label_new(text.withVisibleControlCharacters))
        gtk_label_set_xalign(opaquePointer, 0)
    }

    /// The text shown. Control characters other than tab and line feed are shown as their
    /// symbols ("a\0b" as "a␀b"): GTK takes a C string, which would end at a NUL, and the
    /// others would not show as themselves. Reading it gives the text as shown.
    public var text: String {
        get { String(cString: gtk_label_get_text(opaquePointer)) }
        set { gtk_label_set_text(opaquePointer, newValue.withVisibleControlCharacters) }
    }

    /// Whether the text is centred in the label's width (else it starts at its start).
    public var isCentered: Bool {
        get { gtk_label_get_xalign(opaquePointer) == 0.5 }
        set { gtk_label_set_xalign(opaquePointer, newValue ? 0.5 : 0) }
    }
}

/// An icon from the icon theme (GtkImage).
@MainActor
public final class Image: Widget, WrappingWidget {
    public static var gtkType: GType { gtk_image_get_type() }
    public static func wrapping(_ widget: UnsafeMutablePointer<GtkWidget>) -> Image { Image(wrapping: widget) }
    public static func standIn() -> Image { Image() }
    private init(wrapping widget: UnsafeMutablePointer<GtkWidget>) { super.init(widget) }

    /// Creates an image of the named icon.
    public init(iconName: String? = nil) {
        super.init(gtk_image_new_from_icon_name(iconName))
    }

    /// The name of the icon shown, or nil for none.
    public var iconName: String? {
        get { gtk_image_get_icon_name(opaquePointer).map { String(cString: $0) } }
        set { gtk_image_set_from_icon_name(opaquePointer, newValue) }
    }

    /// The size of the icon in pixels.
    public var pixelSize: Int {
        get { Int(gtk_image_get_pixel_size(opaquePointer)) }
        set { gtk_image_set_pixel_size(opaquePointer, Int32(newValue)) }
    }
}

/// How a box lays out its children.
public enum Orientation: Sendable {
    /// Side by side.
    case horizontal
    /// One above the other.
    case vertical

    var gtk: GtkOrientation { self == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL }
}

/// Children side by side or one above the other (GtkBox).
@MainActor
open class Box: Widget {
    /// The children appended that are not ``Widget``s, kept alive while shown (a widget's
    /// GTK widget is kept by GTK).
    private var heldChildren: [AnyObject] = []

    /// Creates an empty box.
    public init(orientation: Orientation = .horizontal, spacing: Int = 6) {
        super.init(gtk_box_new(orientation.gtk, Int32(spacing)))
    }

    /// Creates an empty box that screen readers announce as a group named `name`, such as a
    /// pane. (A plain box is a generic container, whose name GTK 4.12 and later do not read.)
    public init(groupNamed name: String, orientation: Orientation = .horizontal, spacing: Int = 6) {
        super.init(cgtk_shims_group_box_new(orientation.gtk, Int32(spacing), name))
    }

    /// Adds `child` after the existing children.
    public func append(_ child: Widget) {
        gtk_box_append(gtkPointer(as: GtkBox.self), child.gtkWidget)
    }

    /// Adds anything a container can show after the existing children. The box keeps a
    /// child that is not a ``Widget`` alive while it shows it.
    public func append(_ child: any GtkWidgetConvertible) {
        if !(child is Widget) { heldChildren.append(child) }
        gtk_box_append(gtkPointer(as: GtkBox.self), child.gtkWidget)
    }

    /// Adds a widget from any binding after the existing children: `append(Widget(pointer))`
    /// does the same through the one door for pointers (``Widget/init(_:)``).
    @available(*, deprecated, message: "wrap the pointer: append(Widget(pointer))")
    public func append(gtkWidget child: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(gtkPointer(as: GtkBox.self), child)
    }
}

/// A push button (GtkButton).
@MainActor
public final class Button: Widget, WrappingWidget {
    public static var gtkType: GType { gtk_button_get_type() }
    public static func wrapping(_ widget: UnsafeMutablePointer<GtkWidget>) -> Button { Button(wrapping: widget) }
    public static func standIn() -> Button { Button(label: "") }
    private init(wrapping widget: UnsafeMutablePointer<GtkWidget>) { super.init(widget) }

    /// Creates a button with a text label.
    public init(label: String) {
        super.init(gtk_button_new_with_label(label))
    }

    /// Creates a button showing the icon `iconName` (name it for screen readers with
    /// `setAccessibilityLabel`, and say what it does with `tooltip`).
    public init(iconName: String) {
        super.init(gtk_button_new_from_icon_name(iconName))
    }

    /// The button's text.
    public var label: String {
        get { gtk_button_get_label(gtkPointer(as: GtkButton.self)).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(gtkPointer(as: GtkButton.self), newValue) }
    }

    /// Runs `action` each time the button is clicked.
    public func onClicked(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(self, .clicked, action)
    }
}

/// A check box with a label (GtkCheckButton).
@MainActor
public final class CheckButton: Widget, WrappingWidget {
    public static var gtkType: GType { gtk_check_button_get_type() }
    public static func wrapping(_ widget: UnsafeMutablePointer<GtkWidget>) -> CheckButton { CheckButton(wrapping: widget) }
    public static func standIn() -> CheckButton { CheckButton() }
    private init(wrapping widget: UnsafeMutablePointer<GtkWidget>) { super.init(widget) }

    /// Creates a check button.
    public init(label: String? = nil) {
        super.init(gtk_check_button_new_with_label(label))
    }

    /// Whether it is checked.
    public var isActive: Bool {
        get { gtk_check_button_get_active(gtkPointer(as: GtkCheckButton.self)) != 0 }
        set { gtk_check_button_set_active(gtkPointer(as: GtkCheckButton.self), newValue ? 1 : 0) }
    }

    /// Runs `action` each time it is checked or unchecked.
    public func onToggled(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(self, .toggled, action)
    }
}

/// An on/off switch (GtkSwitch).
@MainActor
public final class Switch: Widget, WrappingWidget {
    public static var gtkType: GType { gtk_switch_get_type() }
    public static func wrapping(_ widget: UnsafeMutablePointer<GtkWidget>) -> Switch { Switch(wrapping: widget) }
    public static func standIn() -> Switch { Switch() }
    private init(wrapping widget: UnsafeMutablePointer<GtkWidget>) { super.init(widget) }

    /// Creates a switch.
    public init() {
        super.init(gtk_switch_new())
    }

    /// Whether it is on.
    public var isActive: Bool {
        get { gtk_switch_get_active(opaquePointer) != 0 }
        set { gtk_switch_set_active(opaquePointer, newValue ? 1 : 0) }
    }

    /// Runs `action` each time it is turned on or off.
    public func onToggled(_ action: @escaping @MainActor () -> Void) {
        Signal.connect(self, .changed("active"), action)
    }
}
