import Foundation
import ModelStorage

/// A mapping with events typed by its row and model types (attach them in the closure
/// passed to `register`, DTTableViewManager 11 style).
///
/// ```swift
/// manager.register(PostRow.self) { mapping in
///     mapping.condition = .section(0)
///     mapping.didSelect { row, post, indexPath in … }
/// }
/// ```
@MainActor
public protocol TypedMapping: ViewModelMapping {
    /// The row type the mapping makes.
    associatedtype Row: RowWidget
    /// The model type the mapping shows.
    associatedtype Model
}

extension TypedMapping {
    /// Applies the mapping only to models for which this returns true.
    public var modelCondition: ((IndexPath, Model) -> Bool)? {
        get { typedModelCondition.map { condition in { indexPath, model in condition(indexPath, model) } } }
        set { typedModelCondition = newValue.map { condition in { indexPath, model in condition(indexPath, model as! Model) } } }
    }

    /// Adds a typed reaction to `event`.
    public func on(_ event: EventKind, _ closure: @escaping (Row, Model, IndexPath) -> Void) {
        addReaction(event) { row, model, indexPath in
            closure(row as! Row, model as! Model, indexPath)
        }
    }

    /// The row was selected.
    public func didSelect(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.didSelect, closure) }
    /// The row was deselected.
    public func didDeselect(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.didDeselect, closure) }
    /// The row was activated (double click or Enter; a single click with single-click activation).
    public func didActivate(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.didActivate, closure) }
    /// The row was just updated with its model (on bind and on content updates).
    public func configure(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.configure, closure) }
    /// The row was bound to a model and is about to be shown.
    public func willDisplay(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.willDisplay, closure) }
    /// The row was unbound from its model.
    public func didEndDisplaying(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.didEndDisplaying, closure) }
    /// The user deleted the item (see `ListViewManager.commitDelete`).
    public func commitDelete(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.commitDelete, closure) }
    /// The pointer entered the row.
    public func didHighlight(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.didHighlight, closure) }
    /// The pointer left the row.
    public func didUnhighlight(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.didUnhighlight, closure) }
    /// The keyboard focus moved to the row.
    public func didFocus(_ closure: @escaping (Row, Model, IndexPath) -> Void) { on(.didFocus, closure) }
    /// Builds the entries of the context menu of this mapping's rows, item, header or footer
    /// rows as the mapping is (see `ItemViewManager.contextMenu` and `contextMenuHeader`).
    public func contextMenu(_ build: @escaping (Row, Model, IndexPath) -> [MenuEntry]) {
        menuBuilders.append { row, model, indexPath in build(row as! Row, model as! Model, indexPath) }
    }
}

/// The mapping of a row type that shows its model itself (`ModelTransfer`).
@MainActor
public final class RowMapping<RowType: RowWidget & ModelTransfer>: ViewModelMapping, TypedMapping {
    public typealias Row = RowType
    public typealias Model = RowType.ModelType

    init(kind: MappingKind) {
        super.init(kind: kind, rowType: RowType.self, modelType: RowType.ModelType.self) { row, model in row.update(with: model) }
    }
}

/// The mapping of a row type that does not adopt `ModelTransfer`: its handler fills the row
/// with the model (DTTableViewManager 11's `register(_:for:mapping:handler:)`), on bind and
/// whenever the item is updated in place, before any other `configure` reaction and before
/// `willDisplay`.
@MainActor
public final class HandlerMapping<RowType: RowWidget, ModelType>: ViewModelMapping, TypedMapping {
    public typealias Row = RowType
    public typealias Model = ModelType

    init(kind: MappingKind, handler: @escaping (RowType, ModelType, IndexPath) -> Void) {
        super.init(kind: kind, rowType: RowType.self, modelType: ModelType.self) { _, _ in }
        on(.configure, handler)
    }
}
