import CGtk
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    /// A bound row found under the pointer.
    struct PickedRow {
        let row: RowWidget
        let flatRow: FlatRow
        /// The row's bounds in list view coordinates.
        let bounds: graphene_rect_t
    }

    /// The bound row at (`x`, `y`) in the list view's coordinates, if any: on the row, or
    /// on the padding around it of the widget GTK made for its item.
    func boundRow(atX x: Double, y: Double) -> PickedRow? {
        guard var widget = gtk_widget_pick(view, x, y, GTK_PICK_DEFAULT) else { return nil }
        let bound = boundRows
        let itemWidgets = bound.compactMap { entry in itemWidget(of: entry.row.row).map { (UnsafeMutableRawPointer($0), entry) } }
        let rows = Dictionary(bound.map { (UnsafeMutableRawPointer($0.row.row.rootWidget), $0) } + itemWidgets, uniquingKeysWith: { first, _ in first })
        while widget != view {
            if let (_, attached) = rows[UnsafeMutableRawPointer(widget)],
               let flatRow = bridge.row(at: attached.position) {
                var bounds = graphene_rect_t()
                guard gtk_widget_compute_bounds(widget, view, &bounds) != 0 else { return nil }
                return PickedRow(row: attached.row, flatRow: flatRow, bounds: bounds)
            }
            guard let parent = gtk_widget_get_parent(widget) else { return nil }
            widget = parent
        }
        return nil
    }
}
