import Foundation

/// A storage that shows its first items before it knows where every item is (a paged
/// storage reading its keys): an item looked for by identity may be found only once
/// `isLoaded`. A manager restoring a place (`restore(_:)`) waits for it.
public protocol ProgressivelyLoadingStorage: Storage {
    /// Whether the storage knows where every item is.
    var isLoaded: Bool { get }
}
