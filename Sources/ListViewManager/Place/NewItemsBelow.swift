import Foundation
import ModelStorage

/// Counts the items that came below the last item of a list living at its bottom
/// (`Configuration.livesAtBottom`) while the user had scrolled up from it: what a chat's
/// "3 new messages" button shows. Back at the bottom, the count is 0 again.
@MainActor
final class NewItemsBelow {
    /// The items that came below since the user scrolled up.
    private(set) var count = 0
    /// Called with `count` each time it changes.
    var handlers: [@MainActor (Int) -> Void] = []
    /// The last item before the change being applied (its identity too, before a reload).
    private var lastItem: (indexPath: IndexPath, identity: String?)?

    /// Notes the last item `layout` (the rows before a change) shows, and, when the change
    /// is a reload, the identity of the model at its index path in `models` (the storage
    /// replaced; a storage reloading itself has its new models there already).
    func noteLastItem(of layout: FlatLayout, models: any SectionedModels, before change: ContentChange) {
        lastItem = Self.lastIndexPath(in: layout).map { indexPath in
            (indexPath, change.isReload ? models.item(at: indexPath).flatMap(itemIdentity(of:)) : nil)
        }
    }

    /// Whether a last item was noted before the change being applied.
    var isCounting: Bool { lastItem != nil }

    /// Adds the items after the noted last item once `change` is applied (after where it is
    /// now; a reload finds it by identity, and nothing is counted when it went).
    func count(after change: ContentChange, in storage: any Storage) {
        guard let noted = lastItem else { return }
        lastItem = nil
        let last: IndexPath? = switch change.kind {
        case .update(let update): update.newIndexPath(for: noted.indexPath)
        case .reload: noted.identity.flatMap { storage.indexPath(ofItemIdentifiedBy: $0, near: noted.indexPath) }
        }
        guard let last else { return }
        let models = change.models
        var below = models.numberOfItems(inSection: last.section) - last.item - 1
        for section in (last.section + 1)..<max(last.section + 1, models.numberOfSections()) {
            below += models.numberOfItems(inSection: section)
        }
        guard below > 0 else { return }
        count += below
        for handler in handlers { handler(count) }
    }

    /// Back to 0 (the view is at the bottom).
    func reset() {
        guard count > 0 else { return }
        count = 0
        for handler in handlers { handler(count) }
    }

    /// The index path of the last item row of `layout`, if it has any (found from the end,
    /// past the footers and the headers of empty sections).
    private static func lastIndexPath(in layout: FlatLayout) -> IndexPath? {
        var position = layout.count - 1
        while position >= 0 {
            if case .item(let indexPath)? = layout.row(at: position) { return indexPath }
            position -= 1
        }
        return nil
    }
}
