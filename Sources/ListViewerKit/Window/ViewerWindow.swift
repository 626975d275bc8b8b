import CGtk
import Foundation
import ListViewManager
import Synchronization

/// The viewer's window: a header bar (back, title and item count, progress, search), the
/// list, and a details pane for the selected item.
@MainActor
public final class ViewerWindow {
    /// The application window.
    public let window: ApplicationWindow
    /// The list view's manager (the view shown at first).
    public let manager: ListViewManager
    /// The grid view's manager.
    public let gridManager: SectionedGridViewManager
    /// The table's manager.
    public let tableManager: ColumnViewManager
    /// The view shown: list, grid or table (`setViewMode(_:)` switches).
    public internal(set) var viewMode: ViewMode = .list
    /// What the active view shows: the search's storage, or a database table's.
    var contentStorage: Storage
    /// The stack of the three views.
    let viewStack = Stack()
    /// The header bar's view buttons.
    var modeButtons: [ViewMode: ToggleButton] = [:]
    public let filter: SearchFilter
    let titleLabel = Label()
    let countLabel = Label()
    private let banner = Label()
    let details = DetailsPane()
    private let spinner = Spinner()
    /// The header bar's back button (shown inside a folder opened from another).
    public let backButton = Button(iconName: "go-previous-symbolic")
    /// The header bar's search entry.
    public let searchEntry = SearchEntry()
    /// Folders opened before the current one (file system paths, any bytes).
    var history: [[UInt8]] = []
    var currentDirectory: [UInt8]?
    /// Each folder's and table's place when the user left it.
    var sourcePlaces = SourcePlaces()
    /// Identifies the current load: batches of a folder left meanwhile are dropped, and its
    /// reading thread stops.
    var loadGeneration = 0
    let activeLoad = ActiveLoad()
    /// Where the followed database's fetch error stands in the banner.
    var fetchError = FetchErrorInBanner.none
    /// Counts the databases asked for (`openDatabase`, `openServerTable`): only the last one
    /// asked for is shown.
    var databaseOpens = 0
    /// The database table shown, if any (else the list shows `filter`'s storage).
    public internal(set) var followedTable: (any FollowedTable)?
    /// The SQLite table shown, if any.
    public var liveTable: LiveTable? { followedTable as? LiveTable }
    /// The PostgreSQL table shown, if any.
    public var serverTable: ServerTable? { followedTable as? ServerTable }
    /// Whether the window was closed (it loads nothing more).
    private(set) var isClosed = false
    /// Whether the content is fully loaded.
    public internal(set) var isLoaded = false
    /// Runs once each time the content is fully loaded.
    public var onLoaded: () -> Void = {}

    public init(application: Application) {
        window = ApplicationWindow(application: application, title: tr("List Viewer"), width: 900, height: 640)
        manager = ListViewManager(selectionMode: .single)
        gridManager = SectionedGridViewManager(storage: MemoryStorage(), minColumns: 2, maxColumns: 12)
        tableManager = ColumnViewManager(storage: MemoryStorage())
        filter = SearchFilter(storage: manager.memoryStorage)
        contentStorage = manager.memoryStorage
        // Closed by its title bar or by `close()`, the window stops reading and following.
        window.onClosed { [weak self] in self?.stopLoading() }
        buildHeaderBar()
        buildContent()
        registerRows()
        connectEvents()
        connectInteractions()
    }

    /// Shows the window.
    public func present() {
        window.present()
        // The keyboard starts in the list: arrows move, Enter opens, Delete and Menu act.
        activeManager.grabFocus()
    }

    // MARK: Building

    private func buildHeaderBar() {
        let headerBar = HeaderBar()
        backButton.tooltip = tr("Back to the enclosing folder")
        backButton.isVisible = false
        backButton.onClicked { [weak self] in self?.goBack() }
        headerBar.packStart(backButton)
        let titles = Box(orientation: .vertical, spacing: 0)
        titleLabel.addCSSClass("title")
        countLabel.addCSSClass("subtitle")
        titleLabel.isCentered = true
        // A title of any length keeps the header bar (and the window) as wide as before.
        titleLabel.ellipsize(.middle, maxWidthChars: 50)
        countLabel.isCentered = true
        titles.append(titleLabel)
        titles.append(countLabel)
        headerBar.titleWidget = titles
        searchEntry.setMinimumSize(width: 220)
        headerBar.packEnd(searchEntry)
        headerBar.packEnd(makeViewSwitcher())
        headerBar.packEnd(spinner)
        window.titlebar = headerBar
        // Typing anywhere in the window searches.
        searchEntry.captureKeys(from: window)
    }

    private func buildContent() {
        let content = Box(orientation: .vertical, spacing: 0)
        banner.addCSSClass("error-banner")
        banner.isVisible = false
        banner.wrapAnywhere(maxWidthChars: 80)
        content.append(banner)
        fillViewStack()
        // The details scroll in a pane that may shrink: a pane that could not (a minimum
        // width of its own) is measured 1 px below that minimum by GTK ≥ 4.12's GtkPaned
        // right after the view is switched, which GTK then reports as a warning.
        let detailsScroller = ScrolledWindow(child: details)
        detailsScroller.propagatesNaturalWidth = true
        let paned = Paned(orientation: .horizontal, start: viewStack, end: detailsScroller)
        paned.resizesEndChild = false
        paned.position = 600
        paned.expandsVertically = true
        content.append(paned)
        window.child = content
    }

