import Foundation

/// What can go wrong when using a `MemoryStorage` without being worth a crash.
///
/// Every anomaly is reported through the storage's `anomalyHandler`; the operation that
/// caused it changes nothing and delivers no update.
public enum MemoryStorageAnomaly: Anomaly {
    /// Inserting at `indexPath` failed: the section has only `countOfElementsInSection` items.
    case insertionIndexPathTooBig(indexPath: IndexPath, countOfElementsInSection: Int)
    /// A batch insertion was given `itemsCount` items but `indexPathsCount` index paths.
    case batchInsertionItemCountMismatch(itemsCount: Int, indexPathsCount: Int)
    /// The item to replace is not in the storage.
    case replaceItemFailedItemNotFound(itemDescription: String)
    /// The item to remove is not in the storage.
    case removeItemFailedItemNotFound(itemDescription: String)
    /// There is no item at the index path to move from.
    case moveItemFailedItemNotFound(indexPath: IndexPath)
    /// The destination is past the end of its section (counted after taking the item out).
    case moveItemFailedIndexPathTooBig(indexPath: IndexPath, countOfElementsInSection: Int)
    /// The source or destination of a move does not exist.
    case moveItemFailedInvalidIndexPaths(sourceIndexPath: IndexPath, destinationIndexPath: IndexPath, sourceElementsInSection: Int, destinationElementsInSection: Int)
    /// The item to reload is not in the storage.
    case reloadItemFailedItemNotFound(itemDescription: String)
    /// There is no item at an index path given for removal.
    case removeItemFailedIndexPathNotFound(indexPath: IndexPath, countOfElementsInSection: Int)
    /// A section index is not between 0 and `numberOfSections` (exclusive, or inclusive
    /// for an insertion), or, where missing sections are created, is negative or at least
    /// `MemoryStorage.maximumNewSections` past the last section.
    case sectionIndexOutOfRange(section: Int, numberOfSections: Int)
    /// A nil model was given where a model is needed; nothing was stored.
    case nilItem(operation: String)

    /// The anomaly's case, without its values: pass it to `AnomalyHandler.silence(_:)`.
    public enum Kind: Hashable, Sendable {
        /// ``MemoryStorageAnomaly/insertionIndexPathTooBig(indexPath:countOfElementsInSection:)``.
        case insertionIndexPathTooBig
        /// ``MemoryStorageAnomaly/batchInsertionItemCountMismatch(itemsCount:indexPathsCount:)``.
        case batchInsertionItemCountMismatch
        /// ``MemoryStorageAnomaly/replaceItemFailedItemNotFound(itemDescription:)``.
        case replaceItemFailedItemNotFound
        /// ``MemoryStorageAnomaly/removeItemFailedItemNotFound(itemDescription:)``.
        case removeItemFailedItemNotFound
        /// ``MemoryStorageAnomaly/moveItemFailedItemNotFound(indexPath:)``.
        case moveItemFailedItemNotFound
        /// ``MemoryStorageAnomaly/moveItemFailedIndexPathTooBig(indexPath:countOfElementsInSection:)``.
        case moveItemFailedIndexPathTooBig
        /// ``MemoryStorageAnomaly/moveItemFailedInvalidIndexPaths(sourceIndexPath:destinationIndexPath:sourceElementsInSection:destinationElementsInSection:)``.
        case moveItemFailedInvalidIndexPaths
        /// ``MemoryStorageAnomaly/reloadItemFailedItemNotFound(itemDescription:)``.
        case reloadItemFailedItemNotFound
        /// ``MemoryStorageAnomaly/removeItemFailedIndexPathNotFound(indexPath:countOfElementsInSection:)``.
        case removeItemFailedIndexPathNotFound
        /// ``MemoryStorageAnomaly/sectionIndexOutOfRange(section:numberOfSections:)``.
        case sectionIndexOutOfRange
        /// ``MemoryStorageAnomaly/nilItem(operation:)``.
        case nilItem
    }

    public var kind: Kind {
        switch self {
        case .insertionIndexPathTooBig: return .insertionIndexPathTooBig
        case .batchInsertionItemCountMismatch: return .batchInsertionItemCountMismatch
        case .replaceItemFailedItemNotFound: return .replaceItemFailedItemNotFound
        case .removeItemFailedItemNotFound: return .removeItemFailedItemNotFound
        case .moveItemFailedItemNotFound: return .moveItemFailedItemNotFound
        case .moveItemFailedIndexPathTooBig: return .moveItemFailedIndexPathTooBig
        case .moveItemFailedInvalidIndexPaths: return .moveItemFailedInvalidIndexPaths
        case .reloadItemFailedItemNotFound: return .reloadItemFailedItemNotFound
        case .removeItemFailedIndexPathNotFound: return .removeItemFailedIndexPathNotFound
        case .sectionIndexOutOfRange: return .sectionIndexOutOfRange
        case .nilItem: return .nilItem
        }
    }

