import Foundation
import ModelStorage

/// Records what a storage delivers to its delegate, the one recorder of every test target,
/// and passes each delivery on to `next` when set (so that it can sit between a storage and
/// a manager's updater).
public final class UpdateRecorder: StorageUpdating {
    public var updates: [StorageUpdate] = []
    public var reloads = 0
    /// Everything delivered, in order: each update's description, and "reload".
    public var log: [String] = []
    /// How many deliveries came on a thread other than the main one.
    public var offMainThread = 0
    /// Where deliveries go on to.
    public weak var next: StorageUpdating?
    /// Errors a storage reported besides its updates (a live storage's `onError`), for the
    /// test to append.
    public var errors: [any Error] = []
    /// Run at each reload, once it is counted, while the storage is as the reload shows it.
    public var onReload: () -> Void = {}

    public init() {}

    public func storageDidPerformUpdate(_ update: StorageUpdate) {
        if !Thread.isMainThread { offMainThread += 1 }
        updates.append(update)
        log.append(update.description)
        next?.storageDidPerformUpdate(update)
    }

    public func storageNeedsReloading() {
        if !Thread.isMainThread { offMainThread += 1 }
        reloads += 1
        log.append("reload")
        onReload()
        next?.storageNeedsReloading()
    }

    /// Everything delivered so far, then forgets it.
    public func take() -> (updates: [StorageUpdate], reloads: Int) {
        defer { updates = []; reloads = 0 }
        return (updates, reloads)
    }
}

/// A storage with a recorder attached and anomalies collected instead of printed.
public final class StorageFixture {
    public let storage = MemoryStorage()
    public let recorder = UpdateRecorder()
    public var anomalies: [MemoryStorageAnomaly] = []

    public init() {
        storage.delegate = recorder
        storage.anomalyHandler.anomalyAction = { [unowned self] in self.anomalies.append($0) }
    }

    /// The single update delivered since the last call (nil when none), failing the
    /// caller's expectations through the returned count otherwise.
    public var delivered: [StorageUpdate] { recorder.take().updates }
}
