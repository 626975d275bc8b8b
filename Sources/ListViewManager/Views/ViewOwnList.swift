import CGtk
import GtkKit

/// What a view adds whose GTK rows are not the manager's rows (a sectioned grid: GTK shows
/// strips, and the manager's rows are the tiles in them). The view registers it as the
/// manager's `viewOwnList`: its list follows each change after the list GTK reads, and it
/// answers where a row is shown. A manager without one shows each row as a GTK row.
@MainActor
protocol ViewOwnList: UpdateParticipant {
    /// The position in the view's own list of what shows the row at `position` of the
    /// manager's list (a strip), or nil when nothing does.
    func viewPosition(ofRow position: Int) -> Int?
    /// The slot holding `widget` (a tile slot), if any.
    func slot(containing widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>?
    /// The selection of the rows at `positions` changed: the view shows it itself (GTK does
    /// not select its slots).
    func selectionDidChange(at positions: Range<Int>)
}

extension ItemViewManager {
    /// The position in the view's list of what shows the row at `position` of the manager's
    /// list: the position itself, unless the view has a list of its own (a sectioned grid's
    /// strips).
    func viewPosition(ofRow position: Int) -> Int? {
        guard let viewOwnList else { return position }
        return viewOwnList.viewPosition(ofRow: position)
    }

    /// The slot holding `widget`, where the view has a list of its own (a sectioned grid's
    /// tile slot); nil otherwise.
    func tileSlot(containing widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        viewOwnList?.slot(containing: widget)
    }
}
