import Foundation

/// The context menu entries the app builds by model type (the row types' own builders are
/// on their mappings): for one item, and for several selected items. A builder answers nil
/// for models not of its type.
struct ContextMenuBuilders {
    /// `contextMenu(model:)`.
    var forItem: [(Any, IndexPath) -> [MenuEntry]?] = []
    /// `contextMenu(forSelection:)`: nil unless every model is of the builder's type.
    var forSelection: [([Any], [IndexPath]) -> [MenuEntry]?] = []

    /// The entries of every builder of `model`'s type, in the order added.
    func entries(for model: Any, at indexPath: IndexPath) -> [MenuEntry] {
        forItem.flatMap { $0(model, indexPath) ?? [] }
    }

    /// The entries of every builder of the selected `models`' type, in the order added.
    func entries(forSelected models: [Any], at indexPaths: [IndexPath]) -> [MenuEntry] {
        forSelection.flatMap { $0(models, indexPaths) ?? [] }
    }
}
