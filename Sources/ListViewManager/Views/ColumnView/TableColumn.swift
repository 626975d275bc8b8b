import CGtk
import Foundation
import GtkKit
import ModelStorage

/// A column of a `ColumnViewManager`: a title, the cell shown for each row's model, and
/// how the column sorts, sizes and moves.
///
/// A cell is either a row type of your own (`RowWidget & ModelTransfer`, one per row in
/// this column) or a `TextCell` showing a property. Rows whose model is not of the
/// column's model type show an empty cell there.
///
/// ```swift
/// TableColumn("Name", \FileEntry.name)                       // text, sortable by name
/// TableColumn("Size", text: { (entry: FileEntry) in entry.sizeText },
///             sortedBy: { $0.size < $1.size })
/// TableColumn("Kind", cell: KindCell.self)                   // a typed cell, unsorted
/// ```
@MainActor
public final class TableColumn {
    /// The title in the column's header.
    public let title: String
    /// What names the column in a `TableLayout`: its title unless set (set it when the
    /// title is translated, so that a layout stored in one language applies in another).
    public var id: String
    /// The mapping of the column's model type to its cell type (typed events are attached
    /// in `init(_:cell:bundle:sortedBy:mapping:)`, or on the manager by cell type).
    public let mapping: ViewModelMapping
    /// Where a `TemplateRow` cell loads its `.ui` file from.
    let bundle: Bundle
    /// Whether the user can drag the column's edge to resize it (the default).
    public var isResizable = true {
        didSet { applyProperties() }
    }
    /// Whether the column takes a share of the width left over.
    public var expands = false {
        didSet { applyProperties() }
    }
    /// A fixed width in pixels, or nil (the default) for the width of its cells.
    public var fixedWidth: Int? {
        didSet { applyProperties() }
    }
    /// Whether the column is shown (the user hides and shows columns from the header's menu).
    public var isVisible: Bool {
        get { column.map { gtk_column_view_column_get_visible($0) != 0 } ?? shownWhenAdded }
        set {
            shownWhenAdded = newValue
            if let column { gtk_column_view_column_set_visible(column, newValue ? 1 : 0) }
        }
    }
    private var shownWhenAdded = true
    /// Whether clicking the column's header sorts by it.
    public var isSortable: Bool { areInIncreasingOrder != nil }

    let areInIncreasingOrder: ((Any, Any) -> Bool)?
    private var columnReference: ObjectReference<OpaquePointer>?
    /// The GtkColumnViewColumn, once the column is added to a manager.
    var column: OpaquePointer? { columnReference?.pointer }
    /// The factory of the column's cells, once added.
    private(set) var factory: RowFactory?
    private var cellDelegate: ColumnCellDelegate?
    /// The manager the column was added to.
    private(set) weak var owner: ColumnViewManager?

    /// A column of `cellType` cells for the models they show, sorted (when given) by
    /// `areInIncreasingOrder`.
    /// - Parameters:
    ///   - title: the column's header.
    ///   - cellType: the row type of the column's cells.
    ///   - bundle: where a `TemplateRow` cell loads its `.ui` file from.
    ///   - areInIncreasingOrder: the order of the column's sort (`sortedBy:`), or nil for
    ///     a column that does not sort.
    ///   - configure: (`mapping:`) configures the cell's mapping, as `register` does: typed
    ///     events (`$0.didSelect { cell, model, indexPath in … }`), a `modelCondition`.
    public init<Cell: RowWidget & ModelTransfer>(_ title: String, cell cellType: Cell.Type, bundle: Bundle = .main,
                                                  sortedBy areInIncreasingOrder: ((Cell.ModelType, Cell.ModelType) -> Bool)? = nil,
                                                  mapping configure: ((RowMapping<Cell>) -> Void)? = nil) {
        self.title = title
        id = title
        let mapping = RowMapping<Cell>(kind: .item)
        configure?(mapping)
        self.mapping = mapping
        self.bundle = bundle
        self.areInIncreasingOrder = Self.erase(areInIncreasingOrder)
    }

