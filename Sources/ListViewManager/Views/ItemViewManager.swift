import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// The machinery `ListViewManager`, `GridViewManager` and `ColumnViewManager` share: the
/// storage and its updater, the GListModel bridge and the flat layout, the mappings of
/// model types to row types, typed events, selection, deletion, moves, menus and anomalies.
///
/// Use one of its subclasses; everything documented here works the same on each view.
/// GTK 4.8 has no sections: a list shows each section as a header row, its item rows and
/// a footer row; header and footer rows are neither selectable nor activatable. A grid or
/// a column view shows the items of the sections in order, without headers or footers.
///
/// With `Configuration.usesGTKSectionHeaders`, a list view or a column view on GTK 4.12 and
/// later shows each section's header itself, above the section's rows (GtkSectionModel and
/// a header factory),
/// with the same header row types, events and index paths; footers stay rows. Headers then
/// take no positions in the list: an empty section that shows its header keeps one empty
/// row for GTK to show the header above.
@MainActor
public class ItemViewManager {
    private let viewReference: ObjectReference<UnsafeMutablePointer<GtkWidget>>
    /// The GTK view driven: a GtkListView, GtkGridView or GtkColumnView.
    public var view: UnsafeMutablePointer<GtkWidget> { viewReference.pointer }
    /// What differs between the kinds of view.
    let kind: ViewKind
    /// Where the models come from. Setting it reloads the list.
    public var storage: Storage {
        willSet { if storage.delegate === storageUpdater { storage.delegate = nil } }
        didSet {
            attach(storage)
            updatePrefetching()
        }
    }
    /// The storage when it is a `MemoryStorage` (the default), else nil.
    public var memoryStorage: MemoryStorage! { storage as? MemoryStorage }
    /// Receives this manager's anomalies; by default they are GLib warnings.
    public let anomalyHandler = ListViewManagerAnomalyHandler()
    /// How sections are shown. Setting it reloads the list.
    public var configuration = Configuration() {
        didSet {
            kind.setSingleClickActivation(view, configuration.singleClickActivation)
            if kind.layoutOptions(configuration) != kind.layoutOptions(oldValue) {
                updater.reload(from: storage, options: layoutOptions)
            }
            attachHeaderFactory()
            pinnedHeader?.setNeedsRefresh()
            if configuration.livesAtBottom, !oldValue.livesAtBottom { scrollToBottom() }
            if configuration.prefetchCount != oldValue.prefetchCount { updatePrefetching() }
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
    /// The item factory of a list or grid view (of a sectioned grid's tiles).
    let factory: RowFactory
    /// The factory of the section headers the view shows itself (GTK 4.12 and later, list
    /// and column views), on the view while `usesGTKSectionHeaders` is on; nil when the view
    /// has none.
    let headerFactory: RowFactory?
    /// A column view's columns, in the order added (none for a list or grid): each has its
    /// cells' factory, and its cell mapping, which events name as a row type.
    var tableColumns: [TableColumn] = []
    /// The factories of a column view's columns, in order.
    var columnFactories: [RowFactory] { tableColumns.compactMap(\.factory) }
    /// Applies the storage's updates to `bridge`, taking the participants through them.
    let updater: ListViewUpdater
    /// The pinned copy of the current section's header, once the view is shown through
    /// the manager itself (its `gtkWidget`).
    var pinnedHeader: PinnedHeader? {
        didSet { listUpdateParticipants() }
    }
    /// The view's own list, when it has one (a sectioned grid's strips), which follows each
    /// change after the list GTK reads (see `ViewOwnList`).
    var viewOwnList: (any ViewOwnList)? {
        didSet { listUpdateParticipants() }
    }
    /// The bound rows' part in each change.
    private(set) lazy var boundRowsFollower = BoundRowsFollower(manager: self)
    /// What keeps the view on the same items through each change.
    private(set) lazy var scrollAnchor = ScrollAnchor(manager: self)
    /// Whether `scrollTo` (or `restore`) is taking the view to a row: the view is not kept
    /// where it was meanwhile.
    var isScrollingToARow = false
    /// Counts the scrolls to a row asked for: only the last one asked for goes on.
    var scrollsAskedFor = 0
    /// Counts the places restored: a place waiting for its storage's items (`restore`)
    /// stops waiting once another is restored.
    var placesRestored = 0
    /// Whether the view is about to lay its rows out again for a new width (a sectioned
    /// grid's strips): a place in it is looked for after that.
    var isReflowing: Bool { false }
    /// The item the user is moving (a drop, a move of the keyboard), while the move is
    /// applied: the view does not follow it.
    var itemMovedByUser: IndexPath?
    /// `gtkWidget`, once asked for.
    var scrolledViewReference: ObjectReference<UnsafeMutablePointer<GtkWidget>>?
    var resolver: MappingResolver
    /// Rows shown for models no mapping applies to, per kind.
    let missingMappings: [MappingKind: ViewModelMapping] = [
        .item: RowMapping<MissingMappingRow>(kind: .item),
        .header: RowMapping<MissingMappingRow>(kind: .header),
        .footer: RowMapping<MissingMappingRow>(kind: .footer),
    ]
    /// Model-only events: they fire whether or not the item's row is on screen.
    var modelEvents: [EventKind: [(Any, IndexPath) -> Void]] = [:]
    /// The app's rules for selection and focus, by model type.
    var selectionRules = SelectionRules()
    /// Follows the keyboard focus from row to row, for `didFocus`.
    var focusWatch: FocusWatch?
    /// The app's rules for deleting, moving and dropping items, by model type.
    var editingRules = EditingRules()
    /// The app's tooltips and accessible names of rows, by model type.
    var rowDescriptions = RowDescriptions()
    /// The item being dragged, followed through updates, and the drop indicator.
    let drag = DragState()
    /// A drag over the list: the line follows rows moving under it, and the pinned header
    /// scrolls the list up.
    private(set) lazy var dragHover = DragHover(view: view)
    /// The app's context menu entries, by model type.
    var contextMenuBuilders = ContextMenuBuilders()
    /// The context menu.
    private(set) lazy var contextMenus = ContextMenuPresenter(manager: self)
    /// The long press on the list view that opens a row's menu (the view holds it).
    var menuLongPress: OpaquePointer?
    var selection: SelectionState! {
        didSet { listUpdateParticipants() }
    }
    /// Reports header and footer models the view cannot show.
    private(set) lazy var hiddenRowsCheck = HiddenSupplementaryRowsCheck(manager: self)
    /// The size request of every item row, if set (a grid's `itemSize`).
    var itemSizeRequest: (width: Int, height: Int)?
    /// The position whose row the pointer just left, until its `didUnhighlight` fires (see
    /// `pointerLeft`).
    var pendingUnhighlight: Int?
    /// A scroll asked for before the view had a size, done after the layout that gives it
    /// one (see `whenSized`).
    var pendingScroll: AfterLayout?
    /// The app's texts for type-ahead find, by model type.
    var typeAheadTexts: [@MainActor (Any, IndexPath) -> String?] = []
    /// Type-ahead find, on the view.
    var typeAhead: TypeAheadFind?
    /// The section index beside the view, once the app gave it titles.
    var sectionIndex: SectionIndex? {
        didSet { listUpdateParticipants() }
    }
    /// Prefetches the items about to be shown, while there is something to prefetch for.
    var prefetcher: Prefetch? {
        didSet { listUpdateParticipants() }
    }
    /// Model types already reported as having no mapping (reported once each).
    var reportedMissingMappings: Set<String> = []

    /// How a manager shows sections.
    public struct Configuration: Equatable, Sendable {
        /// Whether a section without items shows its header row.
        public var displayHeaderOnEmptySection = true
        /// Whether a section without items shows its footer row.
        public var displayFooterOnEmptySection = true
        /// Whether a list view (or a column view) shows section headers itself on GTK 4.12
        /// and later, as GtkListHeaders (read by screen readers as row headers) that take no
        /// positions in the list; on GTK 4.8 a list's headers are rows either way, and a
        /// column view shows none. Off by default: GTK 4.18's headers scroll with their
        /// section (they are not pinned, and the pinned copy is not shown over them), and
        /// updates cost GTK more (see BENCHMARKS.md), so header rows look and behave the
        /// same on every GTK.
        public var usesGTKSectionHeaders = false
        /// Whether a copy of the current section's header stays at the top of the list
        /// while the section's rows scroll under it (the default), on every GTK. It is shown
        /// over a list view put into a window through the manager itself (its `gtkWidget`).
        public var pinsSectionHeaders = true
        /// Whether a single click activates a row (else a double click or Enter).
        public var singleClickActivation = false
        /// Whether items the user deletes (the Delete key, a menu entry) are removed from
        /// the `MemoryStorage` by the manager after their `commitDelete` events. When false,
        /// the app removes them in its `commitDelete` reaction.
        public var removesDeletedItems = false
        /// Whether items the user drags to another place are moved in the `MemoryStorage` by
        /// the manager after their `moveItem` events (DTModelStorage's
        /// `moveItemWithoutAnimation`), and items dropped from another managed list inserted
        /// after their `didDropFromOtherList` events (and removed from the list they leave,
        /// when that list's manager has this on too). When false, the app does it in its
        /// reactions.
        public var movesItemsInStorage = false
        /// Whether the view stays on the same items through every change of the storage: the
        /// item row at the top (or the one with the keyboard focus) keeps its place on screen
        /// through inserts and removes above it, moves, re-sorts, snapshots and a storage
        /// replaced by one with the same items (found by identity, see `ListPlace`); when it
        /// goes, the nearest one that stays takes its place. An item the user moves is not
        /// followed, nor is the user's own scrolling undone. A list scrolled to its very top
        /// stays at its top (what comes there is shown, as new mail at the top of an inbox).
        /// On by default; off, GTK's own behaviour: the view keeps its scroll offset, whatever
        /// rows are then under it.
        public var keepsPlace = true
        /// Whether the list lives at its bottom, as a chat, a log or a terminal does: it opens
        /// at its last row; while the view is at the bottom, items added at the end keep it
        /// there; scrolled up, the view keeps its place as with `keepsPlace` (items loaded
        /// above do not move it either), and `newItemsBelow` counts what came below.
        public var livesAtBottom = false
        /// How typing while the list has the keyboard focus finds an item (type-ahead find,
        /// as GtkTreeView's interactive search): the next item whose text starts with what
        /// was typed, by default (see `typeAheadText(model:_:)`).
        public var typeAhead = TypeAheadMatch.startsWith
        /// How many rows beyond the view, in the direction the user scrolls, are looked at
        /// for items to prefetch (the working range; headers and footers count): the
        /// `prefetch` events, and a paged storage's pages read ahead (see
        /// `PrefetchingStorage`). 0 turns prefetching off.
        public var prefetchCount = 24

        /// The default configuration.
        public init() {}

        var layoutOptions: FlatLayoutOptions {
            FlatLayoutOptions(displayHeaderOnEmptySection: displayHeaderOnEmptySection, displayFooterOnEmptySection: displayFooterOnEmptySection)
        }
    }

    /// Creates a manager for `view`, of `kind`, showing `storage`; the subclass then gives
    /// the view its factory (or its columns theirs).
    init(view: UnsafeMutablePointer<GtkWidget>, kind: ViewKind, storage: Storage?, selectionMode: SelectionMode) {
        viewReference = ObjectReference(sinking: view)
        self.kind = kind
        factory = RowFactory(slots: kind.showsTiles ? .tiles : .listItems)
        factory.updatesHiddenRowsWhenShown(in: view)
        let storage = storage ?? MemoryStorage.reportingToGLib()
        self.storage = storage
        resolver = MappingResolver(fallbacks: [RowMapping<TitleRow>(kind: .header), RowMapping<TitleRow>(kind: .footer),
                                               RowMapping<ChildrenLoadingRow>(kind: .item), RowMapping<ChildrenLoadingFailedRow>(kind: .item)])
        bridge = ListModelBridge(models: storage, options: kind.layoutOptions(configuration))
        updater = ListViewUpdater(bridge: bridge, storage: storage, options: kind.layoutOptions(configuration))
        storageUpdater = updater
        headerFactory = kind.showsSectionHeaders ? RowFactory(slots: .sectionHeaders) : nil
        factory.delegate = self
        headerFactory?.delegate = self
        selection = SelectionState(manager: self, mode: selectionMode)
        listUpdateParticipants()
        updater.owner = self
        connectActivation()
        installKeyboardNavigation()
        typeAhead = TypeAheadFind(manager: self)
        updatePrefetching()
        listUpdateParticipants()  // (no `didSet` inside `init`)
        installRowActions()
        installContextMenuInput()
        installDropTarget()
        storage.delegate = storageUpdater
        followExpansion(of: storage)
        // A storage given here may hold header models the view cannot show: reported once
        // the main loop runs, so that a handler the app sets right after init hears it.
        whenIdle { [weak self] in
            guard let self else { return }
            hiddenRowsCheck.notice(in: self.storage, sections: Array(0..<self.storage.numberOfSections()))
        }
    }

    isolated deinit {
        updater.detach()
        contextMenus.detach()
        typeAhead?.detach()
        let (viewReference, kind) = (viewReference, kind)
        let takeApart = {  // the view's last reference goes with this closure
            kind.setModel(viewReference.pointer, nil)
            kind.detachFactories(viewReference.pointer)
        }
        guard RowFactory.isInsideGTKCall else { return takeApart() }
        // Dropped from inside a row's event (a configure handler, say): GTK is binding the
        // view's list items, and taking its model and factories now aborts GTK
        // (gtklistitemwidget.c asserts). The view is taken apart once GTK is done, its
        // model answering until then; the rows' handlers find no manager meanwhile.
        let model = bridge
        whenIdle {
            takeApart()
            withExtendedLifetime(model) {}
        }
    }

    /// Gives the view its header factory while it shows GTK's section headers, and takes it
    /// back otherwise (GTK then handles no sections at all). A column view gets it only
    /// once it has a column: GTK 4.18 traps when a column view that has a header factory
    /// gets a column (it makes cells for its headers too, and disposes of them still in
    /// their column: "gtk_column_view_cell_widget_dispose: runtime check failed"), so
    /// `ColumnViewManager` also takes it back while it adds a column.
    func attachHeaderFactory() {
        guard let headerFactory else { return }
        let shows = kind.showsSectionHeaders(configuration) && (!kind.headerFactoryNeedsColumns || !tableColumns.isEmpty)
        kind.setHeaderFactory(view, shows ? headerFactory.factory : nil)
        // GTK anchors a list to the top of its first item (`gtk_list_base_set_model`), below
        // the first section's header: the list would open scrolled by the header's height.
        if shows { revealSectionHeader(above: 0) }
    }

    private func attach(_ storage: Storage) {
        storage.delegate = storageUpdater
        followExpansion(of: storage)
        updater.reload(from: storage, options: layoutOptions)
    }

    // MARK: Rows

    /// The index path of a flat row (a header or footer has its section's first item's).
    static func indexPath(of row: FlatRow) -> IndexPath {
        switch row {
        case .item(let indexPath): return indexPath
        case .header(let section), .footer(let section): return IndexPath(item: 0, section: section)
        }
    }

    /// Whether the view shows section headers itself (a list view on GTK 4.12 and later,
    /// with `usesGTKSectionHeaders`): headers then take no positions in the list.
    public var showsNativeSectionHeaders: Bool { kind.showsSectionHeaders(configuration) }

    /// How the flat layout shows sections in this kind of view, as configured.
    var layoutOptions: FlatLayoutOptions { kind.layoutOptions(configuration) }

    /// The factories making the view's rows: the item factory of a list or grid, the
    /// columns' factories of a column view.
    var factories: [RowFactory] { tableColumns.isEmpty ? [factory] : columnFactories }

    /// Every bound row (every bound cell of a column view), with its list item.
    var boundRows: [(listItem: OpaquePointer, row: RowFactory.AttachedRow)] {
        factories.flatMap(\.boundRows)
    }

    /// The bound rows showing the flat row at `position`: one in a list or grid, one per
    /// column (a cell each) in a column view, none when it is not on screen.
    func boundRows(at position: Int) -> [(listItem: OpaquePointer, row: RowFactory.AttachedRow)] {
        factories.compactMap { factory in
            factory.boundListItem(at: position).flatMap { listItem in factory.attached[listItem].map { (listItem, $0) } }
        }
    }

    /// The widget GTK made for the item holding `row`, which screen readers see as the
    /// item and which has the keyboard focus: the list or grid view's child, or the column
    /// view's row holding the cell `row`.
    func itemWidget(of row: RowWidget) -> UnsafeMutablePointer<GtkWidget>? {
        if viewOwnList != nil { return tileSlot(containing: row.rootWidget) }
        let listBase = kind.listBase(view)
        var widget = row.rootWidget
        while let parent = gtk_widget_get_parent(widget) {
            if parent == listBase { return widget }
            widget = parent
        }
        return nil
    }

    /// The bound row showing the item at `indexPath`, if it is on screen (in a column view,
    /// the cell of the column added first).
    public func row(at indexPath: IndexPath) -> RowWidget? {
        guard let position = bridge.layout.position(of: .item(indexPath)) else { return nil }
        return boundRows(at: position).first?.row.row
    }

    /// The position in the list view of the item at `indexPath`.
    public func position(of indexPath: IndexPath) -> Int? {
        bridge.layout.position(of: .item(indexPath))
    }

    /// The number of rows in the list view, headers and footers included.
    public var numberOfRows: Int { bridge.count }

    /// How many times rows were updated with a model (binds and in-place updates; in a
    /// column view, cells).
    public var rowUpdateCount: Int { factories.reduce(0) { $0 + $1.updateCount } }

    /// How many item objects GTK asked the list model for (`get_item` calls).
    public var itemRequestCount: Int { bridge.itemRequests }

    /// How many rows are bound to a model now (GTK's realised rows; in a column view, the
    /// cells: rows × columns).
    public var boundRowCount: Int { boundRows.count }

    /// How many row widgets were created (the rest were reused; in a column view, cells).
    public var createdRowCount: Int { factories.reduce(0) { $0 + $1.createdCount } }
}

extension MemoryStorage {
    /// A storage whose anomalies are GLib warnings like the manager's, unless the app has
    /// replaced `MemoryStorageAnomaly.defaultAction`: then they go there, as any storage's do.
    static func reportingToGLib() -> MemoryStorage {
        let storage = MemoryStorage()
        storage.anomalyHandler.anomalyAction = { anomaly in
            if MemoryStorageAnomaly.hasCustomDefaultAction {
                MemoryStorageAnomaly.defaultAction(anomaly)
            } else {
                logWarning(anomaly.debugDescription)
            }
        }
        return storage
    }
}
