import GtkKit
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
    /// The list GTK reads.
    private let bridge: ListModelBridge
    /// The storage followed.
    private var storage: any Storage
    /// How the list lays out sections, as of the last reload.
    private var options: FlatLayoutOptions
    /// Who takes part in each change, in order (see `UpdateParticipant`).
    var participants: [any UpdateParticipant] = [] {
        didSet {
            beforeSplices = participants.filter { $0.phases.contains(.beforeSplices) }
            eachSplice = participants.filter { $0.phases.contains(.eachSplice) }
            afterSplices = participants.filter { $0.phases.contains(.afterSplices) }
            settled = participants.filter { $0.phases.contains(.settled) }
        }
    }
    /// Those of `participants` that take part in each phase, in order.
    private var beforeSplices: [any UpdateParticipant] = [], eachSplice: [any UpdateParticipant] = [],
                afterSplices: [any UpdateParticipant] = [], settled: [any UpdateParticipant] = []
    /// Called before each update is applied to the list view.
    public var willUpdateContent: ((StorageUpdate?) -> Void)?
    /// Called after each update is applied (splices emitted, rows updated in place).
    public var didUpdateContent: ((StorageUpdate?) -> Void)?

    private var queue: [ContentChange] = []
    /// How many updates and reloads the storage has delivered (to notice changes made
    /// meanwhile by a handler).
    private(set) var deliveries = 0
    private var isApplying = false
    /// How many `holdingUpdates` calls are running.
    private var holds = 0
    /// Whether the updates queued during a hold are to be applied once GTK is done.
    private var applyScheduled = false
    /// Whether the manager is gone: updates that still arrive (through a replacement
    /// `storageUpdater` that outlived it) are dropped.
    private var isDetached = false
    /// The manager, kept alive while a change is applied: an event handler that lets go of
    /// it midway (a `didDeselect` before the splices, say) does not take it from under the
    /// participants, which hold it unowned.
    weak var owner: AnyObject?

    /// An updater of `bridge`, which shows `storage` laid out with `options`.
    init(bridge: ListModelBridge, storage: any Storage, options: FlatLayoutOptions) {
        self.bridge = bridge
        self.storage = storage
        self.options = options
    }

    /// Drops the queued updates and reloads every row from `storage` as it is now, laid out
    /// with `options` (the storage was replaced or the layout options changed): right away,
    /// or right after the update being applied.
    func reload(from storage: any Storage, options: FlatLayoutOptions) {
        self.storage = storage
        self.options = options
        queue.removeAll()
        enqueue(.reload(models: storage.snapshot(), options: options))
    }

    /// The manager is going: no change is applied from now on, and no participant is told.
    func detach() {
        isDetached = true
        queue.removeAll()
        participants = []
    }

    private func enqueue(_ change: ContentChange) {
        guard !isDetached else { return }
        queue.append(change)
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
        bridge.read(storage)
    }

    /// Runs `body`, during which GTK or the manager is in the middle of its own work (a
    /// factory signal, a layout, a pass over the rows): an update that the event handlers
    /// `body` fires cause is queued, and applied once GTK is done (right after the update
    /// being applied, when `body` runs inside one). Until then the list keeps answering GTK
    /// as before the change: it reads a snapshot of the storage taken when the hold began.
    func holdingUpdates(_ body: () -> Void) {
        if holds == 0, !isApplying, queue.isEmpty {
            bridge.read(storage.snapshot())
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
            bridge.read(storage)
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

    /// Takes `change` through its phases: the participants before the splices, the splices
    /// (each told to those that follow splices), the participants after them, and once every
    /// row shows the change.
    private func apply(_ change: ContentChange) {
        guard let owner else { return }
        defer { withExtendedLifetime(owner) {} }
        willUpdateContent?(change.update)
        for participant in beforeSplices { participant.willApply(change) }
        let applied = bridge.apply(change, tellingEachSplice: eachSplice)
        for participant in afterSplices { participant.didApply(applied) }
        for participant in settled { participant.didSettle(applied) }
        didUpdateContent?(change.update)
    }
}

extension ListViewUpdater: StorageUpdating {
    /// Applies `update`. Storages attached to a manager must be changed on the main thread.
    public nonisolated func storageDidPerformUpdate(_ update: StorageUpdate) {
        MainActor.assumeIsolated {
            deliveries += 1
            enqueue(.update(update, models: storage.snapshot()))
        }
    }

    /// Reloads every row.
    public nonisolated func storageNeedsReloading() {
        MainActor.assumeIsolated {
            deliveries += 1
            enqueue(.reload(models: storage.snapshot(), options: options))
        }
    }
}

extension ItemViewManager {
    /// The object that applies storage updates to the list view, with its hooks.
    public var contentUpdater: ListViewUpdater { updater }
}
