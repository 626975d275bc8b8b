import CGtk
import Foundation
import GtkKit
import ModelStorage

/// What the row factories ask of their manager while they bind rows: the row at a position,
/// its model and mapping, and what happens when a row is bound, updated, moved or unbound.
extension ItemViewManager: RowFactoryDelegate {
    func flatRow(at position: Int) -> FlatRow? {
        bridge.row(at: position)
    }

    func sectionHeader(above item: RowItem) -> FlatRow? {
        bridge.sectionHeader(above: item)
    }

    func model(of row: FlatRow) -> Any? {
        bridge.model(of: row)
    }

    func mapping(for row: FlatRow, model: Any) -> ViewModelMapping {
        let kind = row.mappingKind
        let indexPath = Self.indexPath(of: row)
        if let mapping = resolver.mapping(kind, for: model, at: indexPath, depth: { self.depthInTree(of: row) }) { return mapping }
        let modelType = String(describing: type(of: model))
        if reportedMissingMappings.insert("\(kind) \(modelType)").inserted {
            switch row {
            case .item: anomalyHandler.report(.noItemMappingFound(modelType: modelType, indexPath: indexPath))
            case .header(let section): anomalyHandler.report(.noSupplementaryMappingFound(modelType: modelType, kind: .header, section: section))
            case .footer(let section): anomalyHandler.report(.noSupplementaryMappingFound(modelType: modelType, kind: .footer, section: section))
            }
        }
        return missingMappings[kind]!
    }

    func rowDidBind(_ entry: RowFactory.AttachedRow, listItem: OpaquePointer) {
        rowDidBind(entry, namesItem: true)
        prepareRowWidget(of: listItem)
    }

    func rowDidUpdate(_ entry: RowFactory.AttachedRow) {
        rowDidUpdate(entry, namesItem: true)
        prepareRowWidget(of: entry.listItem)
    }

    /// `entry`'s row was bound: it is described (named for screen readers too when
    /// `namesItem`: one cell of a column view's row does it) and its events fire.
    func rowDidBind(_ entry: RowFactory.AttachedRow, namesItem: Bool) {
        guard let flatRow = entry.flatRow, let model = entry.item?.model else { return }
        let indexPath = Self.indexPath(of: flatRow)
        describe(entry, showing: model, at: flatRow, namesItem: namesItem)
        entry.mapping.fire(.configure, row: entry.row, model: model, indexPath: indexPath)
        entry.mapping.fire(.willDisplay, row: entry.row, model: model, indexPath: indexPath)
    }

    /// `entry`'s row was updated in place, as `rowDidBind(_:namesItem:)`.
    func rowDidUpdate(_ entry: RowFactory.AttachedRow, namesItem: Bool) {
        guard let flatRow = entry.flatRow, let model = entry.item?.model else { return }
        describe(entry, showing: model, at: flatRow, namesItem: namesItem)
        entry.mapping.fire(.configure, row: entry.row, model: model, indexPath: Self.indexPath(of: flatRow))
    }

    var rowsDependOnPlace: Bool {
        // A tree's row shows its item's depth, which a move can change.
        resolver.dependsOnPlace || selectionRules.dependOnPlace || rowDescriptions.dependOnPlace || showsTree
    }

    func rowDidMove(_ entry: RowFactory.AttachedRow) {
        rowDidMove(entry, namesItem: true)
        prepareRowWidget(of: entry.listItem)
    }

    /// `entry`'s row moved: its label is asked for again with its new index path (its
    /// tooltip is asked for when shown).
    func rowDidMove(_ entry: RowFactory.AttachedRow, namesItem: Bool) {
        guard rowDescriptions.dependOnPlace,
              let flatRow = entry.flatRow, let model = entry.item?.model else { return }
        describe(entry, showing: model, at: flatRow, namesItem: namesItem)
    }

    func holdingUpdates(_ body: () -> Void) {
        updater.holdingUpdates(body)
    }

    func rowDidUnbind(_ entry: RowFactory.AttachedRow) {
        guard let flatRow = entry.flatRow, let model = entry.item?.model else { return }
        entry.mapping.fire(.didEndDisplaying, row: entry.row, model: model, indexPath: Self.indexPath(of: flatRow))
    }
}
