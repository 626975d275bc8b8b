import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// Drives a sectioned grid: each section of the storage is a header row as wide as the
/// grid, its items in tiles flowing left to right (`minColumns`, `maxColumns`, `itemSize`),
/// then a footer row, with the same registration of row types (tiles, headers, footers),
/// storages, typed events and selection as `ListViewManager`.
///
/// ```swift
/// let grid = SectionedGridViewManager(maxColumns: 8)
/// grid.itemSize = (width: 160, height: 160)
/// grid.register(PhotoTile.self)
/// grid.memoryStorage.setSectionHeaderModels(days.map(\.title))
/// grid.memoryStorage.setItemsForAllSections(days.map(\.photos))
/// // Put the grid itself into a window: the tiles flow by its width.
/// ```
///
/// No GTK view has this (GtkGridView has no sections, even in GTK 4.18): the grid is a
/// GtkGridView one column wide whose cells are strips, a header, a row of up to `columns`
/// tiles, or a footer, laid out by `StripColumns` from the width. (One column of a grid view,
/// because a GtkGridView keeps 30 rows of cells alive, where GTK 4.8's GtkListView keeps 200
/// rows.) Only the tiles of the strips on screen and near it are bound; the rows stay in
/// their strips' slots as the grid scrolls, and move only to a strip that needs more; a change
/// of width lays the strips out again without touching the storage, the selection or GTK's
/// rows; a storage change re-lays out only the strips from its first item to the end of
/// its section. The selection is of items, through the manager's own selection model
/// (GTK's selects strips), and tiles show it with the `:selected` state.
@MainActor
public final class SectionedGridViewManager: ItemViewManager {
    /// The GtkGridView of strips, one column wide: ``ItemViewManager/view``, by its older name.
    @available(*, deprecated, renamed: "view")
    public var gridView: UnsafeMutablePointer<GtkWidget> { view }

    /// The fewest tiles in a strip, however narrow the grid is (at least 1).
    public var minColumns: Int { didSet { reflowSoon() } }
    /// The most tiles in a strip, however wide the grid is (at least `minColumns`).
    public var maxColumns: Int { didSet { reflowSoon() } }

    /// The size every tile asks for, in pixels; its width decides how many tiles a strip
    /// holds (160 wide when nil). Applies to tiles made already as well as later ones.
    public var itemSize: (width: Int, height: Int)? {
        get { itemSizeRequest }
        set {
            itemSizeRequest = newValue
            for (row, mapping) in factory.madeRows where mapping.kind == .item { applyItemSize(to: row) }
            reflowSoon()
        }
    }

    /// Whether a drag across the grid draws a band and selects the tiles it covers, when the
    /// selection is multiple (GtkGridView's `enable-rubberband`): alone it selects only them,
    /// with Control it adds them, with Shift it takes them out of the selection, with both
    /// it toggles them. Off by default, as in GTK.
    public var rubberbandSelection: Bool {
        get { rubberband != nil }
        set { setRubberband(newValue) }
    }
    /// The drag of GTK's rubberband, while `rubberbandSelection` is on.
    var rubberband: Rubberband?

    /// The number of tiles a full strip holds now.
    public var columns: Int { stripColumns.columns }

    /// Where the items fall into strips.
    private(set) var stripColumns: StripColumns
    /// The GListModel of strips the grid view shows.
    let strips: ListModelBridge
    private(set) var stripFactory: StripFactory!
    /// Where the last click without Shift was: Shift extends the selection from there.
    var selectionAnchor: Int?
    private let stripSelection: ObjectReference<OpaquePointer>
    /// The horizontal adjustment the grid view was given, whose page size is its width.
    private var widthSource: (adjustment: ObjectReference<UnsafeMutablePointer<GtkAdjustment>>, changed: SignalConnection)?
    private var reflowScheduled = false
    override var isReflowing: Bool { reflowScheduled }

    /// Creates a sectioned grid showing `storage`.
    /// - Parameters:
    ///   - storage: where models come from (a new `MemoryStorage` by default).
    ///   - selectionMode: none, single (the default) or multiple.
    ///   - minColumns: the fewest tiles in a strip.
    ///   - maxColumns: the most tiles in a strip.
    public init(storage: Storage? = nil, selectionMode: SelectionMode = .single, minColumns: Int = 1, maxColumns: Int = 7) {
        self.minColumns = max(1, minColumns)
        self.maxColumns = max(1, minColumns, maxColumns)
        let view = gtk_grid_view_new(nil, nil)!
        gtk_grid_view_set_max_columns(OpaquePointer(view), 1)
        let models = storage ?? MemoryStorage.reportingToGLib()
        stripColumns = StripColumns(storage: models, columns: max(1, minColumns))
        strips = ListModelBridge(models: stripColumns.strips(of: models), options: ViewKind.sectionedGrid.layoutOptions(Configuration()))
        g_object_ref(UnsafeMutableRawPointer(strips.listModel))  // the selection model takes this reference
        stripSelection = ObjectReference(adopting: gtk_no_selection_new(strips.listModel)!)
        super.init(view: view, kind: .sectionedGrid, storage: models, selectionMode: selectionMode)
        stripFactory = StripFactory(manager: self)
        viewOwnList = GridStrips(grid: self)
        factory.tiles = stripFactory
        gtk_widget_add_css_class(view, "sectioned-grid")
        RowStyle.install()
        gtk_grid_view_set_factory(OpaquePointer(view), stripFactory.factory)
        gtk_grid_view_set_model(OpaquePointer(view), stripSelection.pointer)
        installTileKeyboard()
        installTileActions()
        Signal.onChange(of: "hadjustment", of: UnsafeMutableRawPointer(view)) { [weak self] in self?.watchWidth() }
    }

