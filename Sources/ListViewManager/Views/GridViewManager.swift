import CGtk
import GtkKit
import ModelStorage

/// Drives a GtkGridView from a storage, as `ListViewManager` drives a list: the same
/// registration of row types (here, the cells of the grid), storages, typed events,
/// selection, updater, menus, moves and anomalies, all from `ItemViewManager`.
///
/// ```swift
/// let manager = GridViewManager(maxColumns: 6)
/// manager.itemSize = (width: 160, height: 180)
/// manager.register(PhotoCell.self)
/// manager.memoryStorage.setItems(photos)
/// manager.didActivate(PhotoCell.self) { cell, photo, indexPath in … }
/// ```
///
/// GTK 4.8's grid view has no sections: the items of every section are shown one after
/// another. A header or footer model in the storage is reported once as the anomaly
/// `supplementaryRowsNotShown` rather than dropped silently.
@MainActor
public final class GridViewManager: ItemViewManager {
    /// The GtkGridView: ``ItemViewManager/view``, by its older name.
    @available(*, deprecated, renamed: "view")
    public var gridView: UnsafeMutablePointer<GtkWidget> { view }

    /// Creates a manager for `gridView` (a new GtkGridView when nil) showing `storage`.
    /// - Parameters:
    ///   - gridView: the grid view to drive; the manager sets its model and factory.
    ///   - storage: where models come from (a new `MemoryStorage` by default).
    ///   - selectionMode: none, single (the default) or multiple.
    ///   - minColumns: the fewest columns the grid shows, however narrow it is.
    ///   - maxColumns: the most columns the grid shows, however wide it is.
    public init(gridView: UnsafeMutablePointer<GtkWidget>? = nil, storage: Storage? = nil, selectionMode: SelectionMode = .single,
                minColumns: Int = 1, maxColumns: Int = 7) {
        super.init(view: gridView ?? gtk_grid_view_new(nil, nil)!, kind: .grid, storage: storage, selectionMode: selectionMode)
        gtk_grid_view_set_factory(OpaquePointer(view), factory.factory)
        self.maxColumns = maxColumns
        self.minColumns = minColumns
    }

    /// The fewest columns shown (GtkGridView's `min-columns`, at least 1).
    public var minColumns: Int {
        get { Int(gtk_grid_view_get_min_columns(OpaquePointer(view))) }
        set { gtk_grid_view_set_min_columns(OpaquePointer(view), UInt32(max(1, newValue))) }
    }

    /// The most columns shown (GtkGridView's `max-columns`, at least 1). GTK raises it to
    /// `minColumns` when it is lower.
    public var maxColumns: Int {
        get { Int(gtk_grid_view_get_max_columns(OpaquePointer(view))) }
        set { gtk_grid_view_set_max_columns(OpaquePointer(view), UInt32(max(1, newValue))) }
    }

    /// The size every item cell asks for, in pixels (its size request), so that cells of
    /// different contents line up; nil (the default) lets each cell take its natural size.
    /// Applies to cells made already as well as later ones.
    public var itemSize: (width: Int, height: Int)? {
        get { itemSizeRequest }
        set {
            itemSizeRequest = newValue
            for factory in factories {
                for (row, mapping) in factory.madeRows where mapping.kind == .item {
                    applyItemSize(to: row)
                }
            }
        }
    }

    /// Whether dragging over empty space selects the items it covers, with multiple
    /// selection (GtkGridView's `enable-rubberband`).
    public var rubberbandSelection: Bool {
        get { gtk_grid_view_get_enable_rubberband(OpaquePointer(view)) != 0 }
        set { gtk_grid_view_set_enable_rubberband(OpaquePointer(view), newValue ? 1 : 0) }
    }
}
