import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// What dragging an item row carries: the item itself, for managed lists in this process,
/// and what a `DraggableModel` offers other applications.
extension ItemViewManager {
    /// A drag source on a new item row, acting for the item the row shows when a drag starts.
    func installDragSource(on row: RowWidget, host: RowHost) {
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GdkDragAction(GDK_ACTION_MOVE.rawValue | GDK_ACTION_COPY.rawValue))
        let target = RowTarget(manager: self, row: row, host: host)
        Signal.connect(UnsafeMutableRawPointer(source), "prepare") { (_: Double, _: Double) -> UnsafeMutableRawPointer? in
            guard let manager = target.manager, let position = target.boundPosition,
                  case .item(let indexPath)? = manager.bridge.row(at: position) else { return nil }
            return manager.beginDrag(ofItemAt: indexPath).map(UnsafeMutableRawPointer.init)
        }
        Signal.connect(UnsafeMutableRawPointer(source), "drag-begin") { (_: UnsafeMutableRawPointer?) in
            target.manager?.pressBecameDrag()
            // The dragged row itself is the drag icon.
            guard let row = target.row else { return }
            let paintable = ObjectReference(adopting: gtk_widget_paintable_new(row.rootWidget)!)
            gtk_drag_source_set_icon(source, paintable.pointer, 12, 12)
        }
        Signal.connect(UnsafeMutableRawPointer(source), "drag-end") { (_: UnsafeMutableRawPointer?, _: Bool) in
            target.manager?.drag.end()
        }
        gtk_widget_add_controller(row.rootWidget, source)
    }

    /// Begins a drag of the item at `indexPath`: follows it while it is dragged when it can
    /// move (`canMove`), and returns what the drag carries (one reference, for GTK), or nil
    /// when it cannot be dragged: the item itself, which managed lists of this process read,
    /// then what its model offers as a `DraggableModel`.
    private func beginDrag(ofItemAt indexPath: IndexPath) -> UnsafeMutablePointer<GdkContentProvider>? {
        guard let model = bridge.model(of: .item(indexPath)) else { return nil }
        let movable = canMove(indexPath)
        let offered = (model as? DraggableModel)?.dragContent ?? []
        guard movable || !offered.isEmpty else { return nil }
        if movable { drag.start(indexPath) }
        // The item is named by the manager it comes from, which follows it while it is
        // dragged (`drag`); every drag carries it, so that a managed list never takes an
        // item as mere text.
        let payload = Unmanaged.passRetained(WeakReference<ItemViewManager>(self)).toOpaque()
        let item = ObjectReference(adopting: cgtk_shims_item_drag_content_new(payload, ReleaseUserData.destroyNotify)!)
        let providers = [item] + offered.map { $0.makeProvider() }
        return withExtendedLifetime(providers) {
            cgtk_shims_content_union_new(providers.map { Optional($0.pointer) }, gsize(providers.count))
        }
    }

    /// The manager whose item `drop` carries, when it is one of this process's managed
    /// lists' (`.some(nil)` when that manager is gone); nil for anything else.
    static func itemSource(of drop: OpaquePointer?) -> ItemViewManager?? {
        guard let payload = cgtk_shims_drop_item_payload(drop) else { return nil }
        return .some((Unmanaged<AnyObject>.fromOpaque(payload).takeUnretainedValue() as? WeakReference<ItemViewManager>)?.object)
    }
}
