import CGtk
import CGtkShims
import GtkKit
import ModelStorage

/// Drives a GtkListView from a storage: register which row type shows which model type,
/// put models into the storage, and the list follows every change, with typed events.
///
/// ```swift
/// let manager = ListViewManager()
/// manager.register(PostRow.self)
/// manager.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
/// manager.memoryStorage.addItems(todayPosts, toSection: 0)
/// manager.didSelect(PostRow.self) { row, post, indexPath in … }
/// ```
///
/// GTK 4.8 has no sections: each section is shown as a header row, its item rows and a
/// footer row. Header and footer rows are neither selectable nor activatable. On GTK 4.12
/// and later the list view can show each section's header itself
/// (`configuration.usesGTKSectionHeaders`); footers stay rows. Everything
/// but the view itself comes from `ItemViewManager`, shared with `GridViewManager` and
/// `ColumnViewManager`.
@MainActor
public final class ListViewManager: ItemViewManager {
    /// The GtkListView: ``ItemViewManager/view``, by its older name.
    @available(*, deprecated, renamed: "view")
    public var listView: UnsafeMutablePointer<GtkWidget> { view }

    /// Creates a manager for `listView` (a new GtkListView when nil) showing `storage`.
    /// - Parameters:
    ///   - listView: the list view to drive; the manager sets its model and factory.
    ///   - storage: where models come from (a new `MemoryStorage` by default, whose
    ///     anomalies are then GLib warnings too).
    ///   - selectionMode: none, single (the default) or multiple.
    public init(listView: UnsafeMutablePointer<GtkWidget>? = nil, storage: Storage? = nil, selectionMode: SelectionMode = .single) {
        super.init(view: listView ?? gtk_list_view_new(nil, nil)!, kind: .list, storage: storage, selectionMode: selectionMode)
        gtk_list_view_set_factory(OpaquePointer(view), factory.factory)
        attachHeaderFactory()
    }
}
