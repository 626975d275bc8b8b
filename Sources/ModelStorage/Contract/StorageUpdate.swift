import Foundation

/// Everything that changed in a storage during one operation or one `performUpdates` batch,
/// in the order it happened.
///
/// `changes` is the exact ordered log (see `StorageChange`), to replay one change after
/// another; `objectChanges` and `sectionChanges` give what it did in DTModelStorage's shape
/// (UIKit's batch rule), one index path or section index per change. `updatedObjects` holds the new models of the items
/// updated in place.
///
/// Two updates are equal when their changes are: `updatedObjects` holds models of any
/// type, which cannot be compared (DTModelStorage's `==` leaves it out too).
public struct StorageUpdate: Hashable, Sendable, CustomStringConvertible {
    /// The changes, in the order they were made.
    public private(set) var changes: [StorageChange]

    /// The model of each item updated in place (by `replaceItem`, `reloadItem`, or a
    /// snapshot whose item changed content), keyed by the index path of its `.updateItem`
    /// change, as in DTModelStorage. When an update changes the same index path twice, the
    /// later model is kept. An `.updateItem` appended without a model (`append(_:)`) has
    /// none here.
    // The app's models, not checked for Sendable: read them on the storage's thread.
    public nonisolated(unsafe) private(set) var updatedObjects: [IndexPath: Any] = [:]

    /// Creates an update holding `changes`, e.g. to compare with a delivered one in tests.
    public init(_ changes: [StorageChange] = []) {
        self.changes = changes
    }

    /// True when nothing changed.
    public var isEmpty: Bool { changes.isEmpty }

    /// Item changes in DTModelStorage's shape, UIKit's batch rule: each deletion and reload
    /// (`.update`) at its index path before the update, each insertion at its index path
    /// after it, each move (`[from, to]`) from before to after; deletions first, then
    /// insertions, moves and reloads, each kind in ascending order. The items of a section
    /// inserted are listed as insertions, as DTModelStorage lists them; those of a section
    /// deleted are not (they go with it).
    ///
    /// Removing items 1, 3 and 4 of `[1, 2, 3, 4, 5]` lists deletions at 0, 2 and 3, as
    /// DTModelStorage does: replay these as one batch (a custom updater ported from it).
    /// `changes` is the log to replay one change after another.
    public var objectChanges: [(ChangeType, [IndexPath])] { BatchReplay(changes).objectChanges }

    /// Section changes in DTModelStorage's shape, UIKit's batch rule: deletions and reloads
    /// (`.update`: a header or footer changed) at their indexes before the update, insertions
    /// at theirs after it, moves (`[from, to]`) from before to after; each kind in
    /// ascending order.
    public var sectionChanges: [(ChangeType, [Int])] { BatchReplay(changes).sectionChanges }

    public var description: String {
        changes.isEmpty ? "StorageUpdate(empty)" : "StorageUpdate(" + changes.map(\.description).joined(separator: "; ") + ")"
    }

    // MARK: Recording

    /// Appends `change`, merging it into the previous change when both are inserts (or both
    /// deletes) of adjacent items in the same section.
    public mutating func append(_ change: StorageChange) {
        if let last = changes.last, let merged = Self.merge(last, change) {
            changes[changes.count - 1] = merged
        } else {
            changes.append(change)
        }
    }

    /// Appends `.updateItem(indexPath)`, and keeps `model`, the item's new model, in
    /// `updatedObjects`.
    public mutating func appendItemUpdate(at indexPath: IndexPath, model: Any) {
        append(.updateItem(indexPath))
        updatedObjects[indexPath] = model
    }

    /// Appends every change of `other`, in order, and its `updatedObjects` (where both
    /// have a model for an index path, `other`'s, the later one, is kept).
    public mutating func append(contentsOf other: StorageUpdate) {
        for change in other.changes { append(change) }
        updatedObjects.merge(other.updatedObjects) { _, later in later }
    }

    /// Whether both hold the same changes; `updatedObjects` is left out.
    public static func == (lhs: StorageUpdate, rhs: StorageUpdate) -> Bool {
        lhs.changes == rhs.changes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(changes)
    }

    /// The single change equivalent to `first` followed by `second`, if there is one.
    private static func merge(_ first: StorageChange, _ second: StorageChange) -> StorageChange? {
        switch (first, second) {
        case let (.insertItems(s1, a), .insertItems(s2, b)) where s1 == s2 && b.lowerBound >= a.lowerBound && b.lowerBound <= a.upperBound:
            // New items landing inside or right after a run of new items extend the run.
            return .insertItems(section: s1, items: a.lowerBound..<(a.upperBound + b.count))
        case let (.deleteItems(s1, a), .deleteItems(s2, b)) where s1 == s2 && b.upperBound == a.lowerBound:
            // Deleting the items just before a deleted run (DTModelStorage's descending order).
            return .deleteItems(section: s1, items: b.lowerBound..<a.upperBound)
        case let (.deleteItems(s1, a), .deleteItems(s2, b)) where s1 == s2 && b.lowerBound == a.lowerBound:
            // Deleting the items that slid into a deleted run's place.
            return .deleteItems(section: s1, items: a.lowerBound..<(a.upperBound + b.count))
        default:
            return nil
        }
    }
}