    private func registerRows() {
        manager.register(BookRow.self)
        manager.register(AlbumRow.self, bundle: ViewerResources.bundle)
        manager.register(PlaceRow.self)
        manager.registerHeader(BannerHeaderRow.self)
        manager.register(FolderRow.self) { $0.modelCondition = { _, entry in entry.kind == .folder } }
        manager.register(ImageRow.self) { $0.modelCondition = { _, entry in entry.kind == .image } }
        manager.register(DocumentRow.self) { $0.modelCondition = { _, entry in entry.kind == .document } }
        manager.register(OtherFileRow.self) { $0.modelCondition = { _, entry in entry.kind == .other } }
        manager.register(UnreadableEntryRow.self)
        manager.register(DatabaseRecordRow.self)
        // A database row's summary leaves out what its header and its rowid already say.
        manager.configure(DatabaseRecordRow.self) { [weak self] row, paged, _ in
            guard let table = self?.followedTable, let record = paged.record else { return }
            row.subtitle.shownText = record.summary(skipping: table.columnsShownElsewhere)
        }
        registerGridAndTable()
    }

    private func connectEvents() {
        for view in managers {
            view.didSelect(model: (any Detailed).self) { [weak self] model, _ in self?.details.show(model) }
            view.didDeselect(model: (any Detailed).self) { [weak self] _, _ in self?.details.show(nil) }
            // A selected item can leave the list (search, reload, sort): the pane follows.
            view.contentUpdater.didUpdateContent = { [weak self] _ in self?.showSelectedDetails() }
            view.didActivate(model: DirectoryEntry.self) { [weak self] entry, _ in
                if entry.kind == .folder { self?.openDirectory(raw: entry.rawPath) }
            }
        }
        searchEntry.onSearchChanged { [weak self] in
            guard let self else { return }
            let text = searchText
            // Both stay in step with the entry, whichever the list shows.
            filter.setQuery(text)
            followedTable?.setSearch(text)
            updateCount()
            // The selected item, if it still matches, stays in view.
            if let selected = activeManager.selectedIndexPaths.first { activeManager.scrollTo(selected) }
        }
    }

    /// Shows the details of the selected item, or none.
    func showSelectedDetails() {
        let model = activeManager.selectedIndexPaths.first.flatMap { activeManager.storage.item(at: $0) }
        details.show(model as? any Detailed)
    }

    // MARK: Content

    /// Leaves what is shown for a new source that is not a folder: a folder still being
    /// read stops (its batches are dropped), a database is no longer followed, the folder
    /// history and the banner go.
    func startNewSource() {
        sourcePlaces.leave(at: activeManager.place)
        loadGeneration += 1
        activeLoad.start(loadGeneration)
        leaveDatabase()
        currentDirectory = nil
        history = []
        backButton.isVisible = false
        hideProblem()
    }

    /// Whether the list and the grid show the header (and the footer, unless nil) of an
    /// empty section.
    func showEmptySections(headers: Bool, footers: Bool? = nil) {
        for view in [manager, gridManager] as [ItemViewManager] {
            view.configuration.displayHeaderOnEmptySection = headers
            if let footers { view.configuration.displayFooterOnEmptySection = footers }
        }
    }

    /// Shows a catalog.
    public func show(_ catalog: Catalog) {
        guard !isClosed else { return }
        startNewSource()
        showTitle(catalog.title, tooltip: nil)
        showEmptySections(headers: true)
        filter.setSections(catalog.sections.map { section in
            (header: section.header?.model, footer: section.footer,
             items: section.items.map { (model: $0.model, text: $0.searchText) })
        })
        finishLoading()
    }

    /// Lists the folder at `path`, reading it off the main thread in batches.
    public func openDirectory(_ path: String) {
        openDirectory(raw: Array(path.utf8))
    }

    /// Lists the folder at the file system path `raw` (any bytes).
    public func openDirectory(raw path: [UInt8]) {
        if let problem = DirectoryReader.check(raw: path) {
            showProblem(problem.description)
            return
        }
        if let currentDirectory { history.append(currentDirectory) }
        load(path)
    }

    private func goBack() {
        guard let previous = history.popLast() else { return }
        load(previous)
    }

