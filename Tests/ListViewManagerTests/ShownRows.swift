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

/// Makers of a manager of each kind of view, in order: a list, a grid and a sectioned grid
/// of `columns` columns, and a column view whose one column, `title`, shows `text` of each
/// model.
@MainActor
func everyKindOfView<Model>(columns: Int = 4, column title: String, _ text: @escaping (Model) -> String) -> [() -> ItemViewManager] {
    [{ ListViewManager() }, { GridViewManager(maxColumns: columns) }, { SectionedGridViewManager(maxColumns: columns) }, {
        let table = ColumnViewManager()
        table.addColumn(TableColumn(title, text: text))
        return table
    }]
}
