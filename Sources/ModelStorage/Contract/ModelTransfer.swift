/// A view (a row, a header, a cell) that shows one kind of model.
///
/// Views live on the main thread, so the protocol is main-actor isolated.
///
/// Adopt it on every row type you register with a manager: the model type is inferred
/// from `update(with:)`, and the manager calls it each time the row is bound to a model.
///
/// ```swift
/// final class PostRow: ListRow, ModelTransfer {
///     func update(with model: Post) { title.text = model.title }
/// }
/// ```
@MainActor
public protocol ModelTransfer {
    /// The type of model this view shows.
    associatedtype ModelType

    /// Shows `model` in the view. Called on bind and whenever the model's content changes.
    /// - Parameter model: the model to show.
    func update(with model: ModelType)
}
