import ModelStorage

/// The bound rows' part in each change, after its splices: rows GTK moved without binding
/// them again take their new places, the section headers the view shows itself follow
/// their sections, and rows whose content changed in place are updated with their new
/// models (no `items-changed` for them). After a reload GTK binds every row anew: only the
/// section headers are looked at again.
@MainActor
final class BoundRowsFollower: UpdateParticipant {
    private unowned let manager: ItemViewManager

    init(manager: ItemViewManager) {
        self.manager = manager
    }

    var phases: UpdatePhases { .afterSplices }

    func didApply(_ applied: AppliedChange) {
        guard !applied.change.isReload else {
            manager.headerFactory?.followSectionHeaders(updatedSections: [])
            return
        }
        manager.factories.forEach { $0.followMovedRows(after: applied.unchangedRows) }
        manager.headerFactory?.followSectionHeaders(updatedSections: applied.updatedSectionHeaders)
        manager.updateRowsInPlace(at: applied.updatedPositions)
    }
}

extension ItemViewManager {
    /// Re-runs `update(with:)` on the bound rows at `positions` with their current models.
    func updateRowsInPlace(at positions: [Int]) {
        guard !positions.isEmpty else { return }
        var listItems: [Int: OpaquePointer] = [:]
        for factory in factories {
            listItems.removeAll(keepingCapacity: true)
            for (listItem, _) in factory.boundRows {
                listItems[factory.position(of: listItem)] = listItem
            }
            for position in positions {
                guard let listItem = listItems[position], let flatRow = bridge.row(at: position),
                      let model = bridge.model(of: flatRow) else { continue }
                factory.replaceContent(of: listItem, with: model, as: flatRow)
            }
        }
    }

    /// Refreshes what the rows on screen show after a change outside the storage (a setting,
    /// the time of day): each bound row, headers and footers included, is updated again with
    /// its model by its mapping (`update(with:)`, a handler, `configure` reactions), or, when
    /// `updateRow` is given, handed to it instead (DTTableViewManager's `updateVisibleCells`).
    /// The storage is not touched: no splice reaches GTK and the selection stays.
    public func updateVisibleRows(_ updateRow: ((RowWidget) -> Void)? = nil) {
        guard let updateRow else { return updateAllBoundRows() }
        for (_, entry) in boundRows { updateRow(entry.row) }
    }

    /// Re-runs `update(with:)` on every bound row (after mappings changed).
    func updateAllBoundRows() {
        updateRowsInPlace(at: Array(Set(boundRows.map(\.row.position))))
    }
}
