import Foundation
import ModelStorage

extension ItemViewManager {
    /// Items of `modelType` are about to be shown: they are just outside the view, within
    /// `configuration.prefetchCount` items of it, in the direction the user scrolls
    /// (DTTableViewManager's `prefetch`, UIKit's `prefetchRowsAt`). Start the slow part of
    /// showing them here (a thumbnail, a download), so that their rows have it when they are
    /// bound. Each item is prefetched once until it is shown or cancelled; an item of a
    /// paged storage may be a placeholder still (its page is being read ahead).
    public func prefetch<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.prefetch, closure)
        updatePrefetching()
    }

    /// An item of `modelType` prefetched is no longer about to be shown: the user turned
    /// back before reaching it, or it was deleted, or the storage reloaded
    /// (DTTableViewManager's `cancelPrefetch`). Stop what its `prefetch` started, if it is
    /// still waiting.
    public func cancelPrefetch<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.cancelPrefetch, closure)
        updatePrefetching()
    }

    /// The items prefetched and not shown or cancelled since.
    public var prefetchedIndexPaths: [IndexPath] { prefetcher?.prefetched.map(\.indexPath) ?? [] }

    /// Prefetches while there is something to prefetch for (the app's `prefetch` reactions,
    /// a `PrefetchingStorage`) and a working range; stops otherwise.
    func updatePrefetching() {
        let wanted = configuration.prefetchCount > 0 && (modelEvents[.prefetch] != nil || storage is any PrefetchingStorage)
        if wanted, prefetcher == nil {
            prefetcher = Prefetch(manager: self)
        } else if !wanted, let prefetcher {
            prefetcher.stop()
            self.prefetcher = nil
        }
    }
}
