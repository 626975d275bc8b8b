import Foundation

/// Why a throwing `MemoryStorage` operation changed nothing.
public enum MemoryStorageError: Error, Equatable, CustomStringConvertible {
    /// The index path to insert at is past the end of its section, or its section is
    /// past the end of the storage.
    case insertionIndexPathTooBig(IndexPath, countOfElementsInSection: Int)
    /// A batch insertion was given different numbers of items and index paths.
    case batchInsertionItemCountMismatch(itemsCount: Int, indexPathsCount: Int)
    /// The item searched for (to replace or remove) is not in the storage.
    case itemNotFound(itemDescription: String)
    /// A nil model was given where a model is needed.
    case nilItem

    public var description: String {
        switch self {
        case let .insertionIndexPathTooBig(indexPath, count):
            return "Cannot insert at \(describe(indexPath)): the section has \(count) items"
        case let .batchInsertionItemCountMismatch(itemsCount, indexPathsCount):
            return "Cannot insert \(itemsCount) items at \(indexPathsCount) index paths"
        case let .itemNotFound(item):
            return "Failed to find \(item) in MemoryStorage"
        case .nilItem:
            return "A nil model cannot be stored"
        }
    }
}
