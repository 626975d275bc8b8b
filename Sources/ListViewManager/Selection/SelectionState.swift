import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// The selection model of a manager and what it last reported as selected, so that each
/// `selection-changed` becomes exactly the `didSelect` / `didDeselect` events it means. The
/// model is a gated selection (CGtkShims) in front of GTK's own, asking the manager's
/// selection rules about every change.
@MainActor
final class SelectionState: UpdateParticipant {
    let mode: SelectionMode
    private let reference: ObjectReference<OpaquePointer>
    /// The GtkSelectionModel.
    var model: OpaquePointer { reference.pointer }
    /// The positions selected as of the last `selection-changed`, kept in step with splices.
    private let selected: OpaquePointer
    /// The selected items at their index paths, with their models, kept in step with every
    /// storage update (GTK's own selection loses items that move).
    private(set) var items: [IndexPath: Any] = [:]
    private weak var manager: ItemViewManager?
    /// The model's `selection-changed` handler.
    private var changeHandler: SignalConnection?

    init(manager: ItemViewManager, mode: SelectionMode) {
        self.mode = mode
        self.manager = manager
        let listModel = UnsafeMutableRawPointer(manager.bridge.listModel)
        g_object_ref(listModel)  // the selection model takes this reference
        let inner: OpaquePointer
        switch mode {
        case .none:
            inner = gtk_no_selection_new(OpaquePointer(listModel))!
        case .single:
            // Made without autoselect from the start: set later, GTK would already have
            // selected the first row.
            inner = cgtk_shims_single_selection_new(OpaquePointer(listModel))!
        case .multiple:
            inner = gtk_multi_selection_new(OpaquePointer(listModel))!
        }
        let willSelect: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Int = { data, position in
            let manager = UserData<WeakReference<ItemViewManager>>.value(data)
            return MainActor.assumeIsolated {
                manager.object?.positionToSelect(insteadOf: Int(position)) ?? -1
            }
        }
        let willDeselect: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Int = { data, position in
            let manager = UserData<WeakReference<ItemViewManager>>.value(data)
            return MainActor.assumeIsolated {
                guard let manager = manager.object else { return Int(position) }
                return manager.positionToDeselect(insteadOf: Int(position)) ?? -1
            }
        }
        let gate = CGtkShimsSelectionGate(
            will_select: willSelect, will_deselect: willDeselect,
            data: UserData.retained(WeakReference(manager)), destroy: ReleaseUserData.destroyNotify)
        reference = ObjectReference(adopting: cgtk_shims_gated_selection_new(inner, gate)!)
        selected = gtk_bitset_new_empty()
        manager.kind.setModel(manager.view, model)
        // This state's own model speaks for the manager only while it is the manager's.
        let handler = Signal.connect(UnsafeMutableRawPointer(model), "selection-changed") { [weak self] (position: UInt32, count: UInt32) in
            guard let self, let manager = self.manager, manager.selection === self else { return }
            selectionChanged(Int(position), Int(count))
            manager.viewOwnList?.selectionDidChange(at: Int(position)..<Int(position + count))
        }
        changeHandler = SignalConnection(handler, on: UnsafeMutableRawPointer(model))
    }

    /// GTK's selection model behind the gate: what the manager changes itself (items it
    /// selects again after a move) passes no rule.
    private var ungated: OpaquePointer {
        cgtk_shims_gated_selection_get_inner(model)
    }

    isolated deinit {
        // The list view already shows the next selection model (or none), but something may
        // still hold this one (an app, an accessibility client): from now on it asks no rule
        // of the manager and tells it nothing. Its gate's data and its handler's are
        // released here.
        cgtk_shims_gated_selection_detach_gate(model)
        changeHandler?.disconnect()
        gtk_bitset_unref(selected)
    }

    /// The positions selected now.
    func selectedPositions() -> [Int] {
        let bitset = gtk_selection_model_get_selection(model)!
        defer { gtk_bitset_unref(bitset) }
        var positions: [Int] = []
        var iterator = GtkBitsetIter()
        var value: UInt32 = 0
        var more = gtk_bitset_iter_init_first(&iterator, bitset, &value) != 0
        while more {
            positions.append(Int(value))
            more = gtk_bitset_iter_next(&iterator, &value) != 0
        }
        return positions
    }

