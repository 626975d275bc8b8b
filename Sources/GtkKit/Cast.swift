import CGtk
import CGtkShims

/// A GTK or GLib instance struct with its GType, so that pointers can be cast to it checked
/// (`gtkCast(_:to:)`). Conform other GTK types the same way: `static var gType` returns
/// their `*_get_type()`.
public protocol InstanceType {
    /// The type's GType.
    static var gType: GType { get }
}

extension GtkWidget: InstanceType { public static var gType: GType { gtk_widget_get_type() } }
extension GtkBox: InstanceType { public static var gType: GType { gtk_box_get_type() } }
extension GtkWindow: InstanceType { public static var gType: GType { gtk_window_get_type() } }
extension GtkButton: InstanceType { public static var gType: GType { gtk_button_get_type() } }
extension GtkToggleButton: InstanceType { public static var gType: GType { gtk_toggle_button_get_type() } }
extension GtkCheckButton: InstanceType { public static var gType: GType { gtk_check_button_get_type() } }
extension GtkAdjustment: InstanceType { public static var gType: GType { gtk_adjustment_get_type() } }
extension GtkApplication: InstanceType { public static var gType: GType { gtk_application_get_type() } }
extension GSimpleActionGroup: InstanceType { public static var gType: GType { g_simple_action_group_get_type() } }
extension GtkCssProvider: InstanceType { public static var gType: GType { gtk_css_provider_get_type() } }
extension GdkContentProvider: InstanceType { public static var gType: GType { gdk_content_provider_get_type() } }
extension GtkPopover: InstanceType { public static var gType: GType { gtk_popover_get_type() } }
extension GtkDrawingArea: InstanceType { public static var gType: GType { gtk_drawing_area_get_type() } }
extension GtkSorter: InstanceType { public static var gType: GType { gtk_sorter_get_type() } }
extension GApplication: InstanceType { public static var gType: GType { g_application_get_type() } }
extension GMenuModel: InstanceType { public static var gType: GType { g_menu_model_get_type() } }

/// `pointer` as a pointer to the instance struct `T`: what GTK's cast macros (`GTK_BOX (x)`)
/// do. Debug builds check the object's type, and a wrong cast stops there; release builds
/// only convert the pointer.
///
/// Raw pointers are not `Sendable` in Swift 6, so a pointer cannot be the result of
/// `MainActor.assumeIsolated`: a C callback whose answer is a pointer (a list model's
/// `get_item`, a drag source's content) carries it out as `Int(bitPattern:)` and makes it a
/// pointer again outside. That is the one reason for `Int(bitPattern:)` around pointers in
/// this module and those built on it.
public func gtkCast<T: InstanceType>(_ pointer: some GObjectPointer, to type: T.Type) -> UnsafeMutablePointer<T> {
    let raw = pointer.rawPointer
    assert(cgtk_shims_instance_is_a(raw, T.gType) != 0,
           "\(String(cString: g_type_name_from_instance(raw.assumingMemoryBound(to: GTypeInstance.self)))) is not a \(T.self)")
    return raw.assumingMemoryBound(to: T.self)
}
