import Foundation

/// The kind of a change, as DTModelStorage names it.
public enum ChangeType: Hashable, Sendable, CustomStringConvertible {
    /// Something was inserted.
    case insert
    /// Something was deleted.
    case delete
    /// Something moved: the change carries `[from, to]`.
    case move
    /// Something's content changed in place.
    case update

    public var description: String {
        switch self {
        case .insert: return "insert"
        case .delete: return "delete"
        case .move: return "move"
        case .update: return "update"
        }
    }
}

/// One change made to a storage.
///
/// Changes form an ordered log: each one's indexes refer to the storage as it was right
/// after the changes before it, so any sequence can be replayed exactly. Runs of
/// adjacent item inserts or deletes are kept as one change with a range.
public enum StorageChange: Hashable, Sendable, CustomStringConvertible {
    /// An empty section, without header or footer models, was inserted at this index.
    case insertSection(Int)
    /// The section at this index was deleted with everything in it.
    case deleteSection(Int)
    /// The section at `from` was moved so that it is now at `to`.
    case moveSection(from: Int, to: Int)
    /// Items were inserted into `section`; they are now at `items`.
    case insertItems(section: Int, items: Range<Int>)
    /// The items at `items` in `section` were deleted.
    case deleteItems(section: Int, items: Range<Int>)
    /// The item at `from` was moved so that it is now at `to`.
    case moveItem(from: IndexPath, to: IndexPath)
    /// The item at this index path was replaced or reloaded in place.
    case updateItem(IndexPath)
    /// A header or footer model of `section` was inserted, deleted or replaced (`.update`).
    case supplementary(SupplementaryKind, ChangeType, section: Int)

    public var description: String {
        switch self {
        case .insertSection(let index): return "insert section \(index)"
        case .deleteSection(let index): return "delete section \(index)"
        case .moveSection(let from, let to): return "move section \(from) to \(to)"
        case .insertItems(let section, let items): return "insert items \(describe(items)) in section \(section)"
        case .deleteItems(let section, let items): return "delete items \(describe(items)) in section \(section)"
        case .moveItem(let from, let to): return "move item \(describe(from)) to \(describe(to))"
        case .updateItem(let indexPath): return "update item \(describe(indexPath))"
        case .supplementary(let kind, let type, let section): return "\(type) \(kind) of section \(section)"
        }
    }
}

/// "3" for a single index, "3..<7" for more.
func describe(_ range: Range<Int>) -> String {
    range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound)..<\(range.upperBound)"
}

/// "[section, item]", shorter than IndexPath's own description.
func describe(_ indexPath: IndexPath) -> String {
    indexPath.shortDescription
}
