import CGtk
import CGtkShims

/// Shows the entries of the destructive style as such. A GMenu item has no attribute for
/// its look (GTK 4.8 to 4.18 read none), so once GTK has made the popover's model buttons,
/// those bound to destructive entries' actions get the `destructive-action` style class,
/// which the library's style sheet colours (`RowStyle`), and an accessible description
/// saying the entry is destructive.
@MainActor
enum DestructiveEntries {
    /// What screen readers hear after a destructive entry's label.
    static let accessibleDescription = "Destructive"

    /// Marks the model buttons of the destructive ones of `entries` (the menu's entries that
    /// do something, in action order) in `popover`, whose menu model was just set.
    static func mark(_ entries: [MenuEntry], in popover: UnsafeMutablePointer<GtkWidget>) {
        let names = Set(entries.indices.filter { entries[$0].style == .destructive }.map(ContextMenuModel.actionName))
        guard !names.isEmpty else { return }
        RowStyle.install()
        forEachDescendant(of: popover) { widget in
            guard cgtk_shims_instance_is_a(widget, gtk_actionable_get_type()) != 0,
                  let name = gtk_actionable_get_action_name(OpaquePointer(widget)), names.contains(String(cString: name)) else { return }
            gtk_widget_add_css_class(widget, "destructive-action")
            cgtk_shims_accessible_set_description(widget, accessibleDescription)
        }
    }

    /// Runs `body` on every descendant of `widget`, depth first.
    private static func forEachDescendant(of widget: UnsafeMutablePointer<GtkWidget>, _ body: (UnsafeMutablePointer<GtkWidget>) -> Void) {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            body(current)
            forEachDescendant(of: current, body)
            child = gtk_widget_get_next_sibling(current)
        }
    }
}