    private static let defaultActionHolder = DefaultAnomalyAction<MemoryStorageAnomaly>()

    /// What every `MemoryStorage` does with an anomaly unless its handler has its own
    /// action. Writes `debugDescription` to standard error until replaced.
    public static var defaultAction: @Sendable (MemoryStorageAnomaly) -> Void {
        get { defaultActionHolder.current }
        set { defaultActionHolder.current = newValue }
    }

    /// Whether the app replaced `defaultAction`. The storage a manager makes for itself
    /// reports to GLib's log until then, and to `defaultAction` from then on.
    public static var hasCustomDefaultAction: Bool { defaultActionHolder.isReplaced }

    /// Puts the initial `defaultAction` back (writing to standard error).
    public static func restoreDefaultAction() {
        defaultActionHolder.restore()
    }

    /// A full sentence, prefixed with "⚠️ [MemoryStorage]".
    public var debugDescription: String {
        let message: String
        switch self {
        case let .insertionIndexPathTooBig(indexPath, count):
            message = "Failed to insert item into IndexPath: \(describe(indexPath)), count of elements in the section: \(count)"
        case let .batchInsertionItemCountMismatch(itemsCount, indexPathsCount):
            message = "Failed to insert batch of items, items count: \(itemsCount), indexPaths count: \(indexPathsCount)"
        case let .replaceItemFailedItemNotFound(item):
            message = "Failed to find item for replacement: \(item)"
        case let .removeItemFailedItemNotFound(item):
            message = "Failed to find item for removal: \(item)"
        case let .moveItemFailedItemNotFound(indexPath):
            message = "Failed to find item for moving at indexPath: \(describe(indexPath))"
        case let .moveItemFailedIndexPathTooBig(indexPath, count):
            message = "Failed to move item, destination indexPath is too big: \(describe(indexPath)), number of items in section after removing source item: \(count)"
        case let .moveItemFailedInvalidIndexPaths(source, destination, sourceCount, destinationCount):
            message = "Failed to move item, sourceIndexPath: \(describe(source)), destination indexPath: \(describe(destination)), number of items in source section: \(sourceCount), number of items in destination section after removing source item: \(destinationCount)"
        case let .reloadItemFailedItemNotFound(item):
            message = "Failed to find item for reloading: \(item)"
        case let .removeItemFailedIndexPathNotFound(indexPath, count):
            message = "Failed to remove item at indexPath: \(describe(indexPath)), count of elements in the section: \(count)"
        case let .sectionIndexOutOfRange(section, count):
            message = "Section index \(section) is out of range, number of sections: \(count)"
        case let .nilItem(operation):
            message = "\(operation) was given nil instead of a model; nothing was stored"
        }
        return "⚠️ [MemoryStorage] " + message
    }

    /// A short form, e.g. "MemoryStorageAnomaly.removeItemFailedItemNotFound(Post 3)".
    public var description: String {
        let values: String
        switch self {
        case let .insertionIndexPathTooBig(indexPath, count): values = "\(describe(indexPath)), \(count)"
        case let .batchInsertionItemCountMismatch(itemsCount, indexPathsCount): values = "\(itemsCount), \(indexPathsCount)"
        case let .replaceItemFailedItemNotFound(item), let .removeItemFailedItemNotFound(item),
             let .reloadItemFailedItemNotFound(item): values = item
        case let .moveItemFailedItemNotFound(indexPath): values = describe(indexPath)
        case let .moveItemFailedIndexPathTooBig(indexPath, count): values = "\(describe(indexPath)), \(count)"
        case let .moveItemFailedInvalidIndexPaths(source, destination, sourceCount, destinationCount):
            values = "\(describe(source)), \(describe(destination)), \(sourceCount), \(destinationCount)"
        case let .removeItemFailedIndexPathNotFound(indexPath, count): values = "\(describe(indexPath)), \(count)"
        case let .sectionIndexOutOfRange(section, count): values = "\(section), \(count)"
        case let .nilItem(operation): values = operation
        }
        return "MemoryStorageAnomaly.\(kind)(\(values))"
    }
}

/// The handler type of `MemoryStorage.anomalyHandler`, named as in DTModelStorage.
public typealias MemoryStorageAnomalyHandler = AnomalyHandler<MemoryStorageAnomaly>
