import CGtk
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    /// Decides whether items of `modelType` can be deleted by the user (the Delete key, a
    /// menu entry). Items are deletable only when a `canDelete` closure of their type says
    /// so (and none says no).
    public func canDelete<Model>(withItem modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Bool) {
        editingRules.canDelete.append(forModels(closure))
    }

    /// The user deleted an item shown by `rowType` (DTTableViewManager's
    /// `commitEditingStyle`): remove it from the storage here, or set
    /// `configuration.removesDeletedItems` and the manager removes it after this event.
    public func commitDelete<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.commitDelete, .item, closure)
    }

    /// The user deleted an item of `modelType`, whether or not its row is on screen.
    public func commitDelete<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.commitDelete, closure)
    }

    /// Whether the item at `indexPath` can be deleted by the user.
    public func canDelete(_ indexPath: IndexPath) -> Bool {
        guard let model = bridge.model(of: .item(indexPath)) else { return false }
        return editingRules.allowsDeleting(model, at: indexPath)
    }

    /// Deletes the selected items that can be deleted, as the Delete key does: fires
    /// `commitDelete` for each (the last first, so that each reaction may remove its own
    /// item), then removes them from the storage when
    /// `configuration.removesDeletedItems` is on. Returns their index paths.
    @discardableResult
    public func deleteSelectedItems() -> [IndexPath] {
        deleteItems(at: selection.items.keys.sorted())
    }

    /// Deletes the items at `indexPaths` that can be deleted, as `deleteSelectedItems` does.
    @discardableResult
    public func deleteItems(at indexPaths: [IndexPath]) -> [IndexPath] {
        let doomed = indexPaths.filter(canDelete)
        guard !doomed.isEmpty else { return [] }
        let deliveries = updater.deliveries
        // Last first, so that a reaction removing its item leaves the others' index paths valid.
        for indexPath in doomed.sorted(by: >) {
            guard let model = bridge.model(of: .item(indexPath)) else { continue }
            fireItemEvent(.commitDelete, model: model, indexPath: indexPath, position: position(of: indexPath))
        }
        guard configuration.removesDeletedItems, let memoryStorage else { return doomed }
        guard updater.deliveries == deliveries else {
            anomalyHandler.report(.storageChangedDuringDeletion(indexPaths: doomed))
            return doomed
        }
        memoryStorage.removeItems(at: doomed)
        return doomed
    }

}
