import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// What a drop on the list does: the list's own item moves, another managed list's item
/// comes over, files and text go to `didDropFromOutside`.
enum PlannedDrop {
    /// Moves the list's dragged item from its index path to another (once moved).
    case move(from: IndexPath, to: IndexPath)
    /// Takes the item at `item` of another managed list, to be at `to` here.
    case fromOtherList(ItemViewManager, item: IndexPath, to: IndexPath, DropOperation)
    /// Hands what was dropped from outside to `didDropFromOutside`, with where it points.
    case fromOutside(at: IndexPath)

    /// The action GTK shows for it.
    var action: GdkDragAction {
        switch self {
        case .move, .fromOtherList(_, _, _, .move): return GDK_ACTION_MOVE
        case .fromOtherList(_, _, _, .copy), .fromOutside: return GDK_ACTION_COPY
        }
    }
}

extension ItemViewManager {
    /// The list's drop target: while a drag is over the list, a line above or below a row
    /// shows where a drop goes (nowhere where it is refused), following the rows as they
    /// move under the drag.
    func installDropTarget() {
        RowStyle.install()
        let target = cgtk_shims_list_drop_target_new()!
        let motion: @MainActor (Double, Double) -> GdkDragAction = { [weak self] x, y in
            self?.dragMoved(over: gtk_drop_target_get_current_drop(target), x: x, y: y) ?? GdkDragAction(rawValue: 0)
        }
        Signal.connect(UnsafeMutableRawPointer(target), "motion", motion)
        Signal.connect(UnsafeMutableRawPointer(target), "enter", motion)
        Signal.connect(UnsafeMutableRawPointer(target), "leave") { [weak self] in self?.dragLeft() }
        Signal.connect(UnsafeMutableRawPointer(target), "drop") { [weak self] (value: UnsafePointer<GValue>, x: Double, y: Double) in
            self?.dropped(value, drop: gtk_drop_target_get_current_drop(target), x: x, y: y) ?? false
        }
        dragHover.followRows = { [weak self] x, y in
            _ = self?.dragMoved(over: gtk_drop_target_get_current_drop(target), x: x, y: y)
        }
        gtk_widget_add_controller(view, target)
    }

    /// What a drop of `drop` at (`x`, `y`) would do, and the row marking where; nil where
    /// it cannot go.
    func plannedDrop(_ drop: OpaquePointer?, x: Double, y: Double) -> (drop: PlannedDrop, mark: DropMark?)? {
        guard let place = dropPlace(x: x, y: y) else { return nil }
        guard let itemSource = Self.itemSource(of: drop) else { return (.fromOutside(at: place.insertion), place.mark) }
        guard let source = itemSource, let item = source.drag.item, let model = source.bridge.model(of: .item(item)) else { return nil }
        guard source === self else {
            guard acceptsDrop(of: model, from: source, at: place.insertion) else { return nil }
            return (.fromOtherList(source, item: item, to: place.insertion, Self.operation(of: drop)), place.mark)
        }
        var proposed = place.insertion
        if proposed.section == item.section, item.item < proposed.item { proposed.item -= 1 }
        guard let destination = targetIndexPath(forMoving: model, from: item, proposed: proposed) else { return nil }
        guard destination != proposed else { return (.move(from: item, to: destination), place.mark) }
        // Redirected: the line shows where the item goes instead.
        var insertion = destination
        if destination.section == item.section, destination.item >= item.item { insertion.item += 1 }
        return (.move(from: item, to: destination), dropMark(at: insertion))
    }

    /// A move unless the drag offers none: GDK takes the move away while Control is held.
    private static func operation(of drop: OpaquePointer?) -> DropOperation {
        guard let drop else { return .move }
        return gdk_drop_get_actions(drop).rawValue & GDK_ACTION_MOVE.rawValue != 0 ? .move : .copy
    }

    private func dragMoved(over drop: OpaquePointer?, x: Double, y: Double) -> GdkDragAction {
        dragHover.moved(x: x, y: y)
        guard let planned = plannedDrop(drop, x: x, y: y) else {
            drag.showIndicator(nil)
            return GdkDragAction(rawValue: 0)
        }
        drag.showIndicator(planned.mark)
        return planned.drop.action
    }

    private func dragLeft() {
        drag.showIndicator(nil)
        dragHover.left()
    }

    private func dropped(_ value: UnsafePointer<GValue>, drop: OpaquePointer?, x: Double, y: Double) -> Bool {
        dragLeft()
        guard let planned = plannedDrop(drop, x: x, y: y)?.drop else { return false }
        switch planned {
        case .move(let source, let destination):
            drag.end()
            return moveItem(at: source, to: destination)
        case .fromOtherList(let source, let item, let destination, let operation):
            source.drag.end()
            return receiveItem(at: item, from: source, to: destination, operation: operation)
        case .fromOutside(let indexPath):
            guard let content = Self.droppedContent(value) else { return false }
            for reaction in editingRules.outsideDropReactions { reaction(content, indexPath) }
            return !editingRules.outsideDropReactions.isEmpty
        }
    }

    /// The files or text of a value dropped from outside.
    private static func droppedContent(_ value: UnsafePointer<GValue>) -> DroppedContent? {
        switch cgtk_shims_dropped_kind(value) {
        case CGTK_SHIMS_DROPPED_FILES:
            guard let paths = cgtk_shims_dropped_files(value) else { return nil }
            defer { g_strfreev(paths) }
            var files: [String] = []
            while let path = paths[files.count] { files.append(String(cString: path)) }
            return .files(files)
        case CGTK_SHIMS_DROPPED_TEXT:
            return cgtk_shims_dropped_text(value).map { .text(String(cString: $0)) }
        default:
            return nil
        }
    }
}
