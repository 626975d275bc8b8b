import CGtk
import Foundation
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

    /// Removes every item mapping of `rowType`.
    public func unregister<T: RowWidget & ModelTransfer>(_ rowType: T.Type) {
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

    private func add<T>(_ newMapping: RowMapping<T>, _ bundle: Bundle, _ configure: ((RowMapping<T>) -> Void)?) {
        newMapping.templateContext = TemplateContext.Context(bundle: bundle) { [weak self] anomaly in
            self?.anomalyHandler.report(anomaly)
        }
        configure?(newMapping)
        resolver.add(newMapping)
        updateAllBoundRows()
    }

    private func remove<T: RowWidget & ModelTransfer>(_ kind: MappingKind, _ rowType: T.Type) {
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

extension ItemViewManager: RowFactoryDelegate {
    func flatRow(at position: Int) -> FlatRow? {
        bridge.row(at: position)
    }

    func sectionHeader(above item: RowItem) -> FlatRow? {
        bridge.sectionHeader(above: item)
    }

    func model(of row: FlatRow) -> Any? {
        bridge.model(of: row)
    }

    func mapping(for row: FlatRow, model: Any) -> ViewModelMapping {
        let kind: MappingKind
        switch row {
        case .item: kind = .item
        case .header: kind = .header
        case .footer: kind = .footer
        }
        let indexPath = Self.indexPath(of: row)
        if let mapping = resolver.mapping(kind, for: model, at: indexPath) { return mapping }
        let modelType = String(describing: type(of: model))
        if reportedMissingMappings.insert("\(kind) \(modelType)").inserted {
            switch row {
            case .item: anomalyHandler.report(.noItemMappingFound(modelType: modelType, indexPath: indexPath))
            case .header(let section): anomalyHandler.report(.noSupplementaryMappingFound(modelType: modelType, kind: .header, section: section))
            case .footer(let section): anomalyHandler.report(.noSupplementaryMappingFound(modelType: modelType, kind: .footer, section: section))
            }
        }
        return missingMappings[kind]!
    }

    func rowDidBind(_ entry: RowFactory.AttachedRow, listItem: OpaquePointer) {
        rowDidBind(entry, namesItem: true)
    }

    func rowDidUpdate(_ entry: RowFactory.AttachedRow) {
        rowDidUpdate(entry, namesItem: true)
    }

    /// `entry`'s row was bound: it is described (named for screen readers too when
    /// `namesItem`: one cell of a column view's row does it) and its events fire.
    func rowDidBind(_ entry: RowFactory.AttachedRow, namesItem: Bool) {
        guard let flatRow = entry.flatRow, let model = entry.item?.model else { return }
        let indexPath = Self.indexPath(of: flatRow)
        describe(entry, showing: model, at: flatRow, namesItem: namesItem)
        entry.mapping.fire(.configure, row: entry.row, model: model, indexPath: indexPath)
        entry.mapping.fire(.willDisplay, row: entry.row, model: model, indexPath: indexPath)
    }

    /// `entry`'s row was updated in place, as `rowDidBind(_:namesItem:)`.
    func rowDidUpdate(_ entry: RowFactory.AttachedRow, namesItem: Bool) {
        guard let flatRow = entry.flatRow, let model = entry.item?.model else { return }
        describe(entry, showing: model, at: flatRow, namesItem: namesItem)
        entry.mapping.fire(.configure, row: entry.row, model: model, indexPath: Self.indexPath(of: flatRow))
    }

    var rowsDependOnPlace: Bool {
        resolver.dependsOnPlace || !selectionFilters.isEmpty || !tooltipProviders.isEmpty || !accessibilityLabelProviders.isEmpty
    }

    func rowDidMove(_ entry: RowFactory.AttachedRow) {
        rowDidMove(entry, namesItem: true)
    }

    /// `entry`'s row moved: its tooltip and label are asked for again with its new index path.
    func rowDidMove(_ entry: RowFactory.AttachedRow, namesItem: Bool) {
        guard !tooltipProviders.isEmpty || !accessibilityLabelProviders.isEmpty,
              let flatRow = entry.flatRow, let model = entry.item?.model else { return }
        describe(entry, showing: model, at: flatRow, namesItem: namesItem)
    }

    func rowDidUnbind(_ entry: RowFactory.AttachedRow) {
        guard let flatRow = entry.flatRow, let model = entry.item?.model else { return }
        entry.mapping.fire(.didEndDisplaying, row: entry.row, model: model, indexPath: Self.indexPath(of: flatRow))
    }
}