    private func load(_ rawPath: [UInt8]) {
        guard !isClosed else { return }
        sourcePlaces.leave(at: activeManager.place)
        sourcePlaces.enter("folder \(rawPath)")
        currentDirectory = rawPath
        loadGeneration += 1
        let generation = loadGeneration
        activeLoad.start(generation)
        leaveDatabase()
        isLoaded = false
        hideProblem()
        details.show(nil)
        let path = DirectoryReader.text(rawPath)
        showTitle((path as NSString).lastPathComponent.isEmpty ? path : (path as NSString).lastPathComponent, tooltip: path)
        backButton.isVisible = !history.isEmpty
        showEmptySections(headers: false, footers: false)
        filter.setSections(EntryKind.allCases.map { (header: $0.sectionTitle, footer: nil, items: []) })
        spinner.isSpinning = true
        countLabel.text = tr("Loading…")
        let activeLoad = activeLoad
        Thread.detachNewThread { [weak self] in
            do {
                try DirectoryReader.read(raw: rawPath, isCancelled: { !activeLoad.isCurrent(generation) }) { batch in
                    Task { @MainActor in self?.receive(batch, generation: generation) }
                }
                Task { @MainActor in self?.finishDirectory(generation: generation, problem: nil) }
            } catch {
                let message = "\(error)"
                Task { @MainActor in self?.finishDirectory(generation: generation, problem: message) }
            }
        }
    }

    private func receive(_ batch: [DirectoryEntry], generation: Int) {
        guard generation == loadGeneration else { return }
        let byKind = Dictionary(grouping: batch, by: \.kind)
        filter.storage.performUpdates {
            for (kind, entries) in byKind {
                filter.append(entries.map { (model: $0, text: $0.name) }, toSection: kind.rawValue)
            }
        }
        countLabel.text = tr.plural("Loading… %@ entry", "Loading… %@ entries", count: filter.totalCount, grouped(filter.totalCount))
    }

    private func finishDirectory(generation: Int, problem: String?) {
        guard generation == loadGeneration else { return }
        if let problem { showProblem(problem) }
        filter.storage.performUpdates {
            for kind in EntryKind.allCases {
                filter.sortSection(kind.rawValue) { ($0 as? DirectoryEntry)?.name.lowercased() ?? "" }
            }
        }
        finishLoading()
    }

    func finishLoading() {
        if viewMode == .table { sortTable() }
        if let place = sourcePlaces.placeToRestore { activeManager.restore(place) }
        spinner.isSpinning = false
        isLoaded = true
        updateCount()
        onLoaded()
    }

    func updateCount() {
        guard isLoaded else { return }
        if let followedTable {
            let rows = followedTable.rowCount
            countLabel.text = followedTable.search.isEmpty ? tr.plural("%@ row", "%@ rows", count: rows, grouped(rows))
                                                           : tr.plural("%@ matching row", "%@ matching rows", count: rows, grouped(rows))
            return
        }
        let shown = filter.shownCount
        let total = filter.totalCount
        countLabel.text = shown == total ? tr.plural("%@ item", "%@ items", count: total, grouped(total))
                                         : tr.plural("%@ of %@ item", "%@ of %@ items", count: total, grouped(shown), grouped(total))
    }

    /// `count` with thousands separated as the user's language separates them: 100,050
    /// in English, 100 050 in French.
    func grouped(_ count: Int) -> String {
        // Translators: what separates thousands in counts, as in 100,050 rows.
        let separator = tr(",")
        let digits = Array(String(count))
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? separator + "\(digit)" : "\(digit)"
        }.joined()
    }

    /// Shows `title` in the header bar, with `tooltip` (the full path, say) over it.
    func showTitle(_ title: String, tooltip: String?) {
        titleLabel.shownText = title
        titleLabel.tooltip = tooltip.map(ShownText.bounded)
    }

    /// Shows `message` above the list.
    public func showProblem(_ message: String) {
        banner.shownText = message
        banner.isVisible = true
        // Whatever the banner said before, it says this now.
        fetchError = .none
    }

    func hideProblem() {
        banner.isVisible = false
    }

    /// The text of the problem banner, if shown.
    public var problem: String? { banner.isVisible ? banner.text : nil }

    /// The search entry's text.
    var searchText: String { searchEntry.text }

    /// Closes the window, stops any folder still being read and stops following a database.
    public func close() {
        stopLoading()
        window.close()
    }

    /// Stops reading a folder and following a database, for good (the window is going):
    /// the batches and the end of a folder already on their way to the main thread are
    /// dropped, as those of a folder left are, so nothing reaches the window's widgets.
    private func stopLoading() {
        isClosed = true
        loadGeneration += 1
        activeLoad.start(-1)
        followedTable?.stopObserving()
        // Its storage (and a server's connections) go with it.
        followedTable = nil
    }

    /// The header bar's item count.
    public var countText: String { countLabel.text }

    /// The header bar's title.
    public var titleText: String { titleLabel.text }
    /// The title's tooltip: where the rows come from, and how they follow it.
    public var titleTooltip: String? { titleLabel.tooltip }

    /// The heading of the details pane (nil when nothing is selected).
    public var detailsTitle: String? { details.shownTitle }
}

/// The generation of the folder load in progress, shared with its reading thread.
final class ActiveLoad: Sendable {
    private let generation = Mutex(0)

    func start(_ newGeneration: Int) {
        generation.withLock { $0 = newGeneration }
    }

    func isCurrent(_ candidate: Int) -> Bool {
        generation.withLock { $0 == candidate }
    }
}
