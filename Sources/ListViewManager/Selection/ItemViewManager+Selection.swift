import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// How many items can be selected.
public enum SelectionMode: Sendable {
    /// None (GtkNoSelection).
    case none
    /// At most one (GtkSingleSelection, nothing selected at first, can be unselected).
    case single
    /// Any number (GtkMultiSelection).
    case multiple
}

extension ItemViewManager {
    /// How many items can be selected. Changing it clears the selection.
    public var selectionMode: SelectionMode {
        get { selection.mode }
        set {
            guard newValue != selection.mode else { return }
            selection = SelectionState(manager: self, mode: newValue)
        }
    }

    /// The GtkSelectionModel between the list view and the manager's list model.
    public var selectionModel: OpaquePointer { selection.model }

    /// Selects the item at `indexPath` (in single mode, instead of the selected one).
    /// Fires `didSelect` like any other selection.
    @discardableResult
    public func select(_ indexPath: IndexPath) -> Bool {
        guard let position = position(of: indexPath) else { return false }
        return gtk_selection_model_select_item(selection.model, UInt32(position), selectionMode == .single ? 1 : 0) != 0
    }

    /// Deselects the item at `indexPath`.
    @discardableResult
    public func deselect(_ indexPath: IndexPath) -> Bool {
        guard let position = position(of: indexPath) else { return false }
        return gtk_selection_model_unselect_item(selection.model, UInt32(position)) != 0
    }

    /// Whether the item at `indexPath` is selected.
    public func isSelected(_ indexPath: IndexPath) -> Bool {
        guard let position = position(of: indexPath) else { return false }
        return gtk_selection_model_is_selected(selection.model, UInt32(position)) != 0
    }

    /// The index paths of the selected items, in order.
    public var selectedIndexPaths: [IndexPath] {
        selection.selectedPositions().compactMap { position in
            if case .item(let indexPath)? = bridge.layout.row(at: position) { return indexPath }
            return nil
        }
    }
}
