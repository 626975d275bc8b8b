import CGtk
import CGtkShims
import GtkKit

/// A menu's entries as GTK takes them: a GMenu (sections, submenus, labels, icons and
/// accelerators as GMenu attributes) whose actions are `context.entry-N` in a
/// GSimpleActionGroup, N counting the entries that do something in menu order. A disabled
/// entry's action is disabled, which GTK shows greyed out and never activates.
@MainActor
struct ContextMenuModel {
    /// The prefix the action group is inserted under.
    static let actionPrefix = "context"

    /// The GMenu.
    let menu: ObjectReference<OpaquePointer>
    /// Its actions.
    let actions: ObjectReference<UnsafeMutablePointer<GSimpleActionGroup>>
    /// The entries that do something, in the order of their actions' numbers.
    private(set) var actionEntries: [MenuEntry] = []

    /// The model of `entries`; activating action N runs `choose(N)`.
    init(_ entries: [MenuEntry], choose: @escaping @MainActor (Int) -> Void) {
        menu = ObjectReference(adopting: g_menu_new()!)
        actions = ObjectReference(adopting: g_simple_action_group_new()!)
        append(entries, to: menu.pointer, choose: choose)
    }

    /// The GMenu as a GMenuModel.
    var menuModel: UnsafeMutablePointer<GMenuModel> { gtkCast(menu.pointer, to: GMenuModel.self) }

    /// The detailed name of the action of entry `index` (`context.entry-N`).
    static func actionName(of index: Int) -> String { "\(actionPrefix).entry-\(index)" }

    private mutating func append(_ entries: [MenuEntry], to menu: OpaquePointer, choose: @escaping @MainActor (Int) -> Void) {
        for entry in entries {
            let item: ObjectReference<OpaquePointer>
            switch entry.content {
            case .action:
                item = ObjectReference(adopting: g_menu_item_new(entry.title, Self.actionName(of: actionEntries.count))!)
                addAction(for: entry, choose: choose)
                if let accelerator = entry.accelerator, MenuAccelerator.parses(accelerator) {
                    g_menu_item_set_attribute_value(item.pointer, "accel", g_variant_new_string(accelerator))
                }
            case .section(let children):
                let section = ObjectReference(adopting: g_menu_new()!)
                append(children, to: section.pointer, choose: choose)
                item = ObjectReference(adopting: g_menu_item_new_section(entry.title.isEmpty ? nil : entry.title, gtkCast(section.pointer, to: GMenuModel.self))!)
                if entry.showsIcons {
                    g_menu_item_set_attribute_value(item.pointer, "display-hint", g_variant_new_string("horizontal-buttons"))
                }
            case .submenu(let children):
                let submenu = ObjectReference(adopting: g_menu_new()!)
                append(children, to: submenu.pointer, choose: choose)
                item = ObjectReference(adopting: g_menu_item_new_submenu(entry.title, gtkCast(submenu.pointer, to: GMenuModel.self))!)
            }
            if let iconName = entry.iconName {
                let icon = ObjectReference(adopting: g_themed_icon_new(iconName)!)
                g_menu_item_set_icon(item.pointer, icon.pointer)
                // What GTK shows in an icon section ("horizontal-buttons") is the verb icon.
                g_menu_item_set_attribute_value(item.pointer, "verb-icon", g_variant_new_string(iconName))
            }
            g_menu_append_item(menu, item.pointer)
        }
    }

    /// Adds the action of `entry`, the next entry that does something.
    private mutating func addAction(for entry: MenuEntry, choose: @escaping @MainActor (Int) -> Void) {
        let index = actionEntries.count
        actionEntries.append(entry)
        let action = ObjectReference(adopting: g_simple_action_new("entry-\(index)", nil)!)
        g_simple_action_set_enabled(action.pointer, entry.isEnabled ? 1 : 0)
        Signal.connect(action.pointer.rawPointer, "activate") { (_: UnsafeMutableRawPointer?) in choose(index) }
        g_action_map_add_action(OpaquePointer(actions.pointer), action.pointer)
    }
}
