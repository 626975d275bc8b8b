import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage
import VisibleText

extension ItemViewManager {
    /// Gives a new item row its controllers: the pointer entering and leaving it is
    /// `didHighlight` and `didUnhighlight` of the item it shows then, its tooltip is that
    /// item's, and it can be dragged.
    func rowWasCreated(_ row: RowWidget, kind: MappingKind, host: RowHost) {
        guard kind == .item else { return }
        if itemSizeRequest != nil { applyItemSize(to: row) }
        let motion = gtk_event_controller_motion_new()!
        let target = RowTarget(manager: self, row: row, host: host)
        Signal.connect(UnsafeMutableRawPointer(motion), "enter") { (_: Double, _: Double) -> Void in
            if let position = target.boundPosition { target.manager?.pointerEntered(position) }
        }
        Signal.connect(UnsafeMutableRawPointer(motion), "leave") { () in
            if let position = target.boundPosition { target.manager?.pointerLeft(position) }
        }
        gtk_widget_add_controller(row.rootWidget, motion)
        // Asked for when the pointer rests on the row (and as it moves on it): setting a
        // row's tooltip text as it is bound makes GTK ask the display server where the
        // pointer is, and wait for the answer (an X round trip), for every row bound.
        Signal.connect(UnsafeMutableRawPointer(row.rootWidget), "query-tooltip") { (_: Int32, _: Int32, _: Bool, tooltip: OpaquePointer?) -> Bool in
            guard let position = target.boundPosition, let text = target.manager?.tooltipText(at: position) else { return false }
            gtk_tooltip_set_text(tooltip, text.withVisibleControlCharacters)
            return true
        }
        installDragSource(on: row, host: host)
    }
}

extension ItemViewManager {
    /// The pointer entered a row (or a cell of a column view's row) showing `position`:
    /// `didHighlight`, unless it comes from another cell of the row just left.
    func pointerEntered(_ position: Int) {
        guard shouldHighlight(position: position) else { return }
        if pendingUnhighlight == position {
            pendingUnhighlight = nil
            return
        }
        firePendingUnhighlight()
        fireItemEvent(.didHighlight, at: position)
    }

    /// The pointer left a row (or a cell) showing `position`: `didUnhighlight` once GTK
    /// has delivered the crossing events at hand, unless the pointer entered another cell
    /// of the same row meanwhile (GTK sends the leave first).
    func pointerLeft(_ position: Int) {
        guard shouldHighlight(position: position) else { return }
        firePendingUnhighlight()
        pendingUnhighlight = position
        whenIdle { [weak self] in self?.firePendingUnhighlight() }
    }

    private func firePendingUnhighlight() {
        guard let position = pendingUnhighlight else { return }
        pendingUnhighlight = nil
        fireItemEvent(.didUnhighlight, at: position)
    }

    /// Gives an item row the size request set for every item, if any (-1 is GTK's unset).
    func applyItemSize(to row: RowWidget) {
        let size = itemSizeRequest ?? (width: -1, height: -1)
        gtk_widget_set_size_request(row.rootWidget, Int32(size.width), Int32(size.height))
    }
}

/// A row watched by a controller (pointer motion, dragging), which acts for the item the
/// row shows at the time.
@MainActor
final class RowTarget {
    private(set) weak var manager: ItemViewManager?
    private(set) weak var row: RowWidget?
    private weak var host: RowHost?

    init(manager: ItemViewManager, row: RowWidget, host: RowHost) {
        self.manager = manager
        self.row = row
        self.host = host
    }

    /// The position of the item the row shows now, if it is bound to one.
    var boundPosition: Int? {
        guard let row, let host, let entry = host.factory?.attached[host.listItem],
              entry.isBound, entry.row === row else { return nil }
        return entry.position
    }


}
