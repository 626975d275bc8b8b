import ModelStorage

/// State that must stay in step with the rows while the updater applies storage updates:
/// the selection, the target of an open context menu, the item being dragged, and the check
/// for header and footer models a view does not show.
///
/// For each update the updater tells its followers, in order, before the list view hears of
/// it: first `follow(_:models:)` (index paths move with the update; rows are still bound
/// where they were), then `willEmit(_:)` once for each splice, just before GTK sees it (state
/// kept by position moves first). A reload tells them `dropForReload(models:)` instead,
/// then `willEmit(_:)` for its one splice.
@MainActor
protocol UpdateFollower: AnyObject {
    /// Carries state keyed by index path through `update`; `models` are the storage's
    /// sections after it.
    func follow(_ update: StorageUpdate, models: any SectionedModels)
    /// Every row is about to be reloaded from `models`: state kept for rows is dropped.
    func dropForReload(models: any SectionedModels)
    /// `splice` is about to be emitted as `items-changed` (asked only of followers that
    /// say they follow splices).
    func willEmit(_ splice: Splice)
    /// Whether `willEmit(_:)` does anything: only those that do are asked, splice by splice.
    var followsSplices: Bool { get }
}

extension UpdateFollower {
    func willEmit(_ splice: Splice) {}
    var followsSplices: Bool { false }
}

extension ItemViewManager {
    /// Lists the followers of this manager's updates again (the selection state was
    /// replaced). None of them holds the manager strongly.
    func listUpdateFollowers() {
        updateFollowers = [selection, contextMenus, drag, hiddenRowsCheck]
        spliceFollowers = updateFollowers.filter(\.followsSplices)
    }
}
