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

/// A 48-byte model, as an app's row model often is: larger than `Any`'s inline buffer, so
/// Swift boxes it on the heap when it is stored as an `Any`. Equal by identity, as an app's
/// model with an id is.
struct Article: Hashable, CustomStringConvertible {
    let id: Int
    var title = ""
    var author = ""
    var published = 0.0

    init(_ id: Int, title: String = "") {
        self.id = id
        self.title = title
    }

    static func == (lhs: Article, rhs: Article) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    var description: String { "article \(id)" }
}

/// `count` articles numbered from `start`.
func articles(_ start: Int, count: Int) -> [Article] {
    (start..<(start + count)).map { Article($0) }
}
