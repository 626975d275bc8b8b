import CGtk
import GtkKit
import ModelStorage

/// What a column's cell factory asks: the manager's answers, but for the cell type, which
/// is the column's own (an empty cell for models of other types).
@MainActor
final class ColumnCellDelegate: RowFactoryDelegate {
    private weak var manager: ColumnViewManager?
    private unowned let column: TableColumn
    private let emptyCell = RowMapping<EmptyCell>(kind: .item)

    init(manager: ColumnViewManager, column: TableColumn) {
        self.manager = manager
        self.column = column
    }

    func flatRow(at position: Int) -> FlatRow? {
        manager?.flatRow(at: position)
    }

    func mapping(for row: FlatRow, model: Any) -> ViewModelMapping {
        let indexPath = ItemViewManager.indexPath(of: row)
        if column.mapping.modelMatches(model), column.mapping.applies(to: model, at: indexPath, depth: { self.manager?.depthInTree(of: row) }) {
            return column.mapping
        }
        // A model no column shows is the same gap as a model no row type shows in a list:
        // the first column shows the placeholder, and it is reported once per type.
        if let manager, manager.columns.first === column, !manager.columns.contains(where: { $0.mapping.modelMatches(model) }) {
            return manager.mapping(for: row, model: model)
        }
        return emptyCell
    }

    func canSelect(_ model: Any, at row: FlatRow) -> Bool {
        manager?.canSelect(model, at: row) ?? false
    }

    func canFocus(_ model: Any, at row: FlatRow) -> Bool {
        manager?.canFocus(model, at: row) ?? false
    }

    var rowsDependOnPlace: Bool {
        column.mapping.dependsOnPlace || manager?.rowsDependOnPlace ?? false
    }

    /// Only the cells of the column added first name the row for screen readers.
    private var namesItem: Bool { manager?.columns.first === column }

    func rowDidBind(_ row: RowFactory.AttachedRow, listItem: OpaquePointer) {
        // The handlers may drop the manager, and the column with it: asked once, before them.
        let namesItem = namesItem
        manager?.rowDidBind(row, namesItem: namesItem)
        if namesItem { manager?.prepareRowWidget(of: listItem) }
        if namesItem { manager?.showDisclosure(of: listItem, madeBy: row.factory) }
    }

    func rowDidUpdate(_ row: RowFactory.AttachedRow) {
        let namesItem = namesItem
        manager?.rowDidUpdate(row, namesItem: namesItem)
        if namesItem { manager?.showDisclosure(of: row.listItem, madeBy: row.factory) }
    }

    func rowDidMove(_ row: RowFactory.AttachedRow) {
        let namesItem = namesItem
        manager?.rowDidMove(row, namesItem: namesItem)
        if namesItem { manager?.showDisclosure(of: row.listItem, madeBy: row.factory) }
    }

    /// The first column's cells show a tree's indent and expander arrows.
    var showsTree: Bool {
        guard let manager, manager.columns.first === column else { return false }
        return manager.showsTree
    }

    func rowDidUnbind(_ row: RowFactory.AttachedRow) {
        manager?.rowDidUnbind(row)
    }

    func rowWasCreated(_ row: RowWidget, kind: MappingKind, host: RowHost) {
        manager?.rowWasCreated(row, kind: kind, host: host)
    }

    func holdingUpdates(_ body: () -> Void) {
        guard let manager else { return body() }
        manager.holdingUpdates(body)
    }
}
