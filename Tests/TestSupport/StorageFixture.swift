import ModelStorage

/// Records what a storage delivers to its delegate.
public final class UpdateRecorder: StorageUpdating {
    public var updates: [StorageUpdate] = []
    public var reloads = 0

    public init() {}

    public func storageDidPerformUpdate(_ update: StorageUpdate) {
        updates.append(update)
    }

    public func storageNeedsReloading() {
        reloads += 1
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
