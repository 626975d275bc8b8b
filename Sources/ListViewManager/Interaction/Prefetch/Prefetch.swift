import CGtk
import Foundation
import GtkKit
import ModelStorage

/// Prefetching: after each layout in which the view moved (or changed height), the items
/// just outside the view in the direction the user last scrolled, `prefetchCount` of them,
/// are prefetched (the storage's `prefetchItems`, then the `prefetch` events), nearest the
/// view first; those prefetched before that left the working range without being shown
/// (the user turned back) are cancelled (`cancelPrefetch`). Items prefetched follow the
/// storage's changes; a reload cancels them.
@MainActor
final class Prefetch: UpdateParticipant {
    private unowned let manager: ItemViewManager
    /// Follows the layouts of the view.
    private var layouts: AfterLayout?
    /// How far the view was scrolled and how high it was when last looked at; nil: look again.
    private var lookedAt: (value: Double, height: Double)?
    /// Whether the user last scrolled towards the end (at first, unless the list lives at
    /// its bottom).
    private lazy var forward = !manager.configuration.livesAtBottom
    /// The frame of the last change: the view's moves in the next few frames are the list
    /// keeping its place (`keepsPlace`, `livesAtBottom`), not the user's scrolling.
    private var changedAtFrame: Int?
    /// The items prefetched and not shown since, with their models when the app has
    /// prefetch reactions (for their `cancelPrefetch`, whatever the storage holds then; a
    /// paged storage's row is not asked for otherwise, which would give out a placeholder).
    private(set) var prefetched: [(indexPath: IndexPath, model: Any?)] = []

    var phases: UpdatePhases { .beforeSplices }

    init(manager: ItemViewManager) {
        self.manager = manager
        layouts = AfterLayout(of: manager.view) { [weak self] in self?.followTheView() }
    }

    func willApply(_ change: ContentChange) {
        lookedAt = nil
        changedAtFrame = frame
        guard let update = change.update else {
            // Other items: none of those prefetched is about to be shown.
            cancel(prefetched, inStorage: false)
            prefetched = []
            return
        }
        var gone: [(indexPath: IndexPath, model: Any?)] = []
        prefetched = prefetched.compactMap { entry in
            guard let indexPath = update.newIndexPath(for: entry.indexPath) else {
                gone.append(entry)
                return nil
            }
            return (indexPath, entry.model)
        }
        cancel(gone, inStorage: false)
    }

    /// Prefetches the items beyond the view in the direction of the scroll, once the view
    /// has moved or changed height since it was last looked at.
    private func followTheView() {
        // A sectioned grid about to lay its strips out for a new width: after that.
        guard !manager.isReflowing, let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view)) else { return }
        let value = gtk_adjustment_get_value(adjustment), height = gtk_adjustment_get_page_size(adjustment)
        if let lookedAt {
            if abs(lookedAt.value - value) < 0.5, abs(lookedAt.height - height) < 0.5 { return }
            if abs(lookedAt.value - value) >= 0.5, changedAtFrame.map({ (frame ?? 0) > $0 + 3 }) ?? true { forward = value > lookedAt.value }
        }
        var first = Int.max, last = -1
        var inView = Set<IndexPath>()
        manager.forEachItemRowInView { position, indexPath, _, _ in
            first = min(first, position)
            last = max(last, position)
            inView.insert(indexPath)
        }
        guard last >= 0 else { return }  // no row shown yet: looked at again after the next layout
        lookedAt = (value, height)
        // A storage change a reaction makes waits until this is done (GTK is laying out).
        manager.holdingUpdates { prefetch(beyond: forward ? last : first, inView: inView) }
    }

    /// The view's frame clock's count of frames (nil while it has none).
    private var frame: Int? {
        guard let clock = gtk_widget_get_frame_clock(manager.view) as OpaquePointer? else { return nil }
        return gdk_frame_clock_get_frame_counter(clock)
    }

    /// Cancels every item prefetched (prefetching stops).
    func stop() {
        cancel(prefetched, inStorage: true)
        prefetched = []
    }

    /// Looks at the view again after the next layout (the rows in view changed without
    /// the view moving: a sectioned grid laid out for a new width).
    func lookAgain() {
        lookedAt = nil
    }

    /// Prefetches the item rows among the `prefetchCount` rows after `edge` (before it,
    /// scrolling back; headers and footers count) not prefetched yet, and cancels those
    /// prefetched that are neither among them nor in view.
    private func prefetch(beyond edge: Int, inView: Set<IndexPath>) {
        let count = max(0, manager.configuration.prefetchCount), rows = manager.bridge.count
        let positions = forward ? Array(min(edge + 1, rows)..<min(edge + 1 + count, rows)) : Array((max(0, edge - count)..<edge).reversed())
        var wanted: [IndexPath] = []
        for position in positions {
            if case .item(let indexPath)? = manager.bridge.layout.row(at: position) { wanted.append(indexPath) }
        }
        let wantedSet = Set(wanted), kept = Set(prefetched.map(\.indexPath))
        cancel(prefetched.filter { !wantedSet.contains($0.indexPath) && !inView.contains($0.indexPath) }, inStorage: true)
        let new = wanted.filter { !kept.contains($0) }
        var stillWanted = prefetched.filter { wantedSet.contains($0.indexPath) }
        if !new.isEmpty, let storage = manager.storage as? any PrefetchingStorage { storage.prefetchItems(at: new) }
        let needsModels = manager.modelEvents[.prefetch] != nil || manager.modelEvents[.cancelPrefetch] != nil
        for indexPath in new {
            let model = needsModels ? manager.bridge.models.item(at: indexPath) : nil
            stillWanted.append((indexPath, model))
            if let model { manager.fireItemEvent(.prefetch, model: model, indexPath: indexPath, position: nil) }
        }
        prefetched = stillWanted
    }

    /// Cancels `entries` (the storage hears of them only when `inStorage`: after a change it
    /// may hold other items there).
    private func cancel(_ entries: [(indexPath: IndexPath, model: Any?)], inStorage: Bool) {
        guard !entries.isEmpty else { return }
        if inStorage, let storage = manager.storage as? any PrefetchingStorage { storage.cancelPrefetchingItems(at: entries.map(\.indexPath)) }
        for entry in entries {
            guard let model = entry.model else { continue }
            manager.fireItemEvent(.cancelPrefetch, model: model, indexPath: entry.indexPath, position: nil)
        }
    }
}
