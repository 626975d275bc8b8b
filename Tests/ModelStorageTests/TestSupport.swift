import Foundation
import ModelStorage

/// Records what a storage delivers to its delegate.
final class UpdateRecorder: StorageUpdating {
    var updates: [StorageUpdate] = []
    var reloads = 0

    func storageDidPerformUpdate(_ update: StorageUpdate) {
        updates.append(update)
    }

    func storageNeedsReloading() {
        reloads += 1
    }

    /// Everything delivered so far, then forgets it.
    func take() -> (updates: [StorageUpdate], reloads: Int) {
        defer { updates = []; reloads = 0 }
        return (updates, reloads)
    }
}

/// A storage with a recorder attached and anomalies collected instead of printed.
final class StorageFixture {
    let storage = MemoryStorage()
    let recorder = UpdateRecorder()
    var anomalies: [MemoryStorageAnomaly] = []

    init() {
        storage.delegate = recorder
        storage.anomalyHandler.anomalyAction = { [unowned self] in self.anomalies.append($0) }
    }

    /// The single update delivered since the last call (nil when none), failing the
    /// caller's expectations through the returned count otherwise.
    var delivered: [StorageUpdate] { recorder.take().updates }
}

func ip(_ section: Int, _ item: Int) -> IndexPath {
    IndexPath(item: item, section: section)
}