    /// What the grid view shows at `position`: a section's header, a strip of its items, or
    /// its footer (nil past the end).
    public func stripRow(at position: Int) -> StripRow? {
        strips.row(at: position).map(stripColumns.stripRow)
    }

    /// The position in the grid view of the strip showing the item at `indexPath`.
    func stripPosition(of indexPath: IndexPath) -> Int? {
        stripColumns.strip(ofItem: indexPath).flatMap { strips.layout.position(of: .item($0)) }
    }

    // MARK: Following the storage

    /// The strips follow `applied`, after the flat list did: an update is translated into
    /// the strips' own, a reload lays the strips out again at the same number of columns.
    func stripsFollow(_ applied: AppliedChange) {
        let change = applied.change
        switch change.kind {
        case .reload(let options):
            stripColumns = StripColumns(storage: change.models, columns: columns)
            strips.reload(models: stripColumns.strips(of: change.models), options: options, tellingEachSplice: [])
        case .update(let update):
            let stripUpdate = stripColumns.translate(update)
            _ = strips.apply(stripUpdate, models: stripColumns.strips(of: change.models), tellingEachSplice: [])
        }
    }

    // MARK: Width

    /// Follows the width of the grid view through its horizontal adjustment (GTK sets its
    /// page size to the width at each allocation).
    private func watchWidth() {
        widthSource?.changed.disconnect()
        widthSource = nil
        guard let adjustment = gtk_scrollable_get_hadjustment(OpaquePointer(view)) else { return }
        let handler = Signal.connect(UnsafeMutableRawPointer(adjustment), "changed") { [weak self] in self?.reflowSoon() }
        widthSource = (ObjectReference(retaining: adjustment), SignalConnection(handler, on: UnsafeMutableRawPointer(adjustment)))
        reflowSoon()
    }

    /// The number of tiles a strip holds at the grid's width now: as many as fit at the
    /// width a tile needs (the widest of the tiles on screen, margins and all; `itemSize` or 160
    /// before there is one), as GtkGridView counts its columns.
    private var columnsForWidth: Int {
        let width = widthSource.map { gtk_adjustment_get_page_size($0.adjustment.pointer) } ?? 0
        var tileWidth = Int32(itemSize?.width ?? 160)
        let itemTiles = stripFactory.boundTiles.filter { if case .item? = bridge.layout.row(at: $0.position) { true } else { false } }
        if !itemTiles.isEmpty {
            tileWidth = itemTiles.map { tile in
                var minimum: Int32 = 0
                gtk_widget_measure(tile.slot, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, nil, nil, nil)
                return minimum
            }.max()!
        }
        return min(max(Int(width) / Int(max(1, tileWidth)), minColumns), max(minColumns, maxColumns))
    }

    /// Lays the strips out again for the width once GTK is done allocating (a change of the
    /// grid's model while it allocates would be a change under GTK's feet).
    private func reflowSoon() {
        guard !reflowScheduled else { return }
        reflowScheduled = true
        whenIdle { [weak self] in
            guard let self else { return }
            reflowScheduled = false
            reflow(columns: columnsForWidth)
        }
    }

    /// Lays the strips out in `columns` tiles. The strips are places (strip n): GTK keeps the
    /// rows it has and hears only of the change of their number, and the grid shows the new
    /// contents of the strips GTK holds (their tiles once they are near the visible part).
    /// The storage, the selection and the rows made stay. The item with the keyboard focus
    /// keeps it (and is brought into view); a grid living at its bottom that is there stays
    /// there; otherwise the strip of the item at the top stays at the top.
    func reflow(columns: Int) {
        var columnsOfItems = stripColumns
        guard columnsOfItems.reflow(columns: columns) else { return }
        let staysAtBottom = configuration.livesAtBottom && isAtBottom
        let top = stripFactory.topItem()
        let focused = focusedPosition
        stripColumns = columnsOfItems
        strips.reloadInPlace(models: stripColumns.strips(of: bridge.models), options: layoutOptions)
        stripFactory.showNewContents()
        prefetcher?.lookAgain()
        if let focused {
            focus(position: focused)  // its tile is another item's now
        } else if staysAtBottom {
            scrollToBottom()
        } else if let top, case .item(let indexPath)? = bridge.layout.row(at: top.position), let strip = stripPosition(of: indexPath) {
            cgtk_shims_widget_activate_action(view, "list.scroll-to-item", g_variant_new_uint32(UInt32(strip)))
            stripFactory.keep(strip: strip, atY: top.y)
        }
    }
}
