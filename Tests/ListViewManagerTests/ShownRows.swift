import CGtk
import Foundation
@testable import ListViewManager
import ModelStorage

extension ItemViewManager {
    /// Where GTK shows the row of the item at `indexPath`, from the top of the area the rows
    /// scroll in (its top and bottom); nil when GTK does not show it. `wholeRow`: a
    /// sectioned grid's tile counts as the strip it is in (the list's row).
    @MainActor
    func shownSpan(of indexPath: IndexPath, wholeRow: Bool = false) -> (top: Double, bottom: Double)? {
        let listBase = kind.listBase(view)
        guard let position = position(of: indexPath), var widget = shownRowWidget(at: position) else { return nil }
        if wholeRow {
            while let parent = gtk_widget_get_parent(widget), parent != listBase { widget = parent }
        }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(widget, listBase, &bounds) != 0 else { return nil }
        return (Double(bounds.origin.y), Double(bounds.origin.y + bounds.size.height))
    }
}
