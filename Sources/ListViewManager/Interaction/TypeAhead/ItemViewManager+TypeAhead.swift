import CGtk
import Foundation
import GtkKit
import ModelStorage

/// How type-ahead find matches what the user types (`Configuration.typeAhead`).
public enum TypeAheadMatch: Sendable {
    /// No type-ahead find: typed keys go to the rows.
    case off
    /// The items whose text starts with what was typed (GtkTreeView's way).
    case startsWith
    /// The items whose text contains what was typed.
    case contains
}

extension ItemViewManager {
    /// The text type-ahead find looks for in items of `modelType` (else their accessible
    /// label: `accessibilityLabel(model:)` or `AccessibilityLabeled`). Typing while the list
    /// has the keyboard focus jumps to the next item whose text starts with what was typed
    /// (`configuration.typeAhead`), as GtkTreeView's interactive search did.
    public func typeAheadText<Model>(model modelType: Model.Type, _ text: @escaping @MainActor (Model, IndexPath) -> String?) {
        typeAheadTexts.append { model, indexPath in
            guard let model = model as? Model else { return nil }
            return text(model, indexPath)
        }
        typeAhead?.index = nil  // texts read before are other texts
    }

    /// What type-ahead find shows it is looking for, while its popover is shown.
    public var typeAheadFindText: String? { typeAhead?.shownText }

    /// Whether type-ahead find waits for the storage's answer to a search.
    package var typeAheadIsSearching: Bool { typeAhead?.searching != nil }

    /// Whether every item's text for type-ahead find is read (ahead of the first key, or by
    /// a search), until the list changes.
    package var typeAheadTextsAreRead: Bool { typeAhead?.index?.isComplete == true }

    /// Whether type-ahead find has texts to look in: the app gave some, or its items name
    /// themselves for screen readers (as the focused one does: keys reach the list through
    /// it), or the storage searches itself (`searchingStorage`). A storage read a page at a
    /// time is not gone through.
    var hasTypeAheadTexts: Bool {
        if searchingStorage != nil { return true }
        guard !(storage is any ReadsItemsOnDemand) else { return false }
        if !typeAheadTexts.isEmpty || !rowDescriptions.accessibleLabels.isEmpty { return true }
        guard let focused = focusedPosition, case .item(let indexPath)? = bridge.layout.row(at: focused) else { return false }
        return bridge.models.item(at: indexPath) is AccessibilityLabeled
    }

    /// The storage, when it finds what was typed itself (a paged storage whose query names
    /// what to search in: `PagedQuery.searchBy`): type-ahead find asks it, and reads no
    /// item's text.
    var searchingStorage: (any SearchingStorage)? {
        guard let storage = storage as? any SearchingStorage, storage.searchesItems else { return nil }
        return storage
    }

    /// Asks the storage for the first item from the row at `start` (going round the end)
    /// whose text matches `typed`, backwards unless `forward`; hands `found` its position
    /// in the list (nil for none) once the storage has answered, unless the storage was
    /// replaced meanwhile.
    func searchStorage(_ storage: any SearchingStorage, for typed: String, from start: Int, forward: Bool,
                       found: @escaping (Int?) -> Void) {
        let count = bridge.count
        guard count > 0 else { return found(nil) }
        // From the first item row at or after `start` in the search's direction (past a
        // header or a footer), going round.
        var from: IndexPath?
        for step in 0..<min(count, 4) {
            let position = ((start + (forward ? step : -step)) % count + count) % count
            if case .item(let indexPath)? = bridge.layout.row(at: position) {
                from = indexPath
                break
            }
        }
        storage.searchItem(matching: typed, anywhere: configuration.typeAhead == .contains, from: from, forward: forward) { [weak self] indexPath in
            guard let self, self.storage as AnyObject === storage as AnyObject else { return }
            found(indexPath.flatMap { self.position(of: $0) })
        }
    }

    /// The text type-ahead find looks for in the item at `indexPath`.
    func typeAheadText(of model: Any, at indexPath: IndexPath) -> String? {
        for provider in typeAheadTexts {
            if let text = provider(model, indexPath) { return text }
        }
        return rowDescriptions.accessibleLabel(of: model, at: indexPath)
    }

    /// The position of the first item row from `start` (going round the end) whose text
    /// matches `typed`, backwards unless `forward`; nil when none does. The items' texts are
    /// read ahead while the list has the focus and the main loop is idle; a search before
    /// they all are reads the rest (see `TypeAheadIndex`); then it compares bytes.
    package func typeAheadMatch(of typed: String, from start: Int, forward: Bool) -> Int? {
        let count = bridge.count
        guard count > 0, let typeAhead else { return nil }
        var index = typeAhead.index.flatMap { $0.count == count ? $0 : nil } ?? TypeAheadIndex(count: count)
        typeAhead.index = nil  // (not copied while it grows)
        index.read(typeAheadTextOfRow)
        typeAhead.index = index
        let folded = TypeAheadIndex.folded(typed), anywhere = configuration.typeAhead == .contains
        let first = ((start % count) + count) % count
        for step in 0..<count {
            let position = forward ? (first + step) % count : (first - step + count) % count
            if index.matches(position, folded, anywhere: anywhere) { return position }
        }
        return nil
    }

    /// The text type-ahead find looks for in the row at `position` (nil for a header or
    /// footer, or an item without one).
    func typeAheadTextOfRow(_ position: Int) -> String? {
        guard case .item(let indexPath)? = bridge.layout.row(at: position), let model = bridge.models.item(at: indexPath) else { return nil }
        return typeAheadText(of: model, at: indexPath)
    }

    /// Moves the keyboard focus to the row at `position`, and selects it alone, as a move of
    /// the keyboard does.
    package func focusAndSelect(position: Int) {
        focus(position: position)
        if selectionMode != .none { gtk_selection_model_select_item(selection.model, UInt32(position), 1) }
    }
}
