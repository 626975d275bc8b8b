import CGtk
import CGtkShims
import GtkKit
import ModelStorage

extension ColumnViewManager {
    /// Sorts the `MemoryStorage`'s items by the column view's sorter now (each section on
    /// its own, stably), recording the items that change place as moves. Does nothing when
    /// no column sorts, or when the storage is not a `MemoryStorage`.
    public func sortItemsByColumns() {
        guard let memoryStorage else { return }
        memoryStorage.reorderItems { _, items in sortedByColumns(items) ?? Array(items.indices) }
    }

    /// Whether a column sorts the view (a header was clicked, or `sort(by:)` called).
    public var isSortedByColumns: Bool {
        gtk_sorter_get_order(sorter) != GTK_SORTER_ORDER_NONE
    }

    /// The column the view is sorted by first (the header clicked last, or `sort(by:)`), and
    /// whether it sorts ascending; nil when no column sorts. For storages that sort
    /// themselves, such as a query sorted by SQL.
    public var primarySort: (column: TableColumn, ascending: Bool)? {
        guard isSortedByColumns else { return nil }
        // GTK's column view sorter asks its columns' sorters in turn, the primary first, and
        // reverses the answer of a descending one: the probe learns which, and the answer
        // says how.
        let probe = SortProbe()
        let order = compare(probe, SortProbe())
        return probe.column.map { ($0, order == GTK_ORDERING_SMALLER) }
    }

    /// Whether the column view's sorting puts `left` before `right` (false when they are
    /// equal for it, or no column sorts): an ordering for storages the manager does not
    /// sort itself, such as a database query sorted in memory.
    /// Costs one comparison by the sorter: the two item objects are made once and reused.
    public func sortsBefore(_ left: Any, _ right: Any) -> Bool {
        compare(left, right) == GTK_ORDERING_SMALLER
    }

    /// The column view sorter's order of `left` and `right`.
    private func compare(_ left: Any, _ right: Any) -> GtkOrdering {
        let items = comparisonItems
        items.left.payload.model = left
        items.right.payload.model = right
        defer {
            items.left.payload.model = nil
            items.right.payload.model = nil
        }
        return gtk_sorter_compare(sorter, items.left.object, items.right.object)
    }

    /// The order the column view's sorting gives `models` (any models, not only the
    /// storage's), as their indexes, stably; nil when no column sorts. Lets an app that
    /// keeps more models than it shows (a search, say) sort them all the same way.
    public func sortedByColumns(_ models: [Any]) -> [Int]? {
        guard isSortedByColumns else { return nil }
        let sorter = self.sorter
        // The sorter compares item objects: one per model, for the time of the sort.
        let objects = models.map { ObjectReference(adopting: RowItem(kind: .row(.item), model: $0).makeObject()) }
        // The standard library's sort is stable: models the sorter finds equal keep their order.
        return models.indices.sorted { gtk_sorter_compare(sorter, objects[$0].pointer, objects[$1].pointer) == GTK_ORDERING_SMALLER }
    }

    /// Sorts the storage each time the column view's sorter changes (a header click).
    func connectSorting() {
        Signal.connect(UnsafeMutableRawPointer(sorter), "changed") { [weak self] (_: Int32) in
            guard let self else { return }
            if sortsMemoryStorage { sortItemsByColumns() }
            didChangeSorting?()
            tableLayoutChanged()
        }
    }
}

/// An item object whose model is set for each comparison (see `sortsBefore`).
@MainActor
final class ComparisonItem {
    let payload = RowItem(kind: .row(.item), model: nil)
    private let reference: ObjectReference<UnsafeMutableRawPointer>
    /// The GObject.
    var object: UnsafeMutableRawPointer { reference.pointer }

    init() {
        reference = ObjectReference(adopting: payload.makeObject())
    }
}
