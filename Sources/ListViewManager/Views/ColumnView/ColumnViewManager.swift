import CGtk
import CGtkShims
import GtkKit
import ModelStorage

/// Drives a GtkColumnView (a table) from a storage: columns declared in Swift, each with
/// its own cell type, and the same storages, typed events, selection, updater, menus,
/// moves and anomalies as `ListViewManager`, all from `ItemViewManager`.
///
/// ```swift
/// let manager = ColumnViewManager()
/// manager.addColumn(TableColumn("Name", \FileEntry.name))
/// manager.addColumn(TableColumn("Size", text: { (entry: FileEntry) in entry.sizeText },
///                               sortedBy: { $0.size < $1.size }))
/// manager.memoryStorage.setItems(entries)
/// manager.didActivate(model: FileEntry.self) { entry, indexPath in … }
/// ```
///
/// Row-type events name a column's cell type (`didSelect(KindCell.self) { cell, entry,
/// indexPath in … }`) and fire with that column's cell (once per column showing that cell
/// type); model events fire once per row. "The first column" (`row(at:)`, the placeholder
/// for a model no column shows) is the column added first, wherever the user moved it.
///
/// **Sorting: the storage order follows.** Clicking a sortable column's header sets
/// GtkColumnView's sorter (primary column, then the earlier ones, each ascending or
/// descending), and the manager sorts a `MemoryStorage`'s items by it, each section on its
/// own. The rows that change place are moves, so the selection stays on its items, and
/// index paths in events are always the storage's. Items added later go where the app
/// puts them; `sortItemsByColumns()` sorts again. For other storages (a database query)
/// the manager sorts nothing and calls `didChangeSorting`, where the app re-queries.
///
/// GTK 4.8's column view has no sections: header and footer models are reported once as
/// the anomaly `supplementaryRowsNotShown`. On GTK 4.12 and later,
/// `configuration.usesGTKSectionHeaders` shows each section's header across the columns
/// (GtkListHeaders of the view's own); footers are still not shown.
@MainActor
public final class ColumnViewManager: ItemViewManager {
    /// The GtkColumnView: ``ItemViewManager/view``, by its older name.
    @available(*, deprecated, renamed: "view")
    public var columnView: UnsafeMutablePointer<GtkWidget> { view }
    /// The columns, in the order they were added (the user may reorder them on screen).
    public var columns: [TableColumn] { tableColumns }
    /// Called after the sorting changed (a header was clicked) and, for a `MemoryStorage`,
    /// after its items were sorted.
    public var didChangeSorting: (() -> Void)?
    /// The two item objects `sortsBefore` hands the sorter (one reference each, owned here).
    private(set) lazy var comparisonItems: (left: ComparisonItem, right: ComparisonItem) = (ComparisonItem(), ComparisonItem())

    /// Called when the table's arrangement changed otherwise than by the app adding,
    /// removing or arranging columns: the user dragged a column, resized it, hid or showed
    /// it from the header's menu, or sorted by it (`sort(by:)` too). With the new
    /// arrangement, once per main loop turn at most: store it, and give it back to
    /// `tableLayout` when the table is shown again (which does not call it).
    public var didChangeTableLayout: ((TableLayout) -> Void)?
    var layoutChangeScheduled = false
    /// Set while the app adds or removes a column: the columns' changes then are not the
    /// user's arranging.
    var arrangingColumns = false
    /// The header's menu that shows and hides columns, unless `offersColumnChooser` is off.
    private(set) var columnChooser: ColumnChooser?

    /// Whether a right click on a column's header offers a menu of the columns, to show or
    /// hide each (the default: yes).
    public var offersColumnChooser: Bool {
        get { columnChooser != nil }
        set {
            guard newValue != (columnChooser != nil) else { return }
            if newValue {
                columnChooser = ColumnChooser(manager: self)
                columnChooser?.rebuild(for: columns)
            } else {
                for column in columns { column.column.map { gtk_column_view_column_set_header_menu($0, nil) } }
                columnChooser = nil
            }
        }
    }

    /// Whether a header click sorts a `MemoryStorage` (the default). Turn it off to sort
    /// in `didChangeSorting` yourself, with `sortedByColumns(_:)`.
    public var sortsMemoryStorage = true

