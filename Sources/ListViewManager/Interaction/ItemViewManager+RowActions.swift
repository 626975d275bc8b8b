import CGtk
import Foundation
import GtkKit

extension ItemViewManager {
    /// The list view's `rows` action group and the keys that trigger its actions:
    /// `rows.delete-selected` (Delete) and `rows.context-menu` (Menu, Shift+F10).
    func installRowActions() {
        let group = ObjectReference(adopting: g_simple_action_group_new()!)
        let actions: [(name: String, run: @MainActor (ItemViewManager) -> Void)] = [
            ("delete-selected", { _ = $0.deleteSelectedItems() }),
            ("context-menu", { $0.keyboardAskedForMenu() }),
        ]
        for (name, run) in actions {
            let action = ObjectReference(adopting: g_simple_action_new(name, nil)!)
            Signal.connect(action.pointer.rawPointer, "activate") { [weak self] (_: UnsafeMutableRawPointer?) in
                if let self { run(self) }
            }
            g_action_map_add_action(OpaquePointer(group.pointer), action.pointer)
        }
        gtk_widget_insert_action_group(view, "rows", OpaquePointer(group.pointer))

        let shortcuts = gtk_shortcut_controller_new()!
        let keys: [(key: Int32, modifiers: UInt32, action: String)] = [
            (GDK_KEY_Delete, 0, "rows.delete-selected"),
            (GDK_KEY_KP_Delete, 0, "rows.delete-selected"),
            (GDK_KEY_Menu, 0, "rows.context-menu"),
            (GDK_KEY_F10, GDK_SHIFT_MASK.rawValue, "rows.context-menu"),
        ]
        for (key, modifiers, action) in keys {
            let trigger = gtk_keyval_trigger_new(UInt32(key), GdkModifierType(rawValue: modifiers))
            gtk_shortcut_controller_add_shortcut(shortcuts, gtk_shortcut_new(trigger, gtk_named_action_new(action)))
        }
        gtk_widget_add_controller(view, shortcuts)
    }
}
