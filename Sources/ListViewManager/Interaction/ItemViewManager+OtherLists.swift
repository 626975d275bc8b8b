import CGtk
import Foundation
import GtkKit
import ModelStorage

/// Items dragged from one managed list to another: which the list takes, and what the drop
/// does to both storages.
extension ItemViewManager {
    /// Lets items of `modelType` dragged from another managed list be dropped on this one
    /// where `closure` says so: it gets the item, the manager of the list it comes from and
    /// where it would be inserted here. A list takes no item from another unless a closure
    /// allows it (and none refuses), and never one it has no row type for. The other list
    /// must let the item move (`canMove`).
    public func canDropFromOtherList<Model>(model modelType: Model.Type,
                                            _ closure: @escaping (Model, _ source: ItemViewManager, _ destination: IndexPath) -> Bool) {
        editingRules.otherListDropFilters.append { model, source, destination in (model as? Model).map { closure($0, source, destination) } }
    }

    /// An item of `modelType` from another managed list (`source`) was dropped on this one,
    /// to be at `destination` here, moved (it leaves `source`) or copied (Control held).
    /// Insert it in the storage here (and remove a moved one from `source`'s), or set
    /// `configuration.movesItemsInStorage`: each manager that has it on changes its own
    /// `MemoryStorage` right after the reactions.
    public func didDropFromOtherList<Model>(model modelType: Model.Type,
                                            _ closure: @escaping (Model, _ source: ItemViewManager, _ destination: IndexPath, DropOperation) -> Void) {
        editingRules.otherListDropReactions.append { model, source, destination, operation in
            if let model = model as? Model { closure(model, source, destination, operation) }
        }
    }

    /// Whether this list takes `model`, dragged from `source`, at `destination`.
    func acceptsDrop(of model: Any, from source: ItemViewManager, at destination: IndexPath) -> Bool {
        guard canShow(model, at: destination) else { return false }
        return editingRules.allowsDrop(of: model, from: source, at: destination)
    }

    /// Whether a row type of this view shows `model` at `indexPath`.
    private func canShow(_ model: Any, at indexPath: IndexPath) -> Bool {
        resolver.mapping(.item, for: model, at: indexPath) != nil
            || tableColumns.contains { $0.mapping.modelMatches(model) && $0.mapping.applies(to: model, at: indexPath) }
    }

    /// Takes the item at `item` of `source` to `destination` here, as a drop does: fires
    /// `didDropFromOtherList`, then inserts it in this `MemoryStorage` and, for a move,
    /// removes it from `source`'s, each where `movesItemsInStorage` is on. Returns whether
    /// the item was taken.
    func receiveItem(at item: IndexPath, from source: ItemViewManager, to destination: IndexPath, operation: DropOperation) -> Bool {
        guard let model = source.bridge.model(of: .item(item)), acceptsDrop(of: model, from: source, at: destination) else { return false }
        for reaction in editingRules.otherListDropReactions { reaction(model, source, destination, operation) }
        if configuration.movesItemsInStorage, let memoryStorage {
            try? memoryStorage.insertItem(model, to: destination)
        }
        if operation == .move, source.configuration.movesItemsInStorage, let sourceStorage = source.memoryStorage {
            sourceStorage.removeItems(at: [item])
        }
        return true
    }
}
