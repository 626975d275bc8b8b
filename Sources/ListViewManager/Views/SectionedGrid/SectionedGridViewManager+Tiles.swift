import CGtk
import CGtkShims
import GtkKit
import ModelStorage

/// What the user does with tiles: a click selects (Control adds or removes, Shift extends
/// from the last click, as in GTK's own grids), a double click activates (a single one with
/// `singleClickActivation`), and each tile shows whether its item is selected.
extension SectionedGridViewManager {
    /// The grid's action `tiles.activate-item` (the position of an item, as `position(of:)`
    /// gives it): activates the item, as GtkGridView's `list.activate-item` does, for apps
    /// and assistive technologies.
    func installTileActions() {
        let group = ObjectReference(adopting: g_simple_action_group_new()!)
        let position = g_variant_type_new("u")!
        defer { g_variant_type_free(position) }
        let activate = ObjectReference(adopting: g_simple_action_new("activate-item", position)!)
        Signal.connect(activate.pointer.rawPointer, "activate") { [weak self] (parameter: UnsafeMutableRawPointer?) in
            guard let self, let parameter else { return }
            fireItemEvent(.didActivate, at: Int(g_variant_get_uint32(OpaquePointer(parameter))))
        }
        g_action_map_add_action(OpaquePointer(group.pointer), activate.pointer)
        gtk_widget_insert_action_group(view, "tiles", OpaquePointer(group.pointer))
    }

    /// Gives `slot` the `:selected` state when the item at `position` is selected.
    func showSelection(ofTile slot: UnsafeMutablePointer<GtkWidget>, at position: Int) {
        if gtk_selection_model_is_selected(selection.model, UInt32(position)) != 0 {
            gtk_widget_set_state_flags(slot, GTK_STATE_FLAG_SELECTED, 0)
        } else {
            gtk_widget_unset_state_flags(slot, GTK_STATE_FLAG_SELECTED)
        }
    }

    /// Clicks on a new tile slot select and activate the item it shows then. As in GTK's
    /// views, a press gives the focus and a double press activates, and the release selects:
    /// a drag that GTK takes over (a rubberband, a move) selects nothing on its way.
    func installTileInput(on slot: UnsafeMutablePointer<GtkWidget>) {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, UInt32(GDK_BUTTON_PRIMARY))
        let itemPosition = { [weak self] () -> Int? in
            guard let self, let position = factory.tiles?.position(ofTile: OpaquePointer(slot)),
                  case .item? = bridge.layout.row(at: position) else { return nil }
            return position
        }
        Signal.connect(UnsafeMutableRawPointer(click), "pressed") { [weak self] (presses: Int32, _: Double, _: Double) in
            guard let self, let position = itemPosition() else { return }
            gtk_widget_grab_focus(slot)
            if presses == 2 || (presses == 1 && configuration.singleClickActivation) { fireItemEvent(.didActivate, at: position) }
        }
        Signal.connect(UnsafeMutableRawPointer(click), "released") { [weak self] (presses: Int32, _: Double, _: Double) in
            guard let self, presses == 1, let position = itemPosition() else { return }
            let state = gtk_event_controller_get_current_event_state(click).rawValue
            tileClicked(at: position, control: state & GDK_CONTROL_MASK.rawValue != 0, shift: state & GDK_SHIFT_MASK.rawValue != 0)
        }
        gtk_widget_add_controller(slot, click)
    }

    /// A click on the tile of the item at `position`, as GTK's `list.select-item` takes one:
    /// alone it selects only this item, with Control it adds or removes it, with Shift it
    /// selects the range from the last click.
    func tileClicked(at position: Int, control: Bool, shift: Bool) {
        let model = selection.model
        if shift, let anchor = selectionAnchor, anchor != position {
            let range = min(anchor, position)...max(anchor, position)
            gtk_selection_model_select_range(model, UInt32(range.lowerBound), UInt32(range.count), control ? 0 : 1)
            return
        }
        selectionAnchor = position
        if control, gtk_selection_model_is_selected(model, UInt32(position)) != 0 {
            gtk_selection_model_unselect_item(model, UInt32(position))
        } else {
            gtk_selection_model_select_item(model, UInt32(position), control ? 0 : 1)
        }
    }
}
