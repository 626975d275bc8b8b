import CGtk
import CGtkShims
import GtkKit

/// The menu of a table's column headers (a right click on a header): one check item per
/// column, which shows or hides it. The last column shown cannot be hidden.
@MainActor
final class ColumnChooser {
    /// The prefix the action group is inserted under on the column view.
    static let actionPrefix = "table-columns"

    private let menu = ObjectReference(adopting: g_menu_new()!)
    private let actions = ObjectReference(adopting: g_simple_action_group_new()!)
    private var actionNames: [String] = []
    private weak var manager: ColumnViewManager?

    init(manager: ColumnViewManager) {
        self.manager = manager
        gtk_widget_insert_action_group(manager.view, Self.actionPrefix, OpaquePointer(actions.pointer))
    }

    /// The menu, as a GMenuModel.
    var menuModel: UnsafeMutablePointer<GMenuModel> { gtkCast(menu.pointer, to: GMenuModel.self) }

    private var rebuildScheduled = false

    /// The columns changed: the menu is made again once the changes at hand are done (a
    /// table of 2,000 columns added one by one makes it once, not 2,000 times).
    func columnsChanged() {
        guard !rebuildScheduled else { return }
        rebuildScheduled = true
        whenIdle { [weak self] in
            guard let self, let columns = manager?.columns else { return }
            rebuildScheduled = false
            rebuild(for: columns)
        }
    }

    /// Lists `columns` (in the order they were added), each with a check item.
    func rebuild(for columns: [TableColumn]) {
        g_menu_remove_all(menu.pointer)
        for name in actionNames { g_action_map_remove_action(OpaquePointer(actions.pointer), name) }
        actionNames = []
        for (index, column) in columns.enumerated() {
            let name = "column-\(index)"
            actionNames.append(name)
            let action = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(column.isVisible ? 1 : 0))!
            Signal.connect(UnsafeMutableRawPointer(action), "change-state") { [weak column, weak self] (value: UnsafeMutableRawPointer?) in
                guard let column, let value else { return }
                column.isVisible = g_variant_get_boolean(OpaquePointer(value)) != 0
                self?.refresh()
            }
            g_action_map_add_action(OpaquePointer(actions.pointer), action)
            g_object_unref(UnsafeMutableRawPointer(action))
            g_menu_append(menu.pointer, column.title, "\(Self.actionPrefix).\(name)")
            if let gtkColumn = column.column { gtk_column_view_column_set_header_menu(gtkColumn, menuModel) }
        }
        refresh()
    }

    /// Shows each column's visibility in its item; the last column shown cannot be hidden.
    func refresh() {
        guard !rebuildScheduled, let columns = manager?.columns else { return }
        let shown = columns.filter(\.isVisible).count
        // A tree's indent and arrows are in the first column's cells: it stays.
        let keepsFirst = manager?.showsTree == true
        for (index, column) in columns.enumerated() where index < actionNames.count {
            guard let action = g_action_map_lookup_action(OpaquePointer(actions.pointer), actionNames[index]) else { continue }
            let mustStay = column.isVisible && (shown == 1 || (keepsFirst && index == 0))
            g_simple_action_set_state(action, g_variant_new_boolean(column.isVisible ? 1 : 0))
            g_simple_action_set_enabled(action, mustStay ? 0 : 1)
        }
    }
}
