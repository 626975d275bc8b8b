import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    /// Lets the user drag items of `modelType` to another place in the list (any section),
    /// or to another managed list that takes them, when `closure` says so. Items no
    /// `canMove` closure speaks for stay put.
    public func canMove<Model>(withItem modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Bool) {
        editingRules.canMove.append(forModels(closure))
    }

    /// An item of `modelType` was dragged from `source` to `destination` (its index path
    /// once moved). Move it in the storage here, or set `configuration.movesItemsInStorage`.
    public func moveItem<Model>(model modelType: Model.Type, _ closure: @escaping (Model, _ source: IndexPath, _ destination: IndexPath) -> Void) {
        editingRules.moveReactions.append { _, model, source, destination in
            if let model = model as? Model { closure(model, source, destination) }
        }
    }

    /// An item shown by `rowType` was dragged from `source` to `destination`.
    public func moveItem<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, _ source: IndexPath, _ destination: IndexPath) -> Void) {
        guard !registeredMappings(.item, rowType: ObjectIdentifier(T.self)).isEmpty else {
            anomalyHandler.report(.eventRegisteredForUnregisteredMapping(rowType: String(describing: T.self), kind: .item, event: "moveItem"))
            return
        }
        editingRules.moveReactions.append { row, model, source, destination in
            if let row = row as? T, let model = model as? T.ModelType { closure(row, model, source, destination) }
        }
    }

    /// Redirects or refuses the places items of `modelType` are dragged to within the list
    /// (DTTableViewManager's `targetIndexPathForMove`): `closure` gets the item, where it is,
    /// and where the drop would put it (its index path once moved), and answers where it
    /// goes instead, or nil to refuse that place: no line shows there and a drop does
    /// nothing. The line under the drag shows the place answered. The latest closure
    /// registered for the item's type decides; without one, items go where they are dropped.
    ///
    /// ```swift
    /// manager.targetIndexPathForMove(model: Post.self) { post, source, proposed in
    ///     proposed.section == source.section ? proposed : nil  // stays in its section
    /// }
    /// ```
    public func targetIndexPathForMove<Model>(model modelType: Model.Type,
                                              _ closure: @escaping (Model, _ source: IndexPath, _ proposed: IndexPath) -> IndexPath?) {
        editingRules.moveRedirects.append { model, source, proposed in (model as? Model).map { closure($0, source, proposed) } }
    }

    /// Where a drag would move the item `model`, now at `source`, when dropped at `proposed`
    /// (its index path once moved): `targetIndexPathForMove`'s answer, nil when refused.
    func targetIndexPath(forMoving model: Any, from source: IndexPath, proposed: IndexPath) -> IndexPath? {
        editingRules.target(forMoving: model, from: source, proposed: proposed)
    }

    /// Files or text from outside the list were dropped on it; the index path is where the
    /// drop points (the item it would be inserted as).
    public func didDropFromOutside(_ closure: @escaping (DroppedContent, IndexPath) -> Void) {
        editingRules.outsideDropReactions.append(closure)
    }

    /// Whether the user can drag the item at `indexPath`.
    public func canMove(_ indexPath: IndexPath) -> Bool {
        guard let model = bridge.model(of: .item(indexPath)) else { return false }
        return editingRules.allowsMoving(model, at: indexPath)
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
        // The view keeps its place by the items around the one the user moves, not by it.
        itemMovedByUser = source
        defer { itemMovedByUser = nil }
        for reaction in editingRules.moveReactions { reaction(row, model, source, destination) }
        if configuration.movesItemsInStorage, let memoryStorage {
            memoryStorage.moveItemWithoutAnimation(from: source, to: destination)
        }
        return true
    }
}
