import Foundation

/// A storage that can get items ready before they are shown (what UIKit's
/// `UITableViewDataSourcePrefetching` is to a data source): a manager tells it which items
/// are just outside the view in the direction the user scrolls, within its working range
/// (`prefetchCount`), and which of those are no longer wanted. A paged storage reads their
/// pages ahead.
public protocol PrefetchingStorage: Storage {
    /// The items at `indexPaths` will probably be shown soon (nearest the view first).
    func prefetchItems(at indexPaths: [IndexPath])
    /// The items at `indexPaths`, prefetched, are no longer about to be shown (the user
    /// turned back, or they left the working range).
    func cancelPrefetchingItems(at indexPaths: [IndexPath])
}

extension PrefetchingStorage {
    /// Nothing: what was started is finished.
    public func cancelPrefetchingItems(at indexPaths: [IndexPath]) {}
}
