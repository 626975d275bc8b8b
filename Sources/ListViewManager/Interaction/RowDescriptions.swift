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
        tooltips.lazy.compactMap { $0(model, indexPath) }.first ?? nil
    }

    /// The accessible name of `model`, at `indexPath`: the first provider of its type's,
    /// else the model's own (`AccessibilityLabeled`), else none.
    func accessibleLabel(of model: Any, at indexPath: IndexPath) -> String? {
        accessibleLabels.lazy.compactMap { $0(model, indexPath) }.first
            ?? (model as? AccessibilityLabeled)?.accessibilityLabel
    }

    /// Whether a row's name depends on its index path (rows are then named again when
    /// they move).
    var dependOnPlace: Bool { !accessibleLabels.isEmpty }
}
