import CGtk
import Foundation
import GtkKit
import ModelStorage

/// The app's say over selection and focus, by model type. Every rule is asked whatever
/// asks for the change: a click, a key, GTK's `list.select-item` action, a screen reader,
/// `select(_:)`, select-all. A refused selection leaves the selection as it was.
struct SelectionRules {
    /// `canSelect`: nil when the model is not of the rule's type.
    var canSelect: [(Any, IndexPath) -> Bool?] = []
    /// `willSelect`: the index path to select instead (`.some(nil)` refuses).
    var willSelect: [(Any, IndexPath) -> IndexPath??] = []
    /// `willDeselect`, as `willSelect`.
    var willDeselect: [(Any, IndexPath) -> IndexPath??] = []
    /// `shouldDeselect`.
    var shouldDeselect: [(Any, IndexPath) -> Bool?] = []
    /// `canFocus`.
    var canFocus: [(Any, IndexPath) -> Bool?] = []
    /// `shouldHighlight`.
    var shouldHighlight: [(Any, IndexPath) -> Bool?] = []

    /// Whether any rule depends on an item's index path (rows then check again when they move).
    var dependOnPlace: Bool { !canSelect.isEmpty || !canFocus.isEmpty || !shouldHighlight.isEmpty }

    /// Where selecting (or deselecting) `model` at `indexPath` leads: the first redirecting
    /// or refusing rule decides; with none, `indexPath` itself.
    static func answer(_ rules: [(Any, IndexPath) -> IndexPath??], _ model: Any, _ indexPath: IndexPath) -> IndexPath? {
        for rule in rules {
            guard let answer = rule(model, indexPath) else { continue }
            if answer != indexPath { return answer }
        }
        return indexPath
    }

    /// Whether every rule of `rules` for `model`'s type allows it.
    static func allow(_ rules: [(Any, IndexPath) -> Bool?], _ model: Any, _ indexPath: IndexPath) -> Bool {
        rules.allSatisfy { $0(model, indexPath) ?? true }
    }
}

extension ItemViewManager {
    /// Decides whether items of `modelType` can be selected. A refused item is never
    /// selected, however the selection is asked for, and the selection stays as it was.
    public func canSelect<Model>(withItem modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Bool) {
        selectionRules.canSelect.append(forModels(closure))
        factories.forEach { $0.refreshFlags() }
    }

    /// Asked before an item of `modelType` is selected: return the index path to select
    /// instead (the item's own to go ahead), or nil to refuse. As UIKit's
    /// `tableView(_:willSelectRowAt:)`, but asked for every selection, the rows off screen too.
    public func willSelect<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> IndexPath?) {
        selectionRules.willSelect.append(forModels(closure))
    }

    /// Asked before a selected item of `modelType` is deselected (by a click elsewhere, a
    /// key, `deselect(_:)`): return the index path to deselect instead, or nil to keep it
    /// selected. In single selection mode, a kept item keeps the others from being selected.
    public func willDeselect<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> IndexPath?) {
        selectionRules.willDeselect.append(forModels(closure))
    }

    /// Whether a selected item of `modelType` may be deselected (DTCollectionViewManager's
    /// `shouldDeselect`): false keeps it selected.
    public func shouldDeselect<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Bool) {
        selectionRules.shouldDeselect.append(forModels(closure))
    }

    /// Whether rows of items of `modelType` can take the keyboard focus. Arrow keys, Home and
    /// End pass over the others, as over header and footer rows. On GTK 4.8 a row GTK cannot
    /// focus can be neither selected nor activated by the user either (GTK focuses only
    /// selectable or activatable rows); `select(_:)` still selects it.
    public func canFocus<Model>(withItem modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Bool) {
        selectionRules.canFocus.append(forModels(closure))
        factories.forEach { $0.refreshFlags() }
    }

    /// Whether the rows of items of `modelType` light up under the pointer: false shows no
    /// hover highlight (the row widget GTK makes gets the `no-highlight` style class) and
    /// fires no `didHighlight` or `didUnhighlight`.
    public func shouldHighlight<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Bool) {
        selectionRules.shouldHighlight.append(forModels(closure))
        if !selectionRules.shouldHighlight.isEmpty { RowStyle.install() }
    }

    /// Whether the row of the item at `position` lights up under the pointer.
    func shouldHighlight(position: Int) -> Bool {
        guard case .item(let indexPath)? = bridge.row(at: position), let model = bridge.model(of: .item(indexPath)) else { return false }
        return SelectionRules.allow(selectionRules.shouldHighlight, model, indexPath)
    }

    /// Whether `model` at `row` may be selected (items only; every rule must agree).
    func canSelect(_ model: Any, at row: FlatRow) -> Bool {
        guard case .item(let indexPath) = row else { return false }
        return SelectionRules.allow(selectionRules.canSelect, model, indexPath)
    }

    /// Whether the row of `model` at `row` can take the keyboard focus (items only).
    func canFocus(_ model: Any, at row: FlatRow) -> Bool {
        guard case .item(let indexPath) = row else { return false }
        return SelectionRules.allow(selectionRules.canFocus, model, indexPath)
    }

    /// Whether the row at `position` can take the keyboard focus.
    func canFocus(position: Int) -> Bool {
        guard let row = bridge.row(at: position), let model = bridge.model(of: row) else { return false }
        return canFocus(model, at: row)
    }

    /// The selection gate's question: the position to select when `position` is asked for,
    /// or nil to refuse.
    func positionToSelect(insteadOf position: Int) -> Int? {
        guard let row = bridge.row(at: position), let model = bridge.model(of: row),
              canSelect(model, at: row), case .item(let indexPath) = row,
              let target = SelectionRules.answer(selectionRules.willSelect, model, indexPath) else { return nil }
        guard target != indexPath else { return position }
        guard let targetPosition = self.position(of: target), let targetModel = bridge.model(of: .item(target)),
              canSelect(targetModel, at: .item(target)) else { return nil }
        return targetPosition
    }

    /// The selection gate's question: the position to deselect when `position` is to be
    /// deselected, or nil to keep it selected.
    func positionToDeselect(insteadOf position: Int) -> Int? {
        guard let row = bridge.row(at: position), case .item(let indexPath) = row,
              let model = bridge.model(of: row) else { return position }
        guard SelectionRules.allow(selectionRules.shouldDeselect, model, indexPath),
              let target = SelectionRules.answer(selectionRules.willDeselect, model, indexPath) else { return nil }
        return target == indexPath ? position : self.position(of: target)
    }
}