    /// Turns a `selection-changed` over `count` positions from `position` into events.
    func selectionChanged(_ position: Int, _ count: Int) {
        guard let manager, count > 0 else { return }
        let now = gtk_selection_model_get_selection_in_range(model, UInt32(position), UInt32(count))!
        defer { gtk_bitset_unref(now) }
        var added: [Int] = []
        var removed: [Int] = []
        for candidate in position..<(position + count) {
            let was = gtk_bitset_contains(selected, UInt32(candidate)) != 0
            let isSelected = gtk_bitset_contains(now, UInt32(candidate)) != 0
            if was == isSelected { continue }
            if isSelected { added.append(candidate) } else { removed.append(candidate) }
        }
        for candidate in removed { gtk_bitset_remove(selected, UInt32(candidate)) }
        for candidate in added { gtk_bitset_add(selected, UInt32(candidate)) }
        for candidate in removed {
            if case .item(let indexPath)? = manager.bridge.row(at: candidate) { items[indexPath] = nil }
            manager.fireItemEvent(.didDeselect, at: candidate)
        }
        for candidate in added {
            if let row = manager.bridge.row(at: candidate), case .item(let indexPath) = row {
                items[indexPath] = manager.bridge.model(of: row)
            }
            manager.fireItemEvent(.didSelect, at: candidate)
        }
    }

    // MARK: Following items through updates

    /// Before GTK hears of `change`: the selection follows an update, and is dropped before
    /// a reload.
    var phases: UpdatePhases { [.beforeSplices, .eachSplice, .settled] }

    func willApply(_ change: ContentChange) {
        if let update = change.update { follow(update) } else { dropForReload() }
    }

    /// Once every row shows an update: the items GTK lost are selected again.
    func didSettle(_ applied: AppliedChange) {
        if !applied.change.isReload { reselectMovedItems() }
    }

    /// Carries the selection through `update`, before its splices are emitted: selected
    /// items the update deletes are deselected now, with `didDeselect` (their rows are
    /// still bound); the others are noted at their new index paths, for `reselectMovedItems`.
    private func follow(_ update: StorageUpdate) {
        guard let manager, !items.isEmpty else { return }
        var followed: [IndexPath: Any] = [:]
        var deleted: [(IndexPath, Any)] = []
        for (indexPath, model) in items {
            if let destination = update.newIndexPath(for: indexPath) {
                followed[destination] = model
            } else {
                deleted.append((indexPath, model))
            }
        }
        items = followed
        for (indexPath, model) in deleted.sorted(by: { $0.0 < $1.0 }) {
            manager.fireItemEvent(.didDeselect, model: model, indexPath: indexPath, position: manager.position(of: indexPath))
        }
    }

    /// The positions selected as GTK last said move with each splice, as GTK's own do.
    func willEmit(_ splice: Splice) {
        gtk_bitset_splice(selected, UInt32(splice.position), UInt32(splice.removed), UInt32(splice.added))
    }

    /// After an update's splices: selects again, firing nothing, the selected items GTK
    /// lost because they moved (a move reaches GTK as a removal and an insertion), and
    /// takes their current models.
    private func reselectMovedItems() {
        guard let manager, !items.isEmpty else { return }
        for indexPath in Array(items.keys) {
            items[indexPath] = manager.bridge.model(of: .item(indexPath))
            guard let position = manager.position(of: indexPath),
                  gtk_selection_model_is_selected(model, UInt32(position)) == 0 else { continue }
            gtk_bitset_add(selected, UInt32(position))
            gtk_selection_model_select_item(ungated, UInt32(position), 0)
        }
    }

    /// Before every row is reloaded: the selection is dropped, with a `didDeselect` for
    /// each selected item (GTK forgets it with the rows).
    private func dropForReload() {
        guard let manager, !items.isEmpty else { return }
        let dropped = items.sorted { $0.key < $1.key }
        items = [:]
        for (indexPath, model) in dropped {
            manager.fireItemEvent(.didDeselect, model: model, indexPath: indexPath, position: manager.position(of: indexPath))
        }
    }
}
