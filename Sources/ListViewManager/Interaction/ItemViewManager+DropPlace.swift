import CGtk
import Foundation
import GtkKit
import ModelStorage

/// A row marked as the place a drop goes: its widget and CSS class (`drop-above`,
/// `drop-below`, or `drop-before` / `drop-after` in a grid).
typealias DropMark = (widget: UnsafeMutablePointer<GtkWidget>, cssClass: String)

/// Where a drop under the pointer goes, and which row shows it.
extension ItemViewManager {
    /// A place in the list: the index path an item inserted there takes, and the row that
    /// marks it (nil when that row is not on screen).
    struct DropPlace {
        let insertion: IndexPath
        let mark: DropMark?
    }

    /// Where a drop at (`x`, `y`) goes: before the row under the pointer, or after it past
    /// its middle (its vertical middle in a list, its horizontal one in a grid, whose items
    /// flow left to right); the first place of a header's section, the last of a footer's;
    /// the end of the last section below the last row, or anywhere in an empty list.
    func dropPlace(x: Double, y: Double) -> DropPlace? {
        guard let picked = boundRow(atX: x, y: y) else {
            guard isPastLastRow(x: x, y: y) else { return nil }
            return DropPlace(insertion: endInsertion, mark: dropMark(at: endInsertion))
        }
        let after = kind.flowsHorizontally
            ? x > Double(picked.bounds.origin.x + picked.bounds.size.width / 2)
            : y > Double(picked.bounds.origin.y + picked.bounds.size.height / 2)
        let widget = picked.row.rootWidget
        switch picked.flatRow {
        case .item(let indexPath):
            let (before, beyond) = markClasses
            return DropPlace(insertion: IndexPath(item: indexPath.item + (after ? 1 : 0), section: indexPath.section),
                             mark: (widget, after ? beyond : before))
        case .header(let section):
            return DropPlace(insertion: IndexPath(item: 0, section: section), mark: (widget, "drop-below"))
        case .footer(let section):
            return DropPlace(insertion: IndexPath(item: storage.numberOfItems(inSection: section), section: section), mark: (widget, "drop-above"))
        }
    }

    /// The row marking `insertion`, as a line: above the item there, below the last item of
    /// its section, or by the section's header (or footer) when it has no items. Nil when
    /// there is no such place or its row is not on screen.
    func dropMark(at insertion: IndexPath) -> DropMark? {
        guard insertion.isSectionAndItem, insertion.section >= 0, insertion.section < storage.numberOfSections() else { return nil }
        let section = insertion.section, count = storage.numberOfItems(inSection: section)
        guard insertion.item >= 0, insertion.item <= count else { return nil }
        let (before, after) = markClasses
        if insertion.item < count { return mark(.item(insertion), before) }
        if count > 0 { return mark(.item(IndexPath(item: count - 1, section: section)), after) }
        return mark(.header(section: section), "drop-below") ?? mark(.footer(section: section), "drop-above")
    }

    /// The CSS classes of a line before and after a row.
    private var markClasses: (before: String, after: String) {
        kind.flowsHorizontally ? ("drop-before", "drop-after") : ("drop-above", "drop-below")
    }

    private func mark(_ row: FlatRow, _ cssClass: String) -> DropMark? {
        guard let position = bridge.layout.position(of: row), let bound = boundRows(at: position).first else { return nil }
        return (bound.row.row.rootWidget, cssClass)
    }

    /// The end of the last section (the first place of an empty storage).
    private var endInsertion: IndexPath {
        let sections = storage.numberOfSections()
        guard sections > 0 else { return IndexPath(item: 0, section: 0) }
        return IndexPath(item: storage.numberOfItems(inSection: sections - 1), section: sections - 1)
    }

    /// Whether (`x`, `y`) is past the list's last row: below it (or after it on its line,
    /// in a grid), or anywhere when the list shows no row.
    private func isPastLastRow(x: Double, y: Double) -> Bool {
        guard bridge.count > 0 else { return true }
        // GTK leaves the rows it keeps off screen unmapped, where they were.
        guard let last = boundRows(at: bridge.count - 1).first?.row.row.rootWidget, gtk_widget_get_mapped(last) != 0 else { return false }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(last, view, &bounds) != 0 else { return false }
        let top = Double(bounds.origin.y), bottom = top + Double(bounds.size.height)
        return y > bottom || (kind.flowsHorizontally && y >= top && x > Double(bounds.origin.x + bounds.size.width))
    }
}
