import CGtk
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    /// Shows models of `rowType.ModelType` in item rows of `rowType`.
    ///
    /// The first registered mapping that applies to a model wins; `mapping` can set a
    /// condition and attach typed events.
    /// - Parameters:
    ///   - rowType: a row type showing one model type.
    ///   - bundle: where a `TemplateRow` finds its `.ui` file (`Bundle.module` for a
    ///     package target's resources).
    ///   - mapping: configures the new mapping.
    public func register<T: RowWidget & ModelTransfer>(_ rowType: T.Type, bundle: Bundle = .main, mapping: ((RowMapping<T>) -> Void)? = nil) {
        add(RowMapping<T>(kind: .item), bundle, mapping)
    }

    /// Shows header models of `rowType.ModelType` in header rows of `rowType`. A `String`
    /// header needs no registration: it is shown as a `TitleRow`.
    public func registerHeader<T: RowWidget & ModelTransfer>(_ rowType: T.Type, bundle: Bundle = .main, mapping: ((RowMapping<T>) -> Void)? = nil) {
        add(RowMapping<T>(kind: .header), bundle, mapping)
    }

    /// Shows footer models of `rowType.ModelType` in footer rows of `rowType`. A `String`
    /// footer needs no registration: it is shown as a `TitleRow`.
    public func registerFooter<T: RowWidget & ModelTransfer>(_ rowType: T.Type, bundle: Bundle = .main, mapping: ((RowMapping<T>) -> Void)? = nil) {
        add(RowMapping<T>(kind: .footer), bundle, mapping)
    }

    /// Shows models of `modelType` in item rows of `rowType`, a row type that does not adopt
    /// `ModelTransfer`: `handler` fills the row with its model and index path, on bind and
    /// whenever the item is updated in place, before `willDisplay`.
    ///
    /// ```swift
    /// manager.register(Label.self, for: String.self) { label, text, _ in label.text = text }
    /// ```
    public func register<Row: RowWidget, Model>(_ rowType: Row.Type, for modelType: Model.Type, bundle: Bundle = .main,
                                                mapping: ((HandlerMapping<Row, Model>) -> Void)? = nil,
                                                handler: @escaping (Row, Model, IndexPath) -> Void) {
        add(HandlerMapping<Row, Model>(kind: .item, handler: handler), bundle, mapping)
    }

    /// Removes every item mapping of `rowType`.
    public func unregister<T: RowWidget>(_ rowType: T.Type) {
        remove(.item, rowType)
    }

    /// Removes every header mapping of `rowType`.
    public func unregisterHeader<T: RowWidget & ModelTransfer>(_ rowType: T.Type) {
        remove(.header, rowType)
    }

    /// Removes every footer mapping of `rowType`.
    public func unregisterFooter<T: RowWidget & ModelTransfer>(_ rowType: T.Type) {
        remove(.footer, rowType)
    }

    /// Calls `configure` with the row type and its model type, so that events can be
    /// registered with both inferred (DTTableViewManager's `configureEvents(for:)`).
    public func configureEvents<T: RowWidget & ModelTransfer>(for rowType: T.Type, _ configure: (T.Type, T.ModelType.Type) -> Void) {
        configure(T.self, T.ModelType.self)
    }

    private func add<Mapping: TypedMapping>(_ newMapping: Mapping, _ bundle: Bundle, _ configure: ((Mapping) -> Void)?) {
        newMapping.templateContext = TemplateContext.Context(bundle: bundle) { [weak self] anomaly in
            self?.anomalyHandler.report(anomaly)
        }
        configure?(newMapping)
        if newMapping.kind != .item {
            for event in newMapping.reactions.keys.sorted(by: { $0.description < $1.description }) {
                if event.appliesToSupplementaryRows {
                    reportIfUnused(event, of: newMapping.kind, rowType: newMapping.rowTypeName)
                } else {
                    anomalyHandler.report(.eventNotSupportedForSupplementaryRows(rowType: newMapping.rowTypeName, event: event.description))
                }
            }
        }
        resolver.add(newMapping)
        updateAllBoundRows()
    }

    private func remove<T: RowWidget>(_ kind: MappingKind, _ rowType: T.Type) {
        resolver.remove { $0.kind == kind && $0.rowType == ObjectIdentifier(rowType) }
        updateAllBoundRows()
    }
}

extension ItemViewManager {
    /// The mappings of `rowType` for `kind` rows: registered ones and column cells.
    func registeredMappings(_ kind: MappingKind, rowType: ObjectIdentifier) -> [ViewModelMapping] {
        resolver.mappings(kind, rowType: rowType) + tableColumns.map(\.mapping).filter { $0.kind == kind && $0.rowType == rowType }
    }
}
