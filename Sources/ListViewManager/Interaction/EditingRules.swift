import Foundation

/// The app's say over what the user changes in the list, by model type: which items can be
/// deleted and moved, where a move goes instead, and what happens when an item is moved or
/// something is dropped on the list (from outside it, or from another managed list).
///
/// A filter answers nil for models not of its type. An item can be deleted, moved or taken
/// from another list only when a filter of its type says so and none says no.
struct EditingRules {
    /// `canDelete`.
    var canDelete: [(Any, IndexPath) -> Bool?] = []
    /// `canMove`.
    var canMove: [(Any, IndexPath) -> Bool?] = []
    /// `moveItem`: the moved item's bound row (if any), its model, from, to.
    var moveReactions: [(RowWidget?, Any, IndexPath, IndexPath) -> Void] = []
    /// `targetIndexPathForMove`: the place a move goes instead (`.some(nil)` refuses).
    var moveRedirects: [(Any, IndexPath, IndexPath) -> IndexPath??] = []
    /// `didDropFromOutside`, with the insertion point.
    var outsideDropReactions: [(DroppedContent, IndexPath) -> Void] = []
    /// `canDropFromOtherList`.
    var otherListDropFilters: [(Any, ItemViewManager, IndexPath) -> Bool?] = []
    /// `didDropFromOtherList`.
    var otherListDropReactions: [(Any, ItemViewManager, IndexPath, DropOperation) -> Void] = []

    /// Whether the user can delete `model`, at `indexPath`.
    func allowsDeleting(_ model: Any, at indexPath: IndexPath) -> Bool {
        Self.allow(canDelete.compactMap { $0(model, indexPath) })
    }

    /// Whether the user can drag `model`, at `indexPath`, to another place.
    func allowsMoving(_ model: Any, at indexPath: IndexPath) -> Bool {
        Self.allow(canMove.compactMap { $0(model, indexPath) })
    }

    /// Whether the list takes `model`, dragged from the list of `source`, at `destination`.
    func allowsDrop(of model: Any, from source: ItemViewManager, at destination: IndexPath) -> Bool {
        Self.allow(otherListDropFilters.compactMap { $0(model, source, destination) })
    }

    /// Where a drag moves `model`, now at `source`, when dropped at `proposed`: the answer
    /// of the last redirect of its type, else `proposed`; nil when refused.
    func target(forMoving model: Any, from source: IndexPath, proposed: IndexPath) -> IndexPath? {
        for redirect in moveRedirects.reversed() {
            if let answer = redirect(model, source, proposed) { return answer }
        }
        return proposed
    }

    /// At least one filter spoke, and none said no.
    private static func allow(_ verdicts: [Bool]) -> Bool {
        !verdicts.isEmpty && !verdicts.contains(false)
    }
}
