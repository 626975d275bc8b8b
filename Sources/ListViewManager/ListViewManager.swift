import CGtk
import CGtkShims
import Foundation
import ModelStorage

/// Drives a GtkListView from a storage: register which row type shows which model type,
/// put models into the storage, and the list follows every change, with typed events.
///
/// ```swift
/// let manager = ListViewManager(listView: listView)
/// manager.register(PostRow.self)
/// manager.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
/// manager.memoryStorage.addItems(todayPosts, toSection: 0)
/// manager.didSelect(PostRow.self) { row, post, indexPath in … }
/// ```
///
/// GTK 4.8 has no sections: each section is shown as a header row, its item rows and a
/// footer row. Header and footer rows are neither selectable nor activatable.
@MainActor
public final class ListViewManager {
    /// The GtkListView (one reference, owned here).
    public let listView: UnsafeMutablePointer<GtkWidget>
    /// Where the models come from. Setting it reloads the list.
    public var storage: Storage {
        willSet { if storage.delegate === storageUpdater { storage.delegate = nil } }
        didSet { attach(storage) }
    }
    /// The storage when it is a `MemoryStorage` (the default), else nil.
    public var memoryStorage: MemoryStorage! { storage as? MemoryStorage }
    /// Receives this manager's anomalies; by default they are GLib warnings.
    public let anomalyHandler = ListViewManagerAnomalyHandler()
    /// How sections are shown. Setting it reloads the list.
    public var configuration = Configuration() {
        didSet {
            gtk_list_view_set_single_click_activate(OpaquePointer(listView), configuration.singleClickActivation ? 1 : 0)
            if configuration.layoutOptions != oldValue.layoutOptions {
                updater.reload(options: configuration.layoutOptions)
            }
        }
    }
    /// The storage's delegate: the built-in `contentUpdater` unless replaced. A replacement
    /// (to log, batch or defer updates, say) must pass every update on to `contentUpdater`,
    /// or the list view stops following the storage.
    public var storageUpdater: StorageUpdating {
        didSet {
            if storage.delegate === oldValue { storage.delegate = storageUpdater }
        }
    }

    let bridge: ListModelBridge
    let factory = RowFactory()
    let updater = ListViewUpdater()
    var resolver: MappingResolver
    /// Rows shown for models no mapping applies to, per kind.
    let missingMappings: [MappingKind: ViewModelMapping] = [
        .item: RowMapping<MissingMappingRow>(kind: .item),
        .header: RowMapping<MissingMappingRow>(kind: .header),
        .footer: RowMapping<MissingMappingRow>(kind: .footer),
    ]
    /// Model-only events: they fire whether or not the item's row is on screen.
    var modelEvents: [EventKind: [(Any, IndexPath) -> Void]] = [:]
    /// Model-only selection filters; nil when the model is not of the filter's type.
    var selectionFilters: [(Any, IndexPath) -> Bool?] = []
    /// Deletion filters, as `selectionFilters`; an item no filter speaks for is not deletable.
    var deletionFilters: [(Any, IndexPath) -> Bool?] = []
    /// Tooltip texts by model type; nil when the model is not of the provider's type.
    var tooltipProviders: [(Any, IndexPath) -> String??] = []
    /// Accessible labels by model type, as `tooltipProviders`.
    var accessibilityLabelProviders: [(Any, IndexPath) -> String??] = []
    /// Move filters, as `deletionFilters`.
    var moveFilters: [(Any, IndexPath) -> Bool?] = []
    /// Reactions to moves: the moved item's bound row (if any), its model, from, to.
    var moveReactions: [(RowWidget?, Any, IndexPath, IndexPath) -> Void] = []
    /// Reactions to content dropped from outside the list, with the insertion point.
    var dropReactions: [(DroppedContent, IndexPath) -> Void] = []
    /// The item being dragged, followed through updates, and the drop indicator.
    let drag = DragState()
    /// Model-level builders of context menu entries.
    var menuBuilders: [(Any, IndexPath) -> [MenuEntry]] = []
    /// The context menu.
    private(set) lazy var contextMenus = ContextMenuPresenter(manager: self)
    var selection: SelectionState!
    /// Model types already reported as having no mapping (reported once each).
    var reportedMissingMappings: Set<String> = []

