import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// The keyboard in a sectioned grid, as in GTK's own grids: Left and Right go to the item
/// before or after, Up and Down to the tile above or below (across strips and sections,
/// past headers and footers; to the last tile of a shorter strip), Home and End to the first
/// and last items, Page Up and Page Down a screenful of strips. The key alone selects the
/// tile it lands on, with Control it moves the focus only, with Shift it extends the
/// selection from the last tile selected. Enter activates; Space selects (toggles, with
/// multiple selection).
extension SectionedGridViewManager {
    func installTileKeyboard() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connect(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] (keyval: UInt32, _: UInt32, state: UInt32) -> Bool in
            self?.tileKeyPressed(keyval, state: state) ?? false
        }
        gtk_widget_add_controller(view, keys)
    }

    private func tileKeyPressed(_ keyval: UInt32, state: UInt32) -> Bool {
        // Up and Down go from match to match while type-ahead find is open.
        guard typeAhead?.text == nil, let position = focusedPosition, case .item(let indexPath)? = bridge.layout.row(at: position) else { return false }
        let control = state & GDK_CONTROL_MASK.rawValue != 0, shift = state & GDK_SHIFT_MASK.rawValue != 0
        let target: IndexPath?
        switch Int32(keyval) {
        case GDK_KEY_Left, GDK_KEY_KP_Left: target = item(after: indexPath, by: -1)
        case GDK_KEY_Right, GDK_KEY_KP_Right: target = item(after: indexPath, by: 1)
        case GDK_KEY_Up, GDK_KEY_KP_Up: target = tile(from: indexPath, strips: -1)
        case GDK_KEY_Down, GDK_KEY_KP_Down: target = tile(from: indexPath, strips: 1)
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up: target = tile(from: indexPath, strips: -stripsPerPage)
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down: target = tile(from: indexPath, strips: stripsPerPage)
        case GDK_KEY_Home, GDK_KEY_KP_Home: target = firstItem
        case GDK_KEY_End, GDK_KEY_KP_End: target = lastItem
        case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter:
            fireItemEvent(.didActivate, at: position)
            return true
        case GDK_KEY_space, GDK_KEY_KP_Space:
            tileClicked(at: position, control: selectionMode == .multiple, shift: shift)
            return true
        default:
            return false
        }
        guard let target, target != indexPath, let targetPosition = self.position(of: target) else { return true }
        focus(position: targetPosition)
        if !control || shift { tileClicked(at: targetPosition, control: control, shift: shift) }
        return true
    }

    /// The item `steps` items after `indexPath` (before, when negative) in the order shown,
    /// across sections; the first or last item when there are fewer.
    private func item(after indexPath: IndexPath, by steps: Int) -> IndexPath? {
        guard let position = position(of: indexPath) else { return nil }
        var target = position, left = abs(steps)
        while left > 0 {
            var next = target + steps.signum()
            while let row = bridge.layout.row(at: next), !isItem(row) { next += steps.signum() }
            guard bridge.layout.row(at: next) != nil else { break }
            target = next
            left -= 1
        }
        guard case .item(let found)? = bridge.layout.row(at: target) else { return nil }
        return found
    }

    private func isItem(_ row: FlatRow) -> Bool {
        if case .item = row { return true }
        return false
    }

    /// The tile `strips` strips below `indexPath`'s (above, when negative), in the same
    /// column or the last tile of a shorter strip, across sections; the first or last strip
    /// when there are fewer.
    private func tile(from indexPath: IndexPath, strips count: Int) -> IndexPath {
        let columns = self.columns, column = indexPath.item % columns
        var section = indexPath.section, strip = indexPath.item / columns
        for _ in 0..<abs(count) {
            if count > 0 {
                if strip + 1 < stripColumns.numberOfStrips(inSection: section) {
                    strip += 1
                } else if let next = sectionWithItems(after: section, step: 1) {
                    (section, strip) = (next, 0)
                } else { break }
            } else {
                if strip > 0 {
                    strip -= 1
                } else if let previous = sectionWithItems(after: section, step: -1) {
                    (section, strip) = (previous, stripColumns.numberOfStrips(inSection: previous) - 1)
                } else { break }
            }
        }
        let items = stripColumns.items(inStrip: strip, ofSection: section)
        return IndexPath(item: min(items.lowerBound + column, items.upperBound - 1), section: section)
    }

    /// The nearest section after `section` (before, with a `step` of -1) that has items.
    private func sectionWithItems(after section: Int, step: Int) -> Int? {
        var candidate = section + step
        while candidate >= 0, candidate < stripColumns.numberOfSections {
            if stripColumns.numberOfItems(inSection: candidate) > 0 { return candidate }
            candidate += step
        }
        return nil
    }

    private var firstItem: IndexPath? {
        sectionWithItems(after: -1, step: 1).map { IndexPath(item: 0, section: $0) }
    }

    private var lastItem: IndexPath? {
        sectionWithItems(after: stripColumns.numberOfSections, step: -1).map { IndexPath(item: stripColumns.numberOfItems(inSection: $0) - 1, section: $0) }
    }

    /// How many strips a screenful holds (at least 1).
    private var stripsPerPage: Int {
        guard let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(view)),
              let tile = stripFactory.boundTiles.first?.slot, gtk_widget_get_height(tile) > 0 else { return 1 }
        return max(1, Int(gtk_adjustment_get_page_size(adjustment)) / Int(gtk_widget_get_height(tile)))
    }
}
