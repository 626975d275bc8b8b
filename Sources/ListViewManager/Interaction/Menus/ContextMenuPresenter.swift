import CGtk
import CGtkShims
import Foundation
import ModelStorage

/// Shows a manager's context menus: one GtkPopoverMenu, a child of the list view, pointing
/// at the row it was opened for. Its entries are `context.entry-N` actions of an action
/// group made for each opening; the item's index path follows storage updates while the
/// menu is open, so an entry acts on the item wherever it moved, or on nothing (an anomaly)
/// when it was removed.
@MainActor
final class ContextMenuPresenter: UpdateFollower {
    private weak var manager: ItemViewManager?
    private let view: UnsafeMutablePointer<GtkWidget>
    /// The popover (the list view is its parent and holds its reference).
    private(set) var popover: UnsafeMutablePointer<GtkWidget>?
    private var entries: [MenuEntry] = []
    /// The item the open (or last) menu is for, where it is now; nil once removed.
    private(set) var target: IndexPath?

    init(manager: ItemViewManager) {
        self.manager = manager
        view = manager.view
    }

    /// The titles of the menu shown now, or nil when no menu is shown.
    var shownTitles: [String]? {
        guard let popover, gtk_widget_get_visible(popover) != 0 else { return nil }
        return entries.map(\.title)
    }

    /// Opens the menu of the item at `indexPath` built from `entries`, pointing at `rect`
    /// (list view coordinates).
    func open(_ entries: [MenuEntry], for indexPath: IndexPath, pointingTo rect: GdkRectangle) {
        self.entries = entries
        target = indexPath
        let menu = ObjectReference(adopting: g_menu_new()!)
        let group = ObjectReference(adopting: g_simple_action_group_new()!)
        for (index, entry) in entries.enumerated() {
            g_menu_append(menu.pointer, entry.title, "context.entry-\(index)")
            let action = ObjectReference(adopting: g_simple_action_new("entry-\(index)", nil)!)
            Signal.connect(action.pointer.rawPointer, "activate") { [weak self] (_: UnsafeMutableRawPointer?) in self?.choose(index) }
            g_action_map_add_action(OpaquePointer(group.pointer), action.pointer)
        }
        let popover = self.popover ?? makePopover()
        gtk_popover_menu_set_menu_model(OpaquePointer(popover), gtkCast(menu.pointer, to: GMenuModel.self))
        gtk_widget_insert_action_group(popover, "context", OpaquePointer(group.pointer))
        var pointing = rect
        gtk_popover_set_pointing_to(asPopover(popover), &pointing)
        gtk_popover_popup(asPopover(popover))
    }

    private func asPopover(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkPopover> {
        gtkCast(widget, to: GtkPopover.self)
    }

    private func makePopover() -> UnsafeMutablePointer<GtkWidget> {
        let popover = gtk_popover_menu_new_from_model(nil)!
        gtk_widget_set_parent(popover, view)
        gtk_popover_set_position(asPopover(popover), GTK_POS_BOTTOM)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        gtk_widget_add_css_class(popover, "row-context-menu")
        self.popover = popover
        return popover
    }

    /// Closes the menu, if shown.
    func close() {
        if let popover { gtk_popover_popdown(asPopover(popover)) }
    }

    /// Runs entry `index` for the target item.
    func choose(_ index: Int) {
        guard let manager, entries.indices.contains(index) else { return }
        let entry = entries[index]
        close()
        guard let target else {
            manager.anomalyHandler.report(.menuActionForRemovedItem(entry: entry.title))
            return
        }
        switch entry.action {
        case .perform(let action): action(target)
        case .delete: manager.deleteItems(at: [target])
        }
    }

    /// Follows the target item through `update` (nil when it was removed).
    func follow(_ update: StorageUpdate, models: any SectionedModels) {
        target = target.flatMap(update.newIndexPath)
    }

    /// Every row was reloaded: the target item is gone.
    func dropForReload(models: any SectionedModels) {
        target = nil
    }

    /// Takes the popover off the list view (before the list view goes).
    func detach() {
        guard let popover else { return }
        gtk_widget_unparent(popover)
        self.popover = nil
    }
}
