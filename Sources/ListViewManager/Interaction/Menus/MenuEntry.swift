import Foundation
import ModelStorage

/// One entry of a row's context menu: a title and what choosing it does.
///
/// ```swift
/// manager.contextMenu(PostRow.self) { row, post, indexPath in
///     [MenuEntry("Open") { _ in open(post) }, .delete]
/// }
/// ```
public struct MenuEntry {
    /// What choosing an entry does.
    public enum Action {
        /// Runs the closure with the item's index path at the time of the choice (the item
        /// may have moved since the menu opened).
        case perform(@MainActor (IndexPath) -> Void)
        /// Deletes the item as the Delete key does (`canDelete`, `commitDelete`).
        case delete
    }

    /// The entry's label.
    public let title: String
    /// What choosing it does.
    public let action: Action

    /// An entry titled `title` that runs `action` with the item's current index path.
    public init(_ title: String, _ action: @escaping @MainActor (IndexPath) -> Void) {
        self.title = title
        self.action = .perform(action)
    }

    /// An entry with an explicit action.
    public init(_ title: String, action: Action) {
        self.title = title
        self.action = action
    }

    /// "Delete": deletes the item as the Delete key does (shown only when the item can be
    /// deleted).
    public static var delete: MenuEntry { MenuEntry("Delete", action: .delete) }
}
