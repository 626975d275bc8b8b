import CGtk
import CGtkShims
import Foundation
import ModelStorage

extension ItemViewManager {
    /// Gives the rows of `rowType` a context menu, opened by a right click, a long press,
    /// the Menu key or Shift+F10 on the row: `build` returns its entries (none: no menu).
    public func contextMenu<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ build: @escaping (T, T.ModelType, IndexPath) -> [MenuEntry]) {
        let mappings = registeredMappings(.item, rowType: ObjectIdentifier(T.self))
        guard !mappings.isEmpty else {
            anomalyHandler.report(.eventRegisteredForUnregisteredMapping(rowType: String(describing: T.self), kind: .item, event: "contextMenu"))
            return
        }
        for case let mapping as RowMapping<T> in mappings {
            mapping.contextMenu(build)
        }
    }

    /// Adds entries to the context menu of every item of `modelType`, whatever row shows
    /// it (after the row type's own entries).
    public func contextMenu<Model>(model modelType: Model.Type, _ build: @escaping (Model, IndexPath) -> [MenuEntry]) {
        menuBuilders.append(forModels(build))
    }

    /// Opens the context menu of the item at `indexPath` (its row must be on screen), as a
    /// right click on it does. Returns false when it has no row on screen or no entries.
    @discardableResult
    public func openContextMenu(at indexPath: IndexPath) -> Bool {
        guard let position = position(of: indexPath), let row = boundRows(at: position).first?.row.row else { return false }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(row.rootWidget, view, &bounds) != 0 else { return false }
        let rect = GdkRectangle(x: Int32(bounds.origin.x + 24), y: Int32(bounds.origin.y + bounds.size.height / 2), width: 1, height: 1)
        return openContextMenu(at: indexPath, pointingTo: rect)
    }

    /// The titles of the context menu shown now, or nil when none is shown.
    public var shownContextMenuTitles: [String]? { contextMenus.shownTitles }

    /// The entries of the item at `indexPath`'s menu: its row type's, then its model type's;
    /// `.delete` only when the item can be deleted.
    func contextMenuEntries(at indexPath: IndexPath) -> [MenuEntry] {
        guard let model = bridge.model(of: .item(indexPath)), let position = position(of: indexPath) else { return [] }
        var entries: [MenuEntry] = []
        for (_, attached) in boundRows(at: position) {
            for build in attached.mapping.menuBuilders { entries += build(attached.row, model, indexPath) }
        }
        for build in menuBuilders { entries += build(model, indexPath) ?? [] }
        let deletable = canDelete(indexPath)
        return entries.filter { entry in
            if case .delete = entry.action { return deletable }
            return true
        }
    }

    private func openContextMenu(at indexPath: IndexPath, pointingTo rect: GdkRectangle) -> Bool {
        let entries = contextMenuEntries(at: indexPath)
        guard !entries.isEmpty else { return false }
        contextMenus.open(entries, for: indexPath, pointingTo: rect)
        return true
    }

    /// The item whose row has the keyboard focus, else the first selected item.
    private var focusedItemIndexPath: IndexPath? {
        if let root = gtk_widget_get_root(view), let focus = gtk_root_get_focus(root) {
            for (listItem, attached) in boundRows {
                let rowWidget = attached.row.rootWidget
                guard focus == itemWidget(of: attached.row) || focus == rowWidget || gtk_widget_is_ancestor(focus, rowWidget) != 0,
                      case .item(let indexPath)? = bridge.row(at: Int(gtk_list_item_get_position(listItem))) else { continue }
                return indexPath
            }
        }
        return selection.items.keys.min()
    }

    /// A right click or a long press at (`x`, `y`) in the list view.
    func pointerAskedForMenu(x: Double, y: Double) {
        guard case .item(let indexPath)? = boundRow(atX: x, y: y)?.flatRow else { return }
        _ = openContextMenu(at: indexPath, pointingTo: GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1))
    }

    /// The Menu key or Shift+F10.
    func keyboardAskedForMenu() {
        guard let indexPath = focusedItemIndexPath else { return }
        openContextMenu(at: indexPath)
    }

    /// Right click and long press on the list view; the keys are in `installRowActions`.
    func installContextMenuGestures() {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, UInt32(GDK_BUTTON_SECONDARY))
        // Before the list items' own click handling, which would take the press.
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        Signal.connect(UnsafeMutableRawPointer(click), "pressed") { [weak self] (_: Int32, x: Double, y: Double) in
            gtk_gesture_set_state(click, GTK_EVENT_SEQUENCE_CLAIMED)
            self?.pointerAskedForMenu(x: x, y: y)
        }
        gtk_widget_add_controller(view, click)

        let longPress = gtk_gesture_long_press_new()!
        Signal.connect(UnsafeMutableRawPointer(longPress), "pressed") { [weak self] (x: Double, y: Double) in
            self?.pointerAskedForMenu(x: x, y: y)
        }
        gtk_widget_add_controller(view, longPress)

        // A menu left open holds the pointer: close it with the list (its window closing, say).
        Signal.connect(UnsafeMutableRawPointer(view), "unmap") { [weak self] in self?.contextMenus.close() }
    }
}
