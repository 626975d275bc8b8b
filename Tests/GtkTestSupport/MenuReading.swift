import CGtk
import Foundation
@testable import ListViewManager

/// What a context menu shows, read back from GTK: the GMenu model given to the popover, and
/// the model buttons GTK made from it.
@MainActor
public enum MenuReading {
    /// The items of `model`, one line each, in order: "Open" with " ⌨<Control>o" for an
    /// accelerator and " {document-open}" for an icon; "section Title" (or "section") and
    /// "submenu Title", followed by their items indented by two spaces; " (icons)" after a
    /// section shown as icon buttons.
    public static func describe(_ model: UnsafeMutablePointer<GMenuModel>, indent: String = "") -> [String] {
        var lines: [String] = []
        for index in 0..<g_menu_model_get_n_items(model) {
            let label = string(model, index, "label")
            var line = indent + (label ?? "")
            if let accelerator = string(model, index, "accel") { line += " ⌨\(accelerator)" }
            if let icon = g_menu_model_get_item_attribute_value(model, index, "icon", nil) {
                if let gicon = g_icon_deserialize(icon) {
                    line += " {\(iconName(takeString(g_icon_to_string(gicon))))}"
                    g_object_unref(UnsafeMutableRawPointer(gicon))
                }
                g_variant_unref(icon)
            }
            for (link, name) in [("section", "section"), ("submenu", "submenu")] {
                guard let linked = g_menu_model_get_item_link(model, index, link) else { continue }
                defer { g_object_unref(linked) }
                line = indent + name + (label.map { " " + $0 } ?? "")
                if string(model, index, "display-hint") == "horizontal-buttons" { line += " (icons)" }
                lines.append(line)
                lines += describe(linked, indent: indent + "  ")
                line = ""
            }
            if !line.isEmpty { lines.append(line) }
        }
        return lines
    }

    private static func string(_ model: UnsafeMutablePointer<GMenuModel>, _ index: Int32, _ attribute: String) -> String? {
        guard let value = g_menu_model_get_item_attribute_value(model, index, attribute, nil) else { return nil }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }

    /// One model button GTK shows in a popover menu.
    public struct ShownEntry: Equatable, CustomStringConvertible {
        /// The label's text, as shown (empty when only the icon is shown).
        public let text: String
        /// The accelerator's label, as shown ("Ctrl+O"), if any.
        public let accelerator: String?
        /// The icon shown, if any.
        public let icon: String?
        /// Whether the button can be clicked.
        public let isSensitive: Bool
        /// Whether it has the `destructive-action` style class.
        public let isDestructive: Bool

        public var description: String {
            var parts = [text]
            if let accelerator { parts.append("⌨" + accelerator) }
            if let icon { parts.append("{\(icon)}") }
            if !isSensitive { parts.append("(disabled)") }
            if isDestructive { parts.append("(destructive)") }
            return parts.joined(separator: " ")
        }
    }

    /// The model buttons under `widget` (a popover menu, or one of its pages), depth first.
    public static func modelButtons(in widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var buttons: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if typeName(current) == "GtkModelButton" { buttons.append(current) } else { buttons += modelButtons(in: current) }
            child = gtk_widget_get_next_sibling(current)
        }
        return buttons
    }

    /// What the model button `button` shows.
    public static func shownEntry(_ button: UnsafeMutablePointer<GtkWidget>) -> ShownEntry {
        var text = "", accelerator: String?, icon: String?
        visitVisibleDescendants(of: button) { widget in
            switch typeName(widget) {
            case "GtkLabel":
                let label = String(cString: gtk_label_get_text(OpaquePointer(widget)))
                if String(cString: gtk_widget_get_css_name(widget)) == "accelerator" { accelerator = label } else { text = label }
            case "GtkImage":
                if let gicon = gtk_image_get_gicon(OpaquePointer(widget)) { icon = iconName(takeString(g_icon_to_string(gicon))) }
            default: break
            }
        }
        return ShownEntry(text: text, accelerator: accelerator, icon: icon, isSensitive: gtk_widget_is_sensitive(button) != 0,
                          isDestructive: gtk_widget_has_css_class(button, "destructive-action") != 0)
    }

    /// The model button showing `text` under `widget`.
    public static func modelButton(_ text: String, in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        modelButtons(in: widget).first { shownEntry($0).text == text }
    }

    /// The page a popover menu shows (its main menu or a submenu), or nil while it slides
    /// from one to another.
    public static func shownPage(of popover: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        guard let stack = firstDescendant(of: popover, named: "GtkStack"), gtk_widget_get_mapped(stack) != 0,
              gtk_stack_get_transition_running(OpaquePointer(stack)) == 0 else { return nil }
        let page = gtk_stack_get_visible_child(OpaquePointer(stack))
        let mapped = modelButtons(in: popover).filter { gtk_widget_get_mapped($0) != 0 }
        // Both pages stay mapped for a moment after the slide.
        guard let page, !mapped.isEmpty, mapped.allSatisfy({ gtk_widget_is_ancestor($0, page) != 0 }) else { return nil }
        return page
    }

    private static func firstDescendant(of widget: UnsafeMutablePointer<GtkWidget>, named type: String) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if typeName(current) == type { return current }
            if let found = firstDescendant(of: current, named: type) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    private static func visitVisibleDescendants(of widget: UnsafeMutablePointer<GtkWidget>, _ body: (UnsafeMutablePointer<GtkWidget>) -> Void) {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if gtk_widget_get_visible(current) != 0 {
                body(current)
                visitVisibleDescendants(of: current, body)
            }
            child = gtk_widget_get_next_sibling(current)
        }
    }

    /// The first name of an icon described by `g_icon_to_string` (". GThemedIcon starred
    /// starred-symbolic" for a themed icon of several names).
    private static func iconName(_ description: String) -> String {
        let words = description.split(separator: " ")
        return words.count > 2 && words[0] == "." ? String(words[2]) : description
    }

    /// The text of a string GLib handed over (transfer full), freed.
    private static func takeString(_ string: UnsafeMutablePointer<gchar>?) -> String {
        guard let string else { return "" }
        defer { g_free(string) }
        return String(cString: string)
    }

    /// The GType name of `widget` ("GtkLabel").
    public static func typeName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self)))
    }
}
