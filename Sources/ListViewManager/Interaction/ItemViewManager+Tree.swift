import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// A `TreeStorage` shown: each item's row with its indent and expander arrow, the keys of
/// GTK's tree expander, and `didExpand` / `didCollapse`.
extension ItemViewManager {
    /// The storage when it is a `TreeStorage`, else nil.
    public var treeStorage: TreeStorage? { storage as? TreeStorage }

    /// An item of `modelType` was expanded (from code, a key, a click on its arrow or
    /// `expandAll`), whether or not its row is shown: the closure gets its model and its path
    /// in the tree.
    public func didExpand<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.didExpand, closure)
    }

    /// An item of `modelType` was collapsed; as `didExpand(model:_:)`.
    public func didCollapse<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.didCollapse, closure)
    }

    /// An item shown by a row of `rowType` was expanded: the closure gets the row (while it
    /// is shown), the model and its path in the tree.
    public func didExpand<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didExpand, .item, closure)
    }

    /// An item shown by a row of `rowType` was collapsed; as `didExpand(_:_:)`.
    public func didCollapse<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didCollapse, .item, closure)
    }

    /// Whether the rows are a tree's: a list (not a grid) showing a `TreeStorage`.
    var showsTree: Bool {
        storage is TreeStorage && !kind.flowsHorizontally && !kind.showsTiles
    }

    /// Fires `didExpand` and `didCollapse` for `storage`'s items, when it is a tree, and
    /// keeps the focus and selection on an item whose row a collapse hides, moved to the
    /// collapsed item (the top item that holds it, for a collapse of every item).
    func followExpansion(of storage: Storage) {
        guard let tree = storage as? TreeStorage else { return }
        tree.willCollapse = { [weak self, weak tree] path in
            guard let self, let tree, tree === self.storage else { return }
            let hidden = { (position: Int) -> IndexPath? in
                guard let inner = self.treePath(atPosition: position), inner.count > path.count, inner.starts(with: path) else { return nil }
                return path.isEmpty ? inner.prefix(1) : path
            }
            let focused = focusedPosition.flatMap(hidden)
            let selected = selectedIndexPaths.compactMap { self.position(of: $0) }.lazy.compactMap(hidden).first
            guard let target = focused ?? selected else { return }
            // Once the rows are gone (the collapse is delivered before `expansionDidChange`).
            whenIdle { [weak self] in
                guard let self, let row = treeStorage?.row(of: target), let position = position(of: IndexPath(item: row, section: 0)) else { return }
                if focused != nil { focus(position: position) }
                if selected != nil { selectRow(at: position) }
            }
        }
        tree.expansionDidChange = { [weak self, weak tree] model, path, isExpanded in
            guard let self, let tree, tree === self.storage else { return }
            let event: EventKind = isExpanded ? .didExpand : .didCollapse
            // Expanding every item of a big tree calls this per item: the bound row is looked
            // for (a pass over the bound rows) only when a row type reacts.
            let rowsReact = resolver.mappings.contains { !($0.reactions[event]?.isEmpty ?? true) }
            guard rowsReact || !(modelEvents[event]?.isEmpty ?? true) else { return }
            // Inside a batch the view does not show the change yet: no row is the item's.
            let caughtUp = bridge.count == tree.rowCount
            let position = rowsReact && caughtUp ? tree.row(of: path).flatMap { self.position(of: IndexPath(item: $0, section: 0)) } : nil
            fireItemEvent(event, model: model, indexPath: path, position: position)
        }
    }

    /// Shows the indent and arrow of the item `listItem` shows (a list item of the view's,
    /// or a cell of a column view's first column, made by `factory`), and tells screen
    /// readers its level and whether it is expanded.
    func showDisclosure(of listItem: OpaquePointer, madeBy factory: RowFactory? = nil) {
        let factory = factory ?? self.factory
        // Rows of another storage shown in a list item that showed a tree's: no indent, no arrow.
        guard let tree = treeStorage, showsTree else { return factory.disclosure(of: listItem)?.showNothing() ?? () }
        guard cgtk_shims_instance_is_a(UnsafeMutableRawPointer(listItem), gtk_list_item_get_type()) != 0,
              let disclosure = factory.makeDisclosure(of: listItem),
              case .item(let indexPath)? = bridge.row(at: Int(gtk_list_item_get_position(listItem))),
              let shown = tree.disclosure(ofRow: indexPath.item) else { return }
        disclosure.show(depth: shown.depth, isExpandable: shown.isExpandable, isExpanded: shown.isExpanded)
        disclosure.toggle = { [weak self] in
            guard let self, let tree = treeStorage, let path = treePath(atPosition: Int(gtk_list_item_get_position(listItem))) else { return }
            try? tree.toggle(at: path)
        }
        let expanded: Int32 = shown.isExpandable ? (shown.isExpanded ? 1 : 0) : -1
        let level = Int32(shown.depth + 1)
        // GTK's widget for the row (a column view's row, not the cell): the one screen
        // readers see as the list's item. GTK 4.18 binds a row before placing it.
        if let itemWidget = rowWidget(containing: disclosure.box.pointer) {
            cgtk_shims_accessible_set_tree_item(itemWidget, level, expanded)
        } else {
            whenIdle { [weak self, weak disclosure] in
                guard let self, let disclosure, let itemWidget = rowWidget(containing: disclosure.box.pointer) else { return }
                cgtk_shims_accessible_set_tree_item(itemWidget, level, expanded)
            }
        }
    }

    /// How deep in the tree the item `row` shows is, when the rows are a tree's.
    func depthInTree(of row: FlatRow) -> Int? {
        guard let tree = treeStorage, case .item(let indexPath) = row else { return nil }
        return tree.depth(ofRow: indexPath.item)
    }

    /// The path in the tree of the item at `position` of the view's list, if any.
    func treePath(atPosition position: Int) -> IndexPath? {
        guard let tree = treeStorage, case .item(let indexPath)? = bridge.row(at: position) else { return nil }
        return tree.path(ofRow: indexPath.item)
    }

    /// The keys of GTK's tree expander on the focused row: `+` expands it, `*` expands it and
    /// everything below it, `-` and `/` collapse it; Shift+Right and Shift+Left expand and
    /// collapse; Right expands a collapsed item, or goes to its first child; Left collapses an
    /// expanded item, or goes to its parent. False leaves the key to GTK.
    func treeKeyPressed(_ keyval: UInt32, state: UInt32) -> Bool {
        guard showsTree, let tree = treeStorage, typeAhead?.text == nil, typeAhead?.focusTakesText != true,
              let position = focusedPosition, let path = treePath(atPosition: position) else { return false }
        let modifiers = state & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue)
        guard modifiers == 0 else { return false }
        let shift = state & GDK_SHIFT_MASK.rawValue != 0
        let rightToLeft = gtk_widget_get_direction(view) == GTK_TEXT_DIR_RTL
        var key = Int32(keyval)
        if rightToLeft, [GDK_KEY_Left, GDK_KEY_KP_Left, GDK_KEY_Right, GDK_KEY_KP_Right].contains(key) {
            key = (key == GDK_KEY_Left || key == GDK_KEY_KP_Left) ? GDK_KEY_Right : GDK_KEY_Left
        }
        switch key {
        case GDK_KEY_plus, GDK_KEY_KP_Add:
            try? tree.expand(at: path)
        case GDK_KEY_asterisk, GDK_KEY_KP_Multiply:
            try? tree.expandAll(under: path)
        case GDK_KEY_minus, GDK_KEY_KP_Subtract, GDK_KEY_slash, GDK_KEY_KP_Divide:
            try? tree.collapse(at: path)
        case GDK_KEY_Right, GDK_KEY_KP_Right:
            if shift || !tree.isExpanded(at: path) {
                try? tree.expand(at: path)
            } else if (tree.numberOfChildren(at: path) ?? 0) > 0 {
                focusTreeItem(at: path.appending(0))
            }
        case GDK_KEY_Left, GDK_KEY_KP_Left:
            if shift || tree.isExpanded(at: path) {
                try? tree.collapse(at: path)
            } else if path.count > 1 {
                focusTreeItem(at: path.dropLast())
            }
        default:
            return false
        }
        return true
    }

    /// Gives the focus to the row of the tree item at `path`, selecting it as the arrow keys do.
    private func focusTreeItem(at path: IndexPath) {
        guard let row = treeStorage?.row(of: path), let position = position(of: IndexPath(item: row, section: 0)) else { return }
        focus(position: position)
        selectRow(at: position)
    }

    /// Selects the row at `position` alone, as a click or an arrow key does.
    private func selectRow(at position: Int) {
        var parameters: [OpaquePointer?] = [g_variant_new_uint32(UInt32(position)), g_variant_new_boolean(0), g_variant_new_boolean(0)]
        let tuple = parameters.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        cgtk_shims_widget_activate_action(kind.listBase(view), "list.select-item", tuple)
    }
}