    /// How a manager shows sections.
    public struct Configuration: Equatable, Sendable {
        /// Whether a section without items shows its header row.
        public var displayHeaderOnEmptySection = true
        /// Whether a section without items shows its footer row.
        public var displayFooterOnEmptySection = true
        /// Whether a single click activates a row (else a double click or Enter).
        public var singleClickActivation = false
        /// Whether items the user deletes (the Delete key, a menu entry) are removed from
        /// the `MemoryStorage` by the manager after their `commitDelete` events. When false,
        /// the app removes them in its `commitDelete` reaction.
        public var removesDeletedItems = false
        /// Whether items the user drags to another place are moved in the `MemoryStorage` by
        /// the manager after their `moveItem` events (DTModelStorage's
        /// `moveItemWithoutAnimation`). When false, the app moves them in its reaction.
        public var movesItemsInStorage = false

        /// The default configuration.
        public init() {}

        var layoutOptions: FlatLayoutOptions {
            FlatLayoutOptions(displayHeaderOnEmptySection: displayHeaderOnEmptySection, displayFooterOnEmptySection: displayFooterOnEmptySection)
        }
    }

    /// Creates a manager for `listView` (a new GtkListView when nil) showing `storage`.
    /// - Parameters:
    ///   - listView: the list view to drive; the manager sets its model and factory.
    ///   - storage: where models come from (a new `MemoryStorage` by default, whose
    ///     anomalies are then GLib warnings too).
    ///   - selectionMode: none, single (the default) or multiple.
    public init(listView: UnsafeMutablePointer<GtkWidget>? = nil, storage: Storage? = nil, selectionMode: SelectionMode = .single) {
        let widget = listView ?? gtk_list_view_new(nil, nil)!
        g_object_ref_sink(widget)
        self.listView = widget
        let storage = storage ?? MemoryStorage.reportingToGLib()
        self.storage = storage
        storageUpdater = updater
        resolver = MappingResolver(fallbacks: [RowMapping<TitleRow>(kind: .header), RowMapping<TitleRow>(kind: .footer)])
        bridge = ListModelBridge(models: storage, options: configuration.layoutOptions)
        factory.delegate = self
        updater.manager = self
        gtk_list_view_set_factory(OpaquePointer(widget), factory.factory)
        selection = SelectionState(manager: self, mode: selectionMode)
        connectActivation()
        installRowActions()
        installContextMenuGestures()
        installDropTarget()
        storage.delegate = storageUpdater
    }

    isolated deinit {
        contextMenus.detach()
        gtk_list_view_set_model(OpaquePointer(listView), nil)
        gtk_list_view_set_factory(OpaquePointer(listView), nil)
        g_object_unref(listView)
    }

    private func attach(_ storage: Storage) {
        storage.delegate = storageUpdater
        updater.reload(options: configuration.layoutOptions)
    }

    // MARK: Rows

    /// The flat row GTK sees at `position`.
    func flatRowAt(_ position: Int) -> FlatRow? {
        bridge.row(at: position)
    }

    /// The index path of a flat row (a header or footer has its section's first item's).
    static func indexPath(of row: FlatRow) -> IndexPath {
        switch row {
        case .item(let indexPath): return indexPath
        case .header(let section), .footer(let section): return IndexPath(item: 0, section: section)
        }
    }

    /// The bound row showing the item at `indexPath`, if it is on screen.
    public func row(at indexPath: IndexPath) -> RowWidget? {
        guard let position = bridge.layout.position(of: .item(indexPath)),
              let listItem = factory.boundListItem(at: position) else { return nil }
        return factory.attached[listItem]?.row
    }

    /// The position in the list view of the item at `indexPath`.
    public func position(of indexPath: IndexPath) -> Int? {
        bridge.layout.position(of: .item(indexPath))
    }

    /// The number of rows in the list view, headers and footers included.
    public var numberOfRows: Int { bridge.count }

    /// How many times rows were updated with a model (binds and in-place updates).
    public var rowUpdateCount: Int { factory.updateCount }

    /// How many item objects GTK asked the list model for (`get_item` calls).
    public var itemRequestCount: Int { bridge.itemRequests }

    /// How many rows are bound to a model now (GTK's realised rows).
    public var boundRowCount: Int { factory.boundRows.count }

    /// How many row widgets were created (the rest were reused).
    public var createdRowCount: Int { factory.createdCount }
}

extension MemoryStorage {
    /// A storage whose anomalies, by default, are GLib warnings like the manager's.
    static func reportingToGLib() -> MemoryStorage {
        let storage = MemoryStorage()
        storage.anomalyHandler.anomalyAction = { logWarning($0.debugDescription) }
        return storage
    }
}
