import CGtk
import CGtkShims
import Foundation
import ModelStorage

extension ItemViewManager {
    /// Lets the user drag items of `modelType` to another place in the list (any section)
    /// when `closure` says so. Items no `canMove` closure speaks for stay put.
    public func canMove<Model>(withItem modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Bool) {
        moveFilters.append(forModels(closure))
    }

    /// An item of `modelType` was dragged from `source` to `destination` (its index path
    /// once moved). Move it in the storage here, or set `configuration.movesItemsInStorage`.
    public func moveItem<Model>(model modelType: Model.Type, _ closure: @escaping (Model, _ source: IndexPath, _ destination: IndexPath) -> Void) {
        moveReactions.append { _, model, source, destination in
            if let model = model as? Model { closure(model, source, destination) }
        }
    }

    /// An item shown by `rowType` was dragged from `source` to `destination`.
    public func moveItem<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, _ source: IndexPath, _ destination: IndexPath) -> Void) {
        guard !registeredMappings(.item, rowType: ObjectIdentifier(T.self)).isEmpty else {
            anomalyHandler.report(.eventRegisteredForUnregisteredMapping(rowType: String(describing: T.self), kind: .item, event: "moveItem"))
            return
        }
        moveReactions.append { row, model, source, destination in
            if let row = row as? T, let model = model as? T.ModelType { closure(row, model, source, destination) }
        }
    }

    /// Files or text from outside the list were dropped on it; the index path is where the
    /// drop points (the item it would be inserted as).
    public func didDropFromOutside(_ closure: @escaping (DroppedContent, IndexPath) -> Void) {
        dropReactions.append(closure)
    }

    /// Whether the user can drag the item at `indexPath`.
    public func canMove(_ indexPath: IndexPath) -> Bool {
        guard let model = bridge.model(of: .item(indexPath)) else { return false }
        let verdicts = moveFilters.compactMap { $0(model, indexPath) }
        return !verdicts.isEmpty && !verdicts.contains(false)
    }

    /// Moves the item at `source` to `destination` (its index path once moved) as a drop
    /// does: fires `moveItem`, then moves it in the `MemoryStorage` when
    /// `configuration.movesItemsInStorage` is on. A missing item or a place outside the
    /// storage is an anomaly and changes nothing. Returns whether the item moved (or was
    /// handed to the reactions).
    @discardableResult
    public func moveItem(at source: IndexPath, to destination: IndexPath) -> Bool {
        let sectionCount = storage.numberOfSections()
        guard source.isSectionAndItem, destination.isSectionAndItem, let model = bridge.model(of: .item(source)),
              destination.section >= 0, destination.section < sectionCount,
              destination.item >= 0,
              destination.item <= storage.numberOfItems(inSection: destination.section) - (source.section == destination.section ? 1 : 0)
        else {
            anomalyHandler.report(.invalidMove(from: source, to: destination))
            return false
        }
        guard source != destination else { return false }
        let row = position(of: source).flatMap { boundRows(at: $0).first?.row.row }
        for reaction in moveReactions { reaction(row, model, source, destination) }
        if configuration.movesItemsInStorage, let memoryStorage {
            memoryStorage.moveItemWithoutAnimation(from: source, to: destination)
        }
        return true
    }

    // MARK: GTK

    /// A drag source on a new item row: dragging it carries its item when `canMove` allows.
    func installDragSource(on row: RowWidget, host: RowHost) {
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GDK_ACTION_MOVE)
        let target = RowTarget(manager: self, row: row, host: host)
        Signal.connect(UnsafeMutableRawPointer(source), "prepare") { (_: Double, _: Double) -> UnsafeMutableRawPointer? in
            guard let manager = target.manager, let position = target.boundPosition,
                  case .item(let indexPath)? = manager.bridge.row(at: position), manager.canMove(indexPath) else { return nil }
            manager.drag.start(indexPath)
            return UnsafeMutableRawPointer(cgtk_shims_row_drag_content_new(UInt32(position)))
        }
        Signal.connect(UnsafeMutableRawPointer(source), "drag-begin") { (_: UnsafeMutableRawPointer?) in
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

    /// The list's drop target: rows of this list move, files and text go to
    /// `didDropFromOutside`; a line above or below the row under the pointer shows where.
    func installDropTarget() {
        RowStyle.install()
        let target = cgtk_shims_list_drop_target_new()!
        let motion: @MainActor (Double, Double) -> GdkDragAction = { [weak self] x, y in
            self?.dragMoved(x: x, y: y) ?? GdkDragAction(rawValue: 0)
        }
        Signal.connect(UnsafeMutableRawPointer(target), "motion", motion)
        Signal.connect(UnsafeMutableRawPointer(target), "enter", motion)
        Signal.connect(UnsafeMutableRawPointer(target), "leave") { [weak self] in self?.drag.showIndicator(nil) }
        Signal.connect(UnsafeMutableRawPointer(target), "drop") { [weak self] (value: UnsafePointer<GValue>, x: Double, y: Double) in
            self?.dropped(value, x: x, y: y) ?? false
        }
        gtk_widget_add_controller(view, target)
    }

    /// Where a drop at (`x`, `y`) would go: the item index it would take (before the row
    /// under the pointer, or after it past its middle: its vertical middle in a list, its
    /// horizontal one in a grid, whose items flow left to right) and the row to mark
    /// (`drop-above` / `drop-below`, or `drop-before` / `drop-after` in a grid).
    private func dropPoint(x: Double, y: Double) -> (indexPath: IndexPath, mark: (UnsafeMutablePointer<GtkWidget>, String))? {
        guard let picked = boundRow(atX: x, y: y) else { return nil }
        let after = kind.flowsHorizontally
            ? x > Double(picked.bounds.origin.x + picked.bounds.size.width / 2)
            : y > Double(picked.bounds.origin.y + picked.bounds.size.height / 2)
        let mark = (picked.row.rootWidget, kind.flowsHorizontally ? (after ? "drop-after" : "drop-before") : (after ? "drop-below" : "drop-above"))
        switch picked.flatRow {
        case .item(let indexPath):
            return (IndexPath(item: indexPath.item + (after ? 1 : 0), section: indexPath.section), mark)
        case .header(let section):
            return (IndexPath(item: 0, section: section), (picked.row.rootWidget, "drop-below"))
        case .footer(let section):
            return (IndexPath(item: storage.numberOfItems(inSection: section), section: section), (picked.row.rootWidget, "drop-above"))
        }
    }

    private func dragMoved(x: Double, y: Double) -> GdkDragAction {
        guard let point = dropPoint(x: x, y: y) else {
            drag.showIndicator(nil)
            return GdkDragAction(rawValue: 0)
        }
        drag.showIndicator((point.mark.0, point.mark.1))
        return drag.item != nil ? GDK_ACTION_MOVE : GDK_ACTION_COPY
    }

    private func dropped(_ value: UnsafePointer<GValue>, x: Double, y: Double) -> Bool {
        let dragged = drag.item
        drag.end()
        guard let point = dropPoint(x: x, y: y) else { return false }
        switch cgtk_shims_dropped_kind(value) {
        case CGTK_SHIMS_DROPPED_ROW:
            // A row: of this list only while this list is dragging it.
            guard let source = dragged else { return false }
            var destination = point.indexPath
            if source.section == destination.section, source.item < destination.item { destination.item -= 1 }
            return moveItem(at: source, to: destination)
        case CGTK_SHIMS_DROPPED_FILES:
            guard let paths = cgtk_shims_dropped_files(value) else { return false }
            defer { g_strfreev(paths) }
            var files: [String] = []
            var index = 0
            while let path = paths[index] {
                files.append(String(cString: path))
                index += 1
            }
            for reaction in dropReactions { reaction(.files(files), point.indexPath) }
            return !dropReactions.isEmpty
        case CGTK_SHIMS_DROPPED_TEXT:
            guard let text = cgtk_shims_dropped_text(value) else { return false }
            for reaction in dropReactions { reaction(.text(String(cString: text)), point.indexPath) }
            return !dropReactions.isEmpty
        default:
            return false
        }
    }
}
