import CGtk
import CGtkShims
import Foundation
import VisibleText

/// A GTK widget owned from Swift: the base of this module's thin wrappers, and of widgets of
/// your own.
///
/// Holds exactly one reference to its `GtkWidget` (a floating reference is sunk), released
/// when the Swift object goes away; a parent widget keeps its own reference.
@MainActor
open class Widget {
    private let reference: ObjectReference<UnsafeMutablePointer<GtkWidget>>

    /// The GTK widget.
    public var gtkWidget: UnsafeMutablePointer<GtkWidget> { reference.pointer }

    /// Takes ownership of `widget` (sinking its floating reference, or adding one).
    public init(_ widget: UnsafeMutablePointer<GtkWidget>) {
        reference = ObjectReference(sinking: widget)
    }

    /// Names the widget for screen readers (its accessible label). GTK 4.12 and later do not
    /// read the name of a plain box; name a pane with ``Box/init(groupNamed:orientation:spacing:)``.
    public func setAccessibilityLabel(_ label: String) {
        cgtk_shims_accessible_set_label(gtkWidget, label)
    }

    /// Adds a CSS class, for styling.
    public func addCSSClass(_ name: String) {
        gtk_widget_add_css_class(gtkWidget, name)
    }

    /// Adds the CSS class `name` when `present`, removes it otherwise (a state shown by a
    /// class, such as a placeholder's).
    public func setCSSClass(_ name: String, present: Bool) {
        if present { gtk_widget_add_css_class(gtkWidget, name) } else { gtk_widget_remove_css_class(gtkWidget, name) }
    }

    /// Whether the widget has the CSS class `name`.
    public func hasCSSClass(_ name: String) -> Bool {
        gtk_widget_has_css_class(gtkWidget, name) != 0
    }

    /// The text shown when the pointer rests on the widget, its control characters shown
    /// as ``Label/text`` shows them.
    public var tooltip: String? {
        get { gtk_widget_get_tooltip_text(gtkWidget).map { String(cString: $0) } }
        set { gtk_widget_set_tooltip_text(gtkWidget, newValue?.withVisibleControlCharacters) }
    }

    /// Whether the widget is shown.
    public var isVisible: Bool {
        get { gtk_widget_get_visible(gtkWidget) != 0 }
        set { gtk_widget_set_visible(gtkWidget, newValue ? 1 : 0) }
    }

    /// Whether the widget expands horizontally to take spare room.
    public var expandsHorizontally: Bool {
        get { gtk_widget_get_hexpand(gtkWidget) != 0 }
        set { gtk_widget_set_hexpand(gtkWidget, newValue ? 1 : 0) }
    }

    /// Whether the widget expands vertically to take spare room.
    public var expandsVertically: Bool {
        get { gtk_widget_get_vexpand(gtkWidget) != 0 }
        set { gtk_widget_set_vexpand(gtkWidget, newValue ? 1 : 0) }
    }

    /// Asks for at least `width` × `height` pixels (nil: what the content needs).
    public func setMinimumSize(width: Int? = nil, height: Int? = nil) {
        gtk_widget_set_size_request(gtkWidget, Int32(width ?? -1), Int32(height ?? -1))
    }

    /// Gives the widget the keyboard.
    public func grabFocus() {
        gtk_widget_grab_focus(gtkWidget)
    }

    /// Sets the space around the widget.
    public func setMargins(vertical: Int, horizontal: Int) {
        gtk_widget_set_margin_top(gtkWidget, Int32(vertical))
        gtk_widget_set_margin_bottom(gtkWidget, Int32(vertical))
        gtk_widget_set_margin_start(gtkWidget, Int32(horizontal))
        gtk_widget_set_margin_end(gtkWidget, Int32(horizontal))
    }

    /// The widget as a pointer to another GTK type (for calling GTK directly), cast as
    /// ``gtkCast(_:to:)`` casts: checked in debug builds.
    public func gtkPointer<T: InstanceType>(as type: T.Type = T.self) -> UnsafeMutablePointer<T> {
        gtkCast(gtkWidget, to: type)
    }

    /// The widget as an opaque pointer (GTK types Swift imports as opaque).
    public var opaquePointer: OpaquePointer { OpaquePointer(gtkWidget) }
}

/// Which way text reads, and widgets are laid out: rows put their first child at the
/// right in right-to-left languages (Arabic, Hebrew), and GTK mirrors boxes, panes and
/// lists.
public enum TextDirection: String, CaseIterable, Sendable {
    /// Left to right ("ltr").
    case leftToRight = "ltr"
    /// Right to left ("rtl").
    case rightToLeft = "rtl"

    var gtk: GtkTextDirection { self == .leftToRight ? GTK_TEXT_DIR_LTR : GTK_TEXT_DIR_RTL }
}

extension Widget {
    /// The direction of every widget that was not given one: by default the language's
    /// (GTK reads it from the translations of the locale when it starts). Set it once GTK
    /// has started (in `Application.onActivate`) and before making windows, to lay an app
    /// out right to left whatever the language.
    public static var defaultDirection: TextDirection {
        get { gtk_widget_get_default_direction() == GTK_TEXT_DIR_RTL ? .rightToLeft : .leftToRight }
        set { gtk_widget_set_default_direction(newValue.gtk) }
    }
}
