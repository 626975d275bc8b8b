import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    /// The keyboard focus moved to the row of `rowType` (arrow keys, Home, End, Tab, a click).
    public func didFocus<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didFocus, .item, closure)
    }

    /// The keyboard focus moved to the row of an item of `modelType`, whatever row type shows it.
    public func didFocus<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.didFocus, closure)
    }

    /// The index path of the item whose row has the keyboard focus (or holds the widget that
    /// has it), if the focus is in this view.
    public var focusedIndexPath: IndexPath? {
        guard let position = focusedPosition, case .item(let indexPath)? = bridge.row(at: position) else { return nil }
        return indexPath
    }

    /// The position of the row that has the keyboard focus (or holds the widget that has
    /// it), if it is one of this view's.
    var focusedPosition: Int? {
        let base = kind.listBase(view)
        guard let root = gtk_widget_get_root(base), let focus = gtk_root_get_focus(root) else { return nil }
        return rowWidget(containing: focus).flatMap(position(ofRowWidget:))
    }

    /// The child of the list base (GTK's widget for one row) that holds `widget`, if any.
    func rowWidget(containing widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        if viewOwnList != nil { return tileSlot(containing: widget) }
        let base = kind.listBase(view)
        var candidate = widget
        while let parent = gtk_widget_get_parent(candidate) {
            if parent == base { return candidate }
            candidate = parent
        }
        return nil
    }

    /// The position of the bound row GTK shows in `rowWidget` (a child of the list base).
    func position(ofRowWidget rowWidget: UnsafeMutablePointer<GtkWidget>) -> Int? {
        for factory in factories {
            for (listItem, _) in factory.boundRows {
                guard let child = factory.child(of: listItem),
                      child == rowWidget || gtk_widget_is_ancestor(child, rowWidget) != 0 else { continue }
                return factory.position(of: listItem)
            }
        }
        return nil
    }

    /// Gives GTK's widget for `listItem`'s row the `no-highlight` class when `shouldHighlight`
    /// refuses the item. GTK binds a row widget it makes before it puts it in the view: the
    /// row widget is then the list item's outermost widget.
    func prepareRowWidget(of listItem: OpaquePointer) {
        showDisclosure(of: listItem)
        // GTK's section headers (GTK 4.12 and later) are GtkListHeaders, not list items.
        guard !selectionRules.shouldHighlight.isEmpty,
              cgtk_shims_instance_is_a(UnsafeMutableRawPointer(listItem), gtk_list_item_get_type()) != 0,
              let child = gtk_list_item_get_child(listItem) else { return }
        var rowWidget = child
        while let parent = gtk_widget_get_parent(rowWidget), parent != kind.listBase(view) { rowWidget = parent }
        if shouldHighlight(position: Int(gtk_list_item_get_position(listItem))) {
            gtk_widget_remove_css_class(rowWidget, "no-highlight")
        } else {
            gtk_widget_add_css_class(rowWidget, "no-highlight")
        }
    }

    /// Arrow keys, Home and End pass over rows that cannot take the focus (headers, footers,
    /// items `canFocus` refuses), where GTK would stop at them. Where the next row can take
    /// the focus, GTK moves it itself.
    func installKeyboardNavigation() {
        focusWatch = FocusWatch(base: kind.listBase(view), rowWidget: { [weak self] in self?.rowWidget(containing: $0) }) { [weak self] rowWidget in
            guard let self, let rowWidget, let position = position(ofRowWidget: rowWidget) else { return }
            fireItemEvent(.didFocus, at: position)
        }
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connect(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] (keyval: UInt32, _: UInt32, state: UInt32) -> Bool in
            guard let self else { return false }
            return treeKeyPressed(keyval, state: state) || moveFocus(forKey: keyval, state: state)
        }
        gtk_widget_add_controller(kind.listBase(view), keys)
    }

    /// What a key does to the focus: GTK's moves (arrows along the list, Home, End), to the
    /// nearest row that can take the focus. False leaves the key to GTK.
    private func moveFocus(forKey keyval: UInt32, state: UInt32) -> Bool {
        // Up and Down go from match to match while type-ahead find is open.
        guard !kind.showsTiles, typeAhead?.text == nil, let current = focusedPosition else { return false }
        let last = bridge.count - 1
        let (start, step): (Int, Int)
        let vertical = !kind.flowsHorizontally  // a grid's Up and Down go by columns: GTK's
        switch Int32(keyval) {
        case GDK_KEY_Up where vertical, GDK_KEY_KP_Up where vertical: (start, step) = (current - 1, -1)
        case GDK_KEY_Down where vertical, GDK_KEY_KP_Down where vertical: (start, step) = (current + 1, 1)
        case GDK_KEY_Home, GDK_KEY_KP_Home: (start, step) = (0, 1)
        case GDK_KEY_End, GDK_KEY_KP_End: (start, step) = (last, -1)
        default: return false
        }
        guard (0...max(last, 0)).contains(start), last >= 0, !takesFocus(start) else { return false }
        var target = start
        while !takesFocus(target) {
            target += step
            guard (0...last).contains(target) else { return true }  // none: the focus stays
        }
        let control = state & GDK_CONTROL_MASK.rawValue != 0
        let shift = state & GDK_SHIFT_MASK.rawValue != 0
        focus(position: target)
        // GTK's bindings: the key alone selects, with Control it only moves the focus, with
        // Shift it extends the selection, with both it adds the range.
        if !control || shift {
            var parameters: [OpaquePointer?] = [g_variant_new_uint32(UInt32(target)), g_variant_new_boolean(control ? 1 : 0),
                                                g_variant_new_boolean(shift ? 1 : 0)]
            let tuple = parameters.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
            cgtk_shims_widget_activate_action(kind.listBase(view), "list.select-item", tuple)
        }
        return true
    }

    /// Whether GTK can give the row at `position` the focus: an item the app lets take it,
    /// which GTK 4.8 also needs to be selectable.
    private func takesFocus(_ position: Int) -> Bool {
        guard let row = bridge.row(at: position), let model = bridge.model(of: row), canFocus(model, at: row) else { return false }
        return cgtk_shims_gtk_at_least(12) != 0 || canSelect(model, at: row)
    }

    /// Scrolls to the item at `indexPath` and gives its row the keyboard focus (DTTableViewManager's
    /// `indexPathForPreferredFocusedView`), without selecting it. Returns false, changing nothing,
    /// when there is no such item or `canFocus` refuses it. A row GTK has not made yet (far off
    /// screen) gets the focus once it is shown, in the next frame.
    @discardableResult
    public func focus(_ indexPath: IndexPath) -> Bool {
        guard let position = position(of: indexPath), takesFocus(position) else { return false }
        focus(position: position)
        return true
    }

    /// Scrolls to the row at `position` and gives it the keyboard focus.
    /// (In a sectioned grid GTK's rows are strips: the strip is scrolled to, and the tile
    /// takes the focus.)
    func focus(position: Int) {
        keepPlaceLooseWhileJumping(to: position)
        // GTK 4.12's scroll with `GTK_LIST_SCROLL_FOCUS` moves the keyboard focus only when it
        // is in the list already (`gtk_list_base_scroll_to` looks for FOCUS_WITHIN): else
        // another widget keeps it. The list takes it first.
        let listBase = kind.listBase(view)
        if gtk_widget_get_state_flags(listBase).rawValue & GTK_STATE_FLAG_FOCUS_WITHIN.rawValue == 0 { gtk_widget_grab_focus(listBase) }
        if kind.scrollToAndFocus(view, position) { return }
        if let shown = viewPosition(ofRow: position) {
            cgtk_shims_widget_activate_action(kind.listBase(view), "list.scroll-to-item", g_variant_new_uint32(UInt32(shown)))
        }
        if grabFocus(position: position) { return }
        // GTK 4.8 makes the rows scrolled to in its next layout: give the focus then.
        var framesLeft = 3
        everyFrame(of: kind.listBase(view)) { [weak self] _ in
            framesLeft -= 1
            guard let self, !grabFocus(position: position) else { return false }
            return framesLeft > 0
        }
    }

    /// While GTK jumps to a row it does not show, for the next few frames: a change then
    /// (a page read arriving) does not keep the view on the rows it is leaving, measured
    /// halfway through GTK's layouts (`keepsPlace`).
    private func keepPlaceLooseWhileJumping(to position: Int) {
        guard shownRowWidget(at: position) == nil else { return }
        isScrollingToARow = true
        let scroll = scrollsAskedFor
        Screenshot.afterFrames(of: view, 3) { [weak self] in
            guard let self, scroll == scrollsAskedFor else { return }
            isScrollingToARow = false
        }
    }

    /// Gives the keyboard focus to the row at `position` if GTK shows it.
    private func grabFocus(position: Int) -> Bool {
        guard let factory = factories.first, let listItem = factory.boundListItem(at: position), let child = factory.child(of: listItem),
              let rowWidget = rowWidget(containing: child) else { return false }
        gtk_widget_grab_focus(rowWidget)
        return true
    }
}
