import Foundation
import ModelStorage

/// An item identified by a UUID, as in DifferenceKit's published benchmark (its content
/// is its identity).
struct UUIDItem: Identifiable, Equatable {
    let id: UUID
}

/// SplitMix64, so that every run shuffles the same way.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Two arrays of UUIDs in the shape of DifferenceKit's benchmark: `count` elements; a
/// tenth (a fifth at 5,000) deleted in one run, as many new ones inserted in one run right
/// after it, and the first 2% (4% at 5,000) shuffled.
struct DiffData {
    let source: [UUID]
    let target: [UUID]
    let deleted: Range<Int>
    let inserted: Range<Int>
    let shuffled: Range<Int>

    init(count: Int) {
        var random = SplitMix(state: UInt64(count))
        func uuid() -> UUID {
            let (a, b) = (random.next(), random.next())
            return UUID(uuid: (UInt8(truncatingIfNeeded: a), UInt8(truncatingIfNeeded: a >> 8), UInt8(truncatingIfNeeded: a >> 16),
                               UInt8(truncatingIfNeeded: a >> 24), UInt8(truncatingIfNeeded: a >> 32), UInt8(truncatingIfNeeded: a >> 40),
                               UInt8(truncatingIfNeeded: a >> 48), UInt8(truncatingIfNeeded: a >> 56), UInt8(truncatingIfNeeded: b),
                               UInt8(truncatingIfNeeded: b >> 8), UInt8(truncatingIfNeeded: b >> 16), UInt8(truncatingIfNeeded: b >> 24),
                               UInt8(truncatingIfNeeded: b >> 32), UInt8(truncatingIfNeeded: b >> 40), UInt8(truncatingIfNeeded: b >> 48),
                               UInt8(truncatingIfNeeded: b >> 56)))
        }
        let changed = count == 5_000 ? 1_000 : count / 10
        let shuffledCount = count == 5_000 ? 200 : count / 50
        deleted = (2 * changed)..<(3 * changed)
        inserted = (3 * changed)..<(4 * changed)
        shuffled = 0..<shuffledCount
        source = (0..<count).map { _ in uuid() }
        var target = source
        target.removeSubrange(deleted)
        target.insert(contentsOf: inserted.map { _ in uuid() }, at: inserted.lowerBound)
        target[shuffled].shuffle(using: &random)
        self.target = target
    }

    func snapshot(_ ids: [UUID]) -> ListSnapshot<Int, UUIDItem> {
        ListSnapshot(items: ids.map(UUIDItem.init), section: 0)
    }
}

/// The diff scenarios: our sectioned diff and `CollectionDifference` on the same arrays,
/// and a storage applying a snapshot.
enum DiffScenarios {
    static func run(only prefix: String) -> [Measurement] {
        var results: [Measurement] = []
        if "diff_uuid".hasPrefix(prefix) || prefix.hasPrefix("diff_uuid") {
            for count in [5_000, 100_000] {
                let data = DiffData(count: count)
                results.append(ours(data, repetitions: count == 5_000 ? 51 : 15))
                results.append(collectionDifference(data, repetitions: count == 5_000 ? 3 : 1))
            }
        }
        if "diff_apply_snapshot".hasPrefix(prefix) || prefix.hasPrefix("diff_apply") {
            results.append(apply(DiffData(count: 100_000), repetitions: 9))
        }
        if "diff_apply_snapshot_shuffle_all".hasPrefix(prefix) || prefix.hasPrefix("diff_apply") {
            results.append(applyShufflingAll(count: 100_000, repetitions: 3))
        }
        return results
    }

