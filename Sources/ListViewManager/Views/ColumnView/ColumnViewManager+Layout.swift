import CGtk
import CGtkShims
import Foundation
import GtkKit

extension ColumnViewManager {
    /// How the table is arranged now: its columns in the order shown (the user drags
    /// headers), their widths (the user drags their edges) and visibility (the header's
    /// menu), and the sort. Setting it arranges the table so; columns it does not name keep
    /// their place after those it does, and ids of no column are passed over.
    public var tableLayout: TableLayout {
        get {
            let byPointer = Dictionary(columns.compactMap { column in column.column.map { ($0, column) } }, uniquingKeysWith: { first, _ in first })
            let shown = shownColumns.compactMap { byPointer[$0] }
            let sort = primarySort
            return TableLayout(
                columns: shown.map { column in
                    let width = column.column.map { Int(gtk_column_view_column_get_fixed_width($0)) } ?? -1
                    return TableLayout.Column(id: column.id, width: width >= 0 ? width : nil, isVisible: column.isVisible)
                },
                sortColumn: sort?.column.id, sortAscending: sort?.ascending ?? true)
        }
        set {
            arrangingColumns = true
            defer { arrangingColumns = false }
            var position = 0
            for saved in newValue.columns {
                guard let column = columns.first(where: { $0.id == saved.id }), let gtkColumn = column.column else { continue }
                if shownColumns.firstIndex(of: gtkColumn) != position {
                    gtk_column_view_insert_column(OpaquePointer(view), UInt32(position), gtkColumn)
                }
                column.fixedWidth = saved.width
                column.isVisible = saved.isVisible
                position += 1
            }
            if !columns.contains(where: \.isVisible), let first = columns.first { first.isVisible = true }
            columnChooser?.refresh()
            let sortColumn = newValue.sortColumn.flatMap { id in columns.first { $0.id == id && $0.isSortable } }
            if sortColumn !== primarySort?.column || newValue.sortAscending != primarySort?.ascending {
                sort(by: sortColumn, ascending: newValue.sortAscending)
            }
        }
    }

    /// The GtkColumnViewColumns in the order the view shows them.
    private var shownColumns: [OpaquePointer] {
        let model = gtk_column_view_get_columns(OpaquePointer(view))!
        return (0..<g_list_model_get_n_items(model)).compactMap { index in
            guard let item = g_list_model_get_item(model, index) else { return nil }
            g_object_unref(item)  // the view keeps its columns
            return OpaquePointer(item)
        }
    }

    /// Follows what the user changes of the table's arrangement (`didChangeTableLayout`):
    /// a column dragged, resized, hidden or shown, the sort.
    func followLayout(of column: TableColumn) {
        guard let gtkColumn = column.column else { return }
        Signal.connect(UnsafeMutableRawPointer(gtkColumn), "notify::fixed-width") { [weak self, weak column] (_: UnsafeMutableRawPointer?) in
            // The width the user dragged the column to is the column's from now on.
            if let column {
                let width = Int(gtk_column_view_column_get_fixed_width(gtkColumn))
                if column.fixedWidth != (width >= 0 ? width : nil) { column.fixedWidth = width >= 0 ? width : nil }
            }
            self?.tableLayoutChanged()
        }
        Signal.connect(UnsafeMutableRawPointer(gtkColumn), "notify::visible") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.tableLayoutChanged()
        }
    }

    /// Calls `didChangeTableLayout` once the changes at hand are done (a drag of a column's
    /// edge notifies its width at each step: one call per main loop turn at most).
    func tableLayoutChanged() {
        guard !arrangingColumns, !layoutChangeScheduled else { return }
        layoutChangeScheduled = true
        whenIdle { [weak self] in
            guard let self else { return }
            layoutChangeScheduled = false
            columnChooser?.refresh()
            didChangeTableLayout?(tableLayout)
        }
    }

    /// Follows the order of the view's columns (the user drags a header).
    func followColumnOrder() {
        let model = gtk_column_view_get_columns(OpaquePointer(view))!
        Signal.connect(UnsafeMutableRawPointer(model), "items-changed") { [weak self] (_: UInt32, _: UInt32, _: UInt32) in
            self?.tableLayoutChanged()
        }
    }
}
