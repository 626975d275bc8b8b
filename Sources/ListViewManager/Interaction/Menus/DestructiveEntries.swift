import CGtk
import CGtkShims
import GtkKit

/// Shows the entries of the destructive style as such. A GMenu item has no attribute for
/// its look (GTK 4.8 to 4.18 read none), and GTK's model buttons carry no action name to
/// find them by, so once GTK has made the popover's model buttons they are matched to the
/// menu's entries in the order GTK lays them out (the main page, then each submenu's page);
/// those of destructive entries get the `destructive-action` style class, which the
/// library's style sheet colours (`RowStyle`), and an accessible description saying so.
/// Should GTK lay a menu out otherwise, buttons are matched by title instead.
@MainActor
enum DestructiveEntries {
    /// What screen readers hear after a destructive entry's label.
    static var accessibleDescription: String { tr("Destructive") }

    /// Marks the model buttons of the destructive ones of `entries` in `popover`, whose menu
    /// model was just set from them.
    static func mark(_ entries: [MenuEntry], in popover: UnsafeMutablePointer<GtkWidget>) {
        guard entries.contains(where: { $0.actionEntries.contains { $0.style == .destructive } }) else { return }
        RowStyle.install()
        let buttons = entryButtons(in: popover)
        let expected = buttonOrder(of: entries)
        let titles = buttons.map(\.title)
        let destructive: [Bool]
        if titles == expected.map(\.title) {
            destructive = expected.map { $0.style == .destructive }
        } else {
            let others = Set(expected.filter { $0.style != .destructive }.map(\.title))
            let wanted = Set(expected.filter { $0.style == .destructive }.map(\.title)).subtracting(others)
            destructive = titles.map(wanted.contains)
        }
        for (button, isDestructive) in zip(buttons.map(\.widget), destructive) where isDestructive {
            gtk_widget_add_css_class(button, "destructive-action")
            cgtk_shims_accessible_set_description(button, accessibleDescription)
        }
    }

    /// The entries GTK makes a model button for, in the order of a depth-first walk of the
    /// popover: each page's actions and submenus (sections inline), the main page first,
    /// then each submenu's page in the order GTK makes them (as it meets them).
    static func buttonOrder(of entries: [MenuEntry]) -> [MenuEntry] {
        var pages: [[MenuEntry]] = [[]]
        func lay(_ entries: [MenuEntry], on page: Int) {
            for entry in entries {
                switch entry.content {
                case .action: pages[page].append(entry)
                case .section(let children): lay(children, on: page)
                case .submenu(let children):
                    pages[page].append(entry)
                    pages.append([])
                    lay(children, on: pages.count - 1)
                }
            }
        }
        lay(entries, on: 0)
        return pages.flatMap { $0 }
    }

    /// The model buttons under `widget` that stand for entries (not a submenu page's title,
    /// which leads back), depth first, with their labels.
    private static func entryButtons(in widget: UnsafeMutablePointer<GtkWidget>) -> [(widget: UnsafeMutablePointer<GtkWidget>, title: String)] {
        var buttons: [(widget: UnsafeMutablePointer<GtkWidget>, title: String)] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if cgtk_shims_instance_is_a(current, modelButtonType) != 0 {
                if gtk_widget_has_css_class(current, "title") == 0 { buttons.append((current, label(of: current))) }
            } else {
                buttons += entryButtons(in: current)
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return buttons
    }

    /// GTK's model button type (private to GTK, known by name once it exists).
    private static var modelButtonType: GType { g_type_from_name("GtkModelButton") }

    /// The text of a model button's label (its other label shows the accelerator).
    private static func label(of button: UnsafeMutablePointer<GtkWidget>) -> String {
        var child = gtk_widget_get_first_child(button)
        while let current = child {
            if cgtk_shims_instance_is_a(current, gtk_label_get_type()) != 0, String(cString: gtk_widget_get_css_name(current)) == "label" {
                return String(cString: gtk_label_get_text(OpaquePointer(current)))
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return ""
    }
}
