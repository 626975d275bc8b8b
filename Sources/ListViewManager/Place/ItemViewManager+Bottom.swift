import CGtk
import GtkKit

extension ItemViewManager {
    /// Whether the view shows the bottom of the list (a list shorter than the view always
    /// does).
    public var isAtBottom: Bool { scrollAnchor.isAtBottom }

    /// Takes the view to the bottom of the list (once it is shown, when it is not yet). A
    /// list that lives at its bottom (`configuration.livesAtBottom`) then stays there as
    /// items are added at the end.
    public func scrollToBottom() {
        scrollAnchor.goToBottom()
    }

    /// How many items came below the last item of a list living at its bottom
    /// (`configuration.livesAtBottom`) while the user had scrolled up from it: the count of
    /// a "3 new messages" button. It is 0 again when the view reaches the bottom.
    public var newItemsBelow: Int { scrollAnchor.newItemsBelow.count }

    /// Calls `closure` with `newItemsBelow` each time it changes: show or hide a
    /// "3 new messages" button (which calls `scrollToBottom()`).
    public func didChangeNewItemsBelow(_ closure: @escaping @MainActor (Int) -> Void) {
        scrollAnchor.newItemsBelow.handlers.append(closure)
    }
}
