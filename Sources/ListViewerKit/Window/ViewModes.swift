import CGtk
import Foundation
import ListViewManager

/// How the viewer shows its items.
public enum ViewMode: String, CaseIterable, Sendable {
    /// Rows under section headers (`ListViewManager`).
    case list
    /// Tiles under section headers: icons, and thumbnails of images (`SectionedGridViewManager`).
    case grid
    /// A table of name, kind, size and date, sorted by clicking a column (`ColumnViewManager`).
    case table

    /// The button's tooltip and accessible name.
    var title: String {
        switch self {
        case .list: return tr("List")
        case .grid: return tr("Grid")
        case .table: return tr("Table")
        }
    }

    var iconName: String {
        switch self {
        case .list: return "view-list-symbolic"
        case .grid: return "view-grid-symbolic"
        case .table: return "x-office-spreadsheet-symbolic"
        }
    }
}

extension ViewerWindow {
    /// The managers of the three views; only the active one shows the content.
    var managers: [ItemViewManager] { [manager, gridManager, tableManager] }

    /// The manager of `mode`'s view.
    func manager(for mode: ViewMode) -> ItemViewManager {
        switch mode {
        case .list: return manager
        case .grid: return gridManager
        case .table: return tableManager
        }
    }

    /// The header bar's button that switches to `mode`.
    public func viewButton(_ mode: ViewMode) -> ToggleButton {
        modeButtons[mode]!
    }

    /// The page of the view stack shown: "list", "grid" or "table".
    public var shownPage: String {
        viewStack.visiblePageName ?? ""
    }

    /// The manager showing the content now.
    public var activeManager: ItemViewManager { manager(for: viewMode) }

    /// Shows `storage` (the search's items or a database table's) in the active view.
    func showContent(_ storage: Storage) {
        contentStorage = storage
        activeManager.storage = storage
        if viewMode == .table { sortTable() }
    }

    /// Shows the content in another view, keeping the selected item selected and in view.
    public func setViewMode(_ mode: ViewMode) {
        guard mode != viewMode else { return }
        let selected = activeManager.selectedIndexPaths.first
        // A storage tells one manager of its changes: the view left lets go of it.
        activeManager.storage = MemoryStorage()
        viewMode = mode
        activeManager.storage = contentStorage
        viewStack.visiblePageName = mode.rawValue
        for (buttonMode, button) in modeButtons {
            button.isActive = buttonMode == mode
        }
        // Selected before the table sorts: the sort's moves take the selection along.
        if let selected { activeManager.select(selected) }
        if mode == .table { sortTable() }
        if let shown = activeManager.selectedIndexPaths.first { activeManager.scrollTo(shown) }
        showSelectedDetails()
        activeManager.grabFocus()
    }

    /// Sorts the content as the table's columns say: every item of the search (so that the
    /// search keeps the order), or a database table's rows (later fetches too).
    func sortTable() {
        if contentStorage === filter.storage {
            filter.reorder { [tableManager] models in tableManager.sortedByColumns(models) }
        } else if let table = followedTable {
            // The query sorts: by the column clicked last (the first column is the key's).
            table.setOrder(tableManager.primarySort.flatMap { sort in
                tableManager.columns.firstIndex { $0 === sort.column }.map { index in
                    (index == 0 ? table.keyName : table.shownColumns[index - 1], sort.ascending)
                }
            })
        }
    }

    /// The three linked toggle buttons of the header bar that switch views.
    func makeViewSwitcher() -> Box {
        let box = Box(orientation: .horizontal, spacing: 0)
        box.addCSSClass("linked")
        var first: ToggleButton?
        for mode in ViewMode.allCases {
            let button = ToggleButton(iconName: mode.iconName, group: first)
            first = first ?? button
            button.tooltip = mode.title
            button.setAccessibilityLabel(mode.title)
            button.isActive = mode == viewMode
            button.onToggled { [weak self, unowned button] in
                guard let self, button.isActive else { return }
                setViewMode(mode)
            }
            modeButtons[mode] = button
            box.append(button)
        }
        return box
    }

    /// The view stack's pages: each view in its own scrolled window (the list's with its
    /// section's header pinned over the top).
    func fillViewStack() {
        for mode in ViewMode.allCases {
            gtk_widget_add_css_class(manager(for: mode).view, "viewer-\(mode.rawValue)")
            viewStack.addPage(manager(for: mode), name: mode.rawValue)
        }
        viewStack.expandsHorizontally = true
        viewStack.expandsVertically = true
    }

    /// The grid's tiles and the table's columns.
    func registerGridAndTable() {
        // The viewer's sections (a folder's kinds, a catalog's groups) have headers for the
        // list and the grid; the table shows the items in the sections' order without them.
        tableManager.anomalyHandler.silence(.supplementaryRowsNotShown)
        gridManager.registerHeader(BannerHeaderRow.self)
        gridManager.itemSize = (width: 132, height: 150)
        gridManager.register(ImageTile.self) { $0.modelCondition = { _, entry in entry.kind == .image } }
        gridManager.register(ItemTile.self)
        // The thumbnails of the images about to be scrolled to are made before their tiles are
        // shown: those of the next eight rows of tiles or so (see BENCHMARKS.md).
        gridManager.configuration.prefetchCount = 48
        gridManager.prefetch(model: DirectoryEntry.self) { entry, _ in
            if entry.kind == .image { Thumbnails.shared.prefetch(entry.path) }
        }
        gridManager.cancelPrefetch(model: DirectoryEntry.self) { entry, _ in
            if entry.kind == .image { Thumbnails.shared.cancelPrefetch(entry.path) }
        }
        tableManager.sortsMemoryStorage = false
        tableManager.showsRowSeparators = true
        tableManager.setColumns(ViewerTable.columns())
        tableManager.didChangeSorting = { [weak self] in self?.sortTable() }
    }
}