    /// `ListSnapshot.difference(from:)` on one section; the median of `repetitions` runs.
    private static func ours(_ data: DiffData, repetitions: Int) -> Measurement {
        let old = data.snapshot(data.source)
        let new = data.snapshot(data.target)
        var difference = SnapshotDifference()
        var times: [Double] = []
        for _ in 0..<repetitions {
            times.append(milliseconds { difference = new.difference(from: old) })
        }
        return Measurement(scenario: "diff_uuid", n: data.source.count, wallMilliseconds: median(times), extra: [
            ("min_ms", times.min() ?? 0), ("repetitions", Double(repetitions)),
            ("deleted", Double(difference.deletedItems.count)), ("inserted", Double(difference.insertedItems.count)),
            ("moved", Double(difference.movedItems.count)),
        ])
    }

    /// `target.difference(from: source).inferringMoves()` on the UUID arrays.
    private static func collectionDifference(_ data: DiffData, repetitions: Int) -> Measurement {
        var moves = 0
        var changes = 0
        var times: [Double] = []
        for _ in 0..<repetitions {
            times.append(milliseconds {
                let difference = data.target.difference(from: data.source).inferringMoves()
                changes = difference.count
                moves = difference.reduce(0) { count, change in
                    if case .insert(_, _, let associated?) = change, associated >= 0 { return count + 1 }
                    return count
                }
            })
        }
        return Measurement(scenario: "diff_uuid", impl: "collectiondifference", n: data.source.count, wallMilliseconds: median(times), extra: [
            ("repetitions", Double(repetitions)), ("changes", Double(changes)), ("moved", Double(moves)),
        ])
    }

    /// `MemoryStorage.apply(_:)` from the source snapshot to the target one, end to end
    /// (diff and recording the update); the median of `repetitions` runs, each on a storage
    /// holding the source again. Then, once, the time a `FlatLayout` takes to translate the
    /// update delivered (what the GTK side does next) and the splices it makes.
    private static func apply(_ data: DiffData, repetitions: Int) -> Measurement {
        let (times, changes, layout, splices) = timeApply(from: data.snapshot(data.source), to: data.snapshot(data.target), repetitions: repetitions)
        return Measurement(scenario: "diff_apply_snapshot", n: data.source.count, wallMilliseconds: median(times), extra: [
            ("min_ms", times.min() ?? 0), ("repetitions", Double(repetitions)), ("logged_changes", Double(changes)),
            ("layout_ms", layout), ("splices", Double(splices)),
        ])
    }

    /// The same from `count` items to the same items all shuffled: the most moves.
    private static func applyShufflingAll(count: Int, repetitions: Int) -> Measurement {
        let data = DiffData(count: count)
        var random = SplitMix(state: 7)
        let target = data.source.shuffled(using: &random)
        let (times, changes, layout, splices) = timeApply(from: data.snapshot(data.source), to: data.snapshot(target), repetitions: repetitions)
        return Measurement(scenario: "diff_apply_snapshot_shuffle_all", n: count, wallMilliseconds: median(times), extra: [
            ("min_ms", times.min() ?? 0), ("repetitions", Double(repetitions)), ("logged_changes", Double(changes)),
            ("layout_ms", layout), ("splices", Double(splices)),
        ])
    }

    private static func timeApply(from old: ListSnapshot<Int, UUIDItem>, to new: ListSnapshot<Int, UUIDItem>, repetitions: Int)
        -> (times: [Double], changes: Int, layoutMilliseconds: Double, splices: Int) {
        let storage = MemoryStorage()
        let counter = UpdateCounter()
        var times: [Double] = []
        for _ in 0..<repetitions {
            storage.delegate = nil
            storage.apply(old)
            storage.delegate = counter
            counter.changes = 0
            times.append(milliseconds { storage.apply(new) })
        }
        storage.delegate = nil
        storage.apply(old)
        let follower = TimedLayoutFollower(storage: storage)
        storage.delegate = follower
        storage.apply(new)
        return (times, counter.changes, follower.translationMilliseconds, follower.splices)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// Counts the changes a storage delivers.
private final class UpdateCounter: StorageUpdating {
    var changes = 0

    func storageDidPerformUpdate(_ update: StorageUpdate) {
        changes += update.changes.count
    }

    func storageNeedsReloading() {}
}