    /// A column of text cells showing `text(model)` for `Model`s, sorted (when given) by
    /// `areInIncreasingOrder`.
    public init<Model>(_ title: String, text: @escaping (Model) -> String,
                       sortedBy areInIncreasingOrder: ((Model, Model) -> Bool)? = nil) {
        self.title = title
        id = title
        mapping = ViewModelMapping(kind: .item, rowType: TextCell.self, modelType: Model.self) { cell, model in
            cell.text = text(model)
        }
        bundle = .main
        self.areInIncreasingOrder = Self.erase(areInIncreasingOrder)
    }

    /// A column of text cells showing a property of `Model`s, sorted by it.
    public convenience init<Model, Value: Comparable>(_ title: String, _ keyPath: KeyPath<Model, Value>) {
        self.init(title, text: { (model: Model) in "\(model[keyPath: keyPath])" },
                  sortedBy: { $0[keyPath: keyPath] < $1[keyPath: keyPath] })
    }

    private static func erase<Model>(_ order: ((Model, Model) -> Bool)?) -> ((Any, Any) -> Bool)? {
        guard let order else { return nil }
        // Models of other types sort after the column's own when ascending (GTK reverses
        // the whole order when descending), keeping their order.
        return { left, right in
            switch (left as? Model, right as? Model) {
            case let (left?, right?): return order(left, right)
            case (.some, nil): return true
            default: return false
            }
        }
    }

    /// Makes the GtkColumnViewColumn, its cell factory and its sorter, for `manager`.
    func attach(to manager: ColumnViewManager) -> OpaquePointer {
        precondition(column == nil, "a TableColumn belongs to one ColumnViewManager")
        mapping.templateContext = TemplateContext.Context(bundle: bundle) { [weak manager] anomaly in
            manager?.anomalyHandler.report(anomaly)
        }
        owner = manager
        let factory = RowFactory()
        let delegate = ColumnCellDelegate(manager: manager, column: self)
        factory.delegate = delegate
        g_object_ref(UnsafeMutableRawPointer(factory.factory))  // the column takes this reference
        let column = gtk_column_view_column_new(title, factory.factory)!
        columnReference = ObjectReference(adopting: column)
        self.factory = factory
        cellDelegate = delegate
        if let areInIncreasingOrder {
            // A probe (`ColumnViewManager.primarySort`) learns which column GTK asks first.
            let sorter = ObjectReference(adopting: ModelSorter.make { [weak self] left, right in
                guard let probe = left as? SortProbe else { return areInIncreasingOrder(left, right) }
                if probe.column == nil { probe.column = self }
                return true
            })
            gtk_column_view_column_set_sorter(column, sorter.pointer)
        }
        applyProperties()
        return column
    }

    private func applyProperties() {
        guard let column else { return }
        gtk_column_view_column_set_resizable(column, isResizable ? 1 : 0)
        gtk_column_view_column_set_expand(column, expands ? 1 : 0)
        gtk_column_view_column_set_fixed_width(column, Int32(fixedWidth ?? -1))
        gtk_column_view_column_set_visible(column, shownWhenAdded ? 1 : 0)
    }
}

/// A model that finds out which column a column view sorts by first: the first column
/// whose sorter compares it notes itself, and puts it first.
@MainActor
final class SortProbe {
    weak var column: TableColumn?
}

/// A GtkCustomSorter comparing the models of two item objects with a Swift ordering.
@MainActor
enum ModelSorter {
    /// A new sorter (one reference, for the caller).
    static func make(_ areInIncreasingOrder: @escaping (Any, Any) -> Bool) -> UnsafeMutablePointer<GtkSorter> {
        let compare: GCompareDataFunc = { left, right, data in
            let areInIncreasingOrder = UserData<(Any, Any) -> Bool>.value(data)
            return MainActor.assumeIsolated {
                guard let left = RowItem.of(UnsafeMutableRawPointer(mutating: left))?.model,
                      let right = RowItem.of(UnsafeMutableRawPointer(mutating: right))?.model else { return 0 }
                if areInIncreasingOrder(left, right) { return GTK_ORDERING_SMALLER.rawValue }
                if areInIncreasingOrder(right, left) { return GTK_ORDERING_LARGER.rawValue }
                return GTK_ORDERING_EQUAL.rawValue
            }
        }
        let sorter = gtk_custom_sorter_new(compare, UserData.retained(areInIncreasingOrder), ReleaseUserData.destroyNotify)!
        return gtkCast(sorter, to: GtkSorter.self)
    }
}
