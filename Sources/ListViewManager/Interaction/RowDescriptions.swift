import Foundation

/// What the app says of the items' rows, by model type: their tooltips, and their names
/// for screen readers. A provider answers nil for models not of its type.
struct RowDescriptions {
    /// `tooltip`: the text (`.some(nil)`: none for this item).
    var tooltips: [(Any, IndexPath) -> String??] = []
    /// `accessibilityLabel`.
    var accessibleLabels: [(Any, IndexPath) -> String?] = []

    /// The tooltip of `model`, at `indexPath`: the first provider of its type decides.
    func tooltip(of model: Any, at indexPath: IndexPath) -> String? {
        for provider in tooltips {
            if let tooltip = provider(model, indexPath) { return tooltip }
        }
        return nil
    }

    /// The accessible name of `model`, at `indexPath`: the first provider of its type's,
    /// else the model's own (`AccessibilityLabeled`), else none.
    func accessibleLabel(of model: Any, at indexPath: IndexPath) -> String? {
        // A loop, not `lazy.compactMap(_:).first`, which asks the provider found twice.
        for provider in accessibleLabels {
            if let label = provider(model, indexPath) { return label }
        }
        return (model as? AccessibilityLabeled)?.accessibilityLabel
    }

    /// Whether a row's name depends on its index path (rows are then named again when
    /// they move).
    var dependOnPlace: Bool { !accessibleLabels.isEmpty }
}
