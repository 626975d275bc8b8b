import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    // MARK: Item row events (DTTableViewManager 10 style; see RowMapping for the 11 style)

    /// `rowType`'s row was selected.
    public func didSelect<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didSelect, .item, closure)
    }

    /// `rowType`'s row was deselected.
    public func didDeselect<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didDeselect, .item, closure)
    }

    /// `rowType`'s row was activated (GtkListView's `activate`: double click or Enter, or a
    /// single click with `configuration.singleClickActivation`).
    public func didActivate<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didActivate, .item, closure)
    }

    /// `rowType`'s row was just updated with its model, on bind or in place.
    public func configure<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.configure, .item, closure)
    }

    /// `rowType`'s row was bound and is about to be shown.
    public func willDisplay<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.willDisplay, .item, closure)
    }

    /// `rowType`'s row was unbound from its model.
    public func didEndDisplaying<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didEndDisplaying, .item, closure)
    }

    // MARK: Header and footer row events

    /// A header row of `rowType` was updated with its model; the index path is the
    /// section's first item's.
    public func configureHeader<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.configure, .header, closure)
    }

    /// A header row of `rowType` is about to be shown.
    public func willDisplayHeader<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.willDisplay, .header, closure)
    }

    /// A header row of `rowType` was unbound.
    public func didEndDisplayingHeader<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didEndDisplaying, .header, closure)
    }

    /// A footer row of `rowType` was updated with its model.
    public func configureFooter<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.configure, .footer, closure)
    }

    /// A footer row of `rowType` is about to be shown.
    public func willDisplayFooter<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.willDisplay, .footer, closure)
    }

    /// A footer row of `rowType` was unbound.
    public func didEndDisplayingFooter<T: RowWidget & ModelTransfer>(_ rowType: T.Type, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        attach(.didEndDisplaying, .footer, closure)
    }

    // MARK: Model-only events

    /// An item of `modelType` was selected, whether or not its row is on screen.
    public func didSelect<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.didSelect, closure)
    }

    /// An item of `modelType` was deselected, whether or not its row is on screen.
    public func didDeselect<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.didDeselect, closure)
    }

    /// An item of `modelType` was activated.
    public func didActivate<Model>(model modelType: Model.Type, _ closure: @escaping (Model, IndexPath) -> Void) {
        attachModelEvent(.didActivate, closure)
    }

    // MARK: Firing

    /// Fires `event` for the item at `position`: the reactions of its bound row's mapping (if
    /// its row is on screen) and the model-only reactions.
    func fireItemEvent(_ event: EventKind, at position: Int) {
        guard case .item(let indexPath)? = bridge.row(at: position), let model = bridge.model(of: .item(indexPath)) else { return }
        fireItemEvent(event, model: model, indexPath: indexPath, position: position)
    }

    /// Fires `event` for `model` at `indexPath`: the reactions of the mapping of the row
    /// bound at `position` (when there is one) and the model-only reactions.
    func fireItemEvent(_ event: EventKind, model: Any, indexPath: IndexPath, position: Int?) {
        if let position {
            for (_, entry) in boundRows(at: position) {
                entry.mapping.fire(event, row: entry.row, model: model, indexPath: indexPath)
            }
        }
        for reaction in modelEvents[event] ?? [] {
            reaction(model, indexPath)
        }
    }

    func attach<T: RowWidget & ModelTransfer>(_ event: EventKind, _ kind: MappingKind, _ closure: @escaping (T, T.ModelType, IndexPath) -> Void) {
        let mappings = registeredMappings(kind, rowType: ObjectIdentifier(T.self))
        guard !mappings.isEmpty else {
            anomalyHandler.report(.eventRegisteredForUnregisteredMapping(rowType: String(describing: T.self), kind: kind, event: event.description))
            return
        }
        reportIfUnused(event, of: kind, rowType: String(describing: T.self))
        for mapping in mappings {
            mapping.addReaction(event) { row, model, indexPath in
                closure(row as! T, model as! T.ModelType, indexPath)
            }
        }
    }

    /// Reports `event` of a `kind` row type as `unusedEventDetected` when this view never
    /// shows rows of that kind (a grid's headers and footers, a column view's footers).
    func reportIfUnused(_ event: EventKind, of kind: MappingKind, rowType: String) {
        let shown: Bool
        switch kind {
        case .item: shown = true
        case .header: shown = self.kind.showsSupplementaryRows || showsNativeSectionHeaders
        case .footer: shown = self.kind.showsSupplementaryRows
        }
        guard !shown, event.appliesToSupplementaryRows else { return }
        anomalyHandler.report(.unusedEventDetected(rowType: rowType, event: event.description,
                                                   reason: "a \(self.kind.name) shows no \(kind) rows"))
    }

    /// `closure`, taking any model: its answer for models of type `Model`, nil for the others
    /// (how the manager keeps its per-model-type rules, providers and reactions). A row type
    /// given where a model type belongs (`didSelect(model: PostRow.self)`) would never match:
    /// it is reported as `modelEventCalledWithCellClass`.
    func forModels<Model, Answer>(_ closure: @escaping (Model, IndexPath) -> Answer, method: String = #function) -> (Any, IndexPath) -> Answer? {
        if Model.self is any RowWidget.Type {
            anomalyHandler.report(.modelEventCalledWithCellClass(modelType: String(describing: Model.self), method: method))
        }
        return { model, indexPath in (model as? Model).map { closure($0, indexPath) } }
    }

    func attachModelEvent<Model>(_ event: EventKind, _ closure: @escaping (Model, IndexPath) -> Void, method: String = #function) {
        let reaction = forModels(closure, method: method)
        modelEvents[event, default: []].append { _ = reaction($0, $1) }
    }

    /// Connects GtkListView's `activate` to `didActivate`.
    func connectActivation() {
        Signal.connect(UnsafeMutableRawPointer(view), "activate") { [weak self] (position: UInt32) in
            // A sectioned grid's strips are GTK's rows; its tiles activate (`tiles.activate-item`).
            guard let self, !kind.showsTiles else { return }
            fireItemEvent(.didActivate, at: Int(position))
        }
        kind.setSingleClickActivation(view, configuration.singleClickActivation)
    }
}