    /// Creates a manager for `columnView` (a new GtkColumnView when nil) showing `storage`.
    /// - Parameters:
    ///   - columnView: the column view to drive; the manager sets its model and adds
    ///     columns to it.
    ///   - storage: where models come from (a new `MemoryStorage` by default).
    ///   - selectionMode: none, single (the default) or multiple.
    public init(columnView: UnsafeMutablePointer<GtkWidget>? = nil, storage: Storage? = nil, selectionMode: SelectionMode = .single) {
        super.init(view: columnView ?? gtk_column_view_new(nil)!, kind: .column, storage: storage, selectionMode: selectionMode)
        connectSorting()
        followColumnOrder()
        offersColumnChooser = true
    }

    isolated deinit {
        // The columns outlive the view only as far as their factories go: give them back,
        // once GTK is done binding when the manager goes from inside a cell's event (see
        // `ItemViewManager`'s deinit, which takes the view apart after this).
        let gtkColumns = columns.compactMap(\.column)
        let giveBack = { for gtkColumn in gtkColumns { gtk_column_view_column_set_factory(gtkColumn, nil) } }
        guard RowFactory.isInsideGTKCall else { return giveBack() }
        let held = gtkColumns.map { ObjectReference(retaining: $0) }  // until GTK is done
        whenIdle {
            giveBack()
            withExtendedLifetime(held) {}
        }
    }

    /// Adds `column` at the end. A column belongs to one manager.
    public func addColumn(_ column: TableColumn) {
        arrangingColumns = true
        defer { arrangingColumns = false }
        let gtkColumn = column.attach(to: self)
        // Never while the view has a header factory (see `attachHeaderFactory`).
        kind.setHeaderFactory(view, nil)
        tableColumns.append(column)
        gtk_column_view_append_column(OpaquePointer(view), gtkColumn)
        attachHeaderFactory()
        followLayout(of: column)
        columnChooser?.columnsChanged()
    }

    /// Takes `column` (added here) off the view, with its cells; returns false, changing
    /// nothing, for a column that is not this view's. A removed column is not added again
    /// (make a new one). Removing the column the view is sorted by leaves the order as it is.
    @discardableResult
    public func removeColumn(_ column: TableColumn) -> Bool {
        guard let index = tableColumns.firstIndex(where: { $0 === column }), let gtkColumn = column.column else { return false }
        arrangingColumns = true
        defer { arrangingColumns = false }
        gtk_column_view_remove_column(OpaquePointer(view), gtkColumn)
        gtk_column_view_column_set_factory(gtkColumn, nil)
        tableColumns.remove(at: index)
        columnChooser?.columnsChanged()
        return true
    }

    /// Replaces every column with `newColumns` (a table of another shape).
    public func setColumns(_ newColumns: [TableColumn]) {
        for column in columns { removeColumn(column) }
        for column in newColumns { addColumn(column) }
    }

    /// Whether the user can drag column headers to reorder the columns (GtkColumnView's
    /// default: yes).
    public var reorderableColumns: Bool {
        get { gtk_column_view_get_reorderable(OpaquePointer(view)) != 0 }
        set { gtk_column_view_set_reorderable(OpaquePointer(view), newValue ? 1 : 0) }
    }

    /// Whether lines separate the rows.
    public var showsRowSeparators: Bool {
        get { gtk_column_view_get_show_row_separators(OpaquePointer(view)) != 0 }
        set { gtk_column_view_set_show_row_separators(OpaquePointer(view), newValue ? 1 : 0) }
    }

    /// Whether lines separate the columns.
    public var showsColumnSeparators: Bool {
        get { gtk_column_view_get_show_column_separators(OpaquePointer(view)) != 0 }
        set { gtk_column_view_set_show_column_separators(OpaquePointer(view), newValue ? 1 : 0) }
    }

    /// Sorts the view by `column` (a sortable column added here), ascending or descending,
    /// as clicking its header does; nil removes the sorting (the order stays). A column of
    /// another manager, or one not sortable, is the anomaly `columnCannotSort` and changes
    /// nothing.
    public func sort(by column: TableColumn?, ascending: Bool = true) {
        if let column, column.owner !== self || !column.isSortable {
            anomalyHandler.report(.columnCannotSort(title: column.title, reason: column.owner !== self ? "it was not added to this view" : "it has no sort order"))
            return
        }
        gtk_column_view_sort_by_column(OpaquePointer(view), column?.column, ascending ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING)
    }

    /// The column view's sorter: the sortable columns clicked, most recent first.
    var sorter: UnsafeMutablePointer<GtkSorter> {
        gtk_column_view_get_sorter(OpaquePointer(view))
    }
}
