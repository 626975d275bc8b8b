import CGtk
import Foundation
import ModelStorage

/// Keeps the list view in step with the storage: each `StorageUpdate` becomes the
/// coalesced splices of the flat layout, and content-only changes re-run `update(with:)` on
/// the bound rows in place, emitting no `items-changed`.
///
/// Updates are applied one at a time: one that arrives while another is being applied
/// (a storage change made from an event handler, say) is queued and applied right after,
/// against a snapshot of the storage taken when it arrived. One that arrives while GTK or
/// the manager is in the middle of its own work (`holdingUpdates`: binding list items,
/// laying out, going through its rows) waits until that work is done, so that no change
/// reaches GTK while it binds, tears down or lays out.
@MainActor
public final class ListViewUpdater {
    weak var manager: ItemViewManager?
    /// Called before each update is applied to the list view.
    public var willUpdateContent: ((StorageUpdate?) -> Void)?
    /// Called after each update is applied (splices emitted, rows updated in place).
    public var didUpdateContent: ((StorageUpdate?) -> Void)?

    private enum Pending {
        case update(StorageUpdate, any SectionedModels)
        case reload(any SectionedModels, FlatLayoutOptions)
    }

    private var queue: [Pending] = []
    /// How many updates and reloads the storage has delivered (to notice changes made
    /// meanwhile by a handler).
    private(set) var deliveries = 0
    private var isApplying = false
    /// How many `holdingUpdates` calls are running.
    private var holds = 0
    /// Whether the updates queued during a hold are to be applied once GTK is done.
    private var applyScheduled = false

    /// Drops the queued updates and reloads every row from the storage as it is now (after
    /// the storage was replaced or the layout options changed): right away, or right after
    /// the update being applied.
    func reload(options: FlatLayoutOptions) {
        guard let storage = manager?.storage else { return }
        queue.removeAll()
        enqueue(.reload(storage.snapshot(), options))
    }

    private func enqueue(_ pending: Pending) {
        queue.append(pending)
        guard !isApplying, holds == 0 else { return }
        applyQueue()
    }

    /// Applies the queued updates in order, then reads the storage itself again.
    private func applyQueue() {
        isApplying = true
        defer { isApplying = false }
        while !queue.isEmpty {
            apply(queue.removeFirst())
        }
        // Caught up: read the storage itself again, so that a snapshot held here does not
        // make the storage copy a section on its next change.
        if let manager { manager.bridge.read(manager.storage) }
    }

    /// Runs `body`, during which GTK or the manager is in the middle of its own work (a
    /// factory signal, a layout, a pass over the rows): an update that the event handlers
    /// `body` fires cause is queued, and applied once GTK is done (right after the update
    /// being applied, when `body` runs inside one). Until then the list keeps answering GTK
    /// as before the change: it reads a snapshot of the storage taken when the hold began.
    func holdingUpdates(_ body: () -> Void) {
        if holds == 0, !isApplying, queue.isEmpty, let manager {
            manager.bridge.read(manager.storage.snapshot())
        }
        holds += 1
        defer {
            holds -= 1
            if holds == 0, !isApplying { holdEnded() }
        }
        body()
    }

    /// The last hold ended outside an update: the storage is read live again when nothing
    /// changed, else the queued updates are applied once GTK is done with the work at hand.
    private func holdEnded() {
        guard !queue.isEmpty else {
            if let manager { manager.bridge.read(manager.storage) }
            return
        }
        guard !applyScheduled else { return }
        applyScheduled = true
        whenIdle { [weak self] in
            guard let self else { return }
            applyScheduled = false
            guard holds == 0, !isApplying, !queue.isEmpty else { return }
            applyQueue()
        }
    }

    private func apply(_ pending: Pending) {
        guard let manager else { return }
        switch pending {
        case let .update(update, models):
            willUpdateContent?(update)
            for follower in manager.updateFollowers { follower.follow(update, models: models) }
            let updated = manager.bridge.apply(update, models: models, tellingEachSplice: manager.spliceFollowers)
            manager.viewListFollow(update, models: models)
            manager.factories.forEach { $0.followMovedRows(after: updated.unchangedRows) }
            manager.headerFactory?.followSectionHeaders(updatedSections: Set(updated.sectionHeaders))
            manager.updateRowsInPlace(at: updated.positions)
            manager.selection.reselectMovedItems()
            manager.pinnedHeader?.setNeedsRefresh()
            didUpdateContent?(update)
        case let .reload(models, options):
            willUpdateContent?(nil)
            for follower in manager.updateFollowers { follower.dropForReload(models: models) }
            manager.bridge.reload(models: models, options: options, tellingEachSplice: manager.spliceFollowers)
            manager.viewListReload(models: models, options: options)
            manager.headerFactory?.followSectionHeaders(updatedSections: [])
            manager.pinnedHeader?.setNeedsRefresh()
            didUpdateContent?(nil)
        }
    }
}

extension ListViewUpdater: StorageUpdating {
    /// Applies `update`. Storages attached to a manager must be changed on the main thread.
    public nonisolated func storageDidPerformUpdate(_ update: StorageUpdate) {
        MainActor.assumeIsolated {
            guard let storage = manager?.storage else { return }
            deliveries += 1
            enqueue(.update(update, storage.snapshot()))
        }
    }

    /// Reloads every row.
    public nonisolated func storageNeedsReloading() {
        MainActor.assumeIsolated {
            guard let manager else { return }
            deliveries += 1
            enqueue(.reload(manager.storage.snapshot(), manager.layoutOptions))
        }
    }
}

extension ItemViewManager {
    /// The object that applies storage updates to the list view, with its hooks.
    public var contentUpdater: ListViewUpdater { updater }

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
