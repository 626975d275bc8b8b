import CGtk
import CGtkShims
@testable import ListViewManager

/// What a list view shows, read from its widgets in order: GTK puts each section header's
/// widget (a GtkListHeaderWidget, GTK 4.12 and later) just before the first row shown of its
/// section, among the row widgets (GtkListItemWidget).
@MainActor
struct ShownSections {
    /// A widget of the list, in order.
    enum Entry: Equatable, CustomStringConvertible {
        /// A section header, with the text it shows (nil: it shows nothing).
        case header(String?)
        /// The bound row at this position (-1: a row the factory does not know, a placeholder).
        case row(Int)

        var description: String {
            switch self {
            case .header(let text): return "header \(text ?? "-")"
            case .row(let position): return "row \(position)"
            }
        }
    }

    let entries: [Entry]

    init(_ manager: ItemViewManager) {
        var positions: [UnsafeMutableRawPointer: Int] = [:]
        for (listItem, _) in manager.factory.boundRows {
            if let child = gtk_list_item_get_child(listItem) { positions[UnsafeMutableRawPointer(child)] = Int(gtk_list_item_get_position(listItem)) }
        }
        let headerType = g_type_from_name("GtkListHeaderWidget")
        var entries: [Entry] = []
        var child = gtk_widget_get_first_child(manager.view)
        while let widget = child {
            if headerType != 0, cgtk_shims_instance_is_a(UnsafeMutableRawPointer(widget), headerType) != 0 {
                entries.append(.header(Self.visibleText(in: widget)))
            } else if let content = gtk_widget_get_first_child(widget), cgtk_shims_instance_is_a(UnsafeMutableRawPointer(widget), gtk_widget_get_type()) != 0,
                      String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self))) == "GtkListItemWidget" {
                entries.append(.row(positions[UnsafeMutableRawPointer(content)] ?? -1))
            }
            child = gtk_widget_get_next_sibling(widget)
        }
        self.entries = entries
    }

    /// The texts of the headers that show something, in order.
    var headerTexts: [String] {
        entries.compactMap { if case .header(let text?) = $0 { text } else { nil } }
    }

    /// Where the shown rows break the rules: between two rows at consecutive positions there
    /// is a header exactly when the second starts its section (`sectionStart`).
    func misplacedHeaders(sectionStart: (Int) -> Bool) -> [String] {
        var problems: [String] = []
        var previous: Int?
        var headerSince = false
        for entry in entries {
            switch entry {
            case .header: headerSince = true
            case .row(let position):
                if let previous, previous >= 0, position == previous + 1, headerSince != sectionStart(position) {
                    problems.append("\(headerSince ? "a header" : "no header") before row \(position) in \(entries)")
                }
                previous = position
                headerSince = false
            }
        }
        return problems
    }

    /// The text of the first visible label inside `widget`, if any.
    static func visibleText(in widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        guard gtk_widget_get_visible(widget) != 0 else { return nil }
        if cgtk_shims_instance_is_a(UnsafeMutableRawPointer(widget), gtk_label_get_type()) != 0 {
            return String(cString: gtk_label_get_text(OpaquePointer(widget)))
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let text = visibleText(in: current) { return text }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }
}
