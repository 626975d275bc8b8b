import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// Rubberband selection of tiles. GTK's grid view draws the band and scrolls while it is
/// dragged near an edge, but its own selection is of strips (which the grid's GtkNoSelection
/// refuses); the grid follows the same drag and selects the tiles the band covers: those of
/// the columns it spans, in every strip from the one it began in to the one it ends in.
extension SectionedGridViewManager {
    /// Where a rubberband began, followed through GTK's drag gesture.
    struct Rubberband {
        /// The strip (its position in the grid view) and column the drag began in.
        var start: (strip: Int, column: Int)?
        /// Whether GTK took the drag for its band (past the drag threshold).
        var drawn = false
    }

    func setRubberband(_ enabled: Bool) {
        guard enabled != (rubberband != nil) else { return }
        gtk_grid_view_set_enable_rubberband(OpaquePointer(view), enabled ? 1 : 0)
        rubberband = nil
        guard enabled, let gesture = rubberbandGesture() else { return }
        rubberband = Rubberband()
        // GTK's handlers were connected first, so these run after them.
        let instance = UnsafeMutableRawPointer(gesture)
        Signal.connect(instance, "drag-begin") { [weak self] (x: Double, y: Double) -> Void in
            self?.rubberband?.start = self?.stripFactory.strip(at: x, y)
            self?.rubberband?.drawn = false
        }
        Signal.connect(instance, "drag-update") { [weak self] (_: Double, _: Double) -> Void in
            // The sequence of a mouse's drag is nil.
            let sequence = gtk_gesture_get_last_updated_sequence(gesture)
            if gtk_gesture_get_sequence_state(gesture, sequence) == GTK_EVENT_SEQUENCE_CLAIMED { self?.rubberband?.drawn = true }
        }
        Signal.connect(instance, "drag-end") { [weak self] (offsetX: Double, offsetY: Double) -> Void in
            guard let self, let band = rubberband, band.drawn, let start = band.start else { return }
            rubberband?.start = nil
            var x = 0.0, y = 0.0
            gtk_gesture_drag_get_start_point(gesture, &x, &y)
            guard let end = stripFactory.strip(at: x + offsetX, y + offsetY) else { return }
            let state = gtk_event_controller_get_current_event_state(gesture).rawValue
            selectTiles(from: start, to: end, control: state & GDK_CONTROL_MASK.rawValue != 0, shift: state & GDK_SHIFT_MASK.rawValue != 0)
        }
    }

    /// The drag gesture GTK adds to the grid view for its rubberband (the last one added).
    private func rubberbandGesture() -> OpaquePointer? {
        let controllers = ObjectReference(adopting: gtk_widget_observe_controllers(view)!)
        let model = controllers.pointer
        for index in (0..<g_list_model_get_n_items(model)).reversed() {
            guard let controller = g_list_model_get_item(model, index) else { continue }
            let object = ObjectReference(adopting: controller)
            if cgtk_shims_instance_is_a(object.pointer, gtk_gesture_drag_get_type()) != 0 {
                return OpaquePointer(object.pointer)  // the grid view owns it
            }
        }
        return nil
    }

    /// Selects the tiles of the columns from `start`'s to `end`'s, in the strips from
    /// `start`'s to `end`'s, as GTK's rubberband does with its modifiers.
    func selectTiles(from start: (strip: Int, column: Int), to end: (strip: Int, column: Int), control: Bool, shift: Bool) {
        let band = gtk_bitset_new_empty()!
        defer { gtk_bitset_unref(band) }
        let columns = min(start.column, end.column)...max(start.column, end.column)
        for strip in min(start.strip, end.strip)...max(start.strip, end.strip) {
            guard case .strip(let section, let items)? = stripRow(at: strip) else { continue }
            for column in columns where column < items.count {
                if let position = bridge.layout.position(of: .item(IndexPath(item: items.lowerBound + column, section: section))) {
                    gtk_bitset_add(band, UInt32(position))
                }
            }
        }
        guard gtk_bitset_is_empty(band) == 0 || (!control && !shift) else { return }
        let selected: OpaquePointer, mask: OpaquePointer
        switch (control, shift) {
        case (true, true):  // toggles the band
            let current = gtk_selection_model_get_selection(selection.model)!
            selected = gtk_bitset_copy(band)
            gtk_bitset_difference(selected, current)
            gtk_bitset_unref(current)
            mask = gtk_bitset_ref(band)
        case (true, false): (selected, mask) = (gtk_bitset_ref(band), gtk_bitset_ref(band))
        case (false, true): (selected, mask) = (gtk_bitset_new_empty(), gtk_bitset_ref(band))
        case (false, false):
            selected = gtk_bitset_ref(band)
            mask = gtk_bitset_new_empty()
            gtk_bitset_add_range(mask, 0, UInt32(numberOfRows))
        }
        gtk_selection_model_set_selection(selection.model, selected, mask)
        gtk_bitset_unref(selected)
        gtk_bitset_unref(mask)
    }
}
