import CGtk
import CGtkShims
import Foundation
import ModelStorage

/// The factory of a sectioned grid's GtkListView: each list item shows a strip, a row of
/// tile slots (boxes of the manager's, CSS class `tile`), which the manager's tile factory
/// fills with the rows of the strip's items; a header or footer strip is one slot as wide as
/// the list. Slots are made when a strip needs more of them, kept hidden when it needs fewer
/// (after a re-flow), and never move between strips.
///
/// GTK keeps many more list items than it shows (200 on GTK 4.8), so a strip's tiles are
/// bound only once the strip comes near the visible part of the list (`bindStripsNearView`):
/// until then it waits, with the height of the strips laid out last, so that the list's
/// scrolling stays true. Header and footer strips are bound at once.
@MainActor
final class StripFactory: TileSlots {
    private let reference = ObjectReference(adopting: gtk_signal_list_item_factory_new())
    /// The GtkListItemFactory.
    var factory: OpaquePointer { reference.pointer }
    private weak var manager: SectionedGridViewManager?
    /// Each list item's strip box and its slots.
    private var strips: [OpaquePointer: Strip] = [:]
    /// Strips whose list items GTK took apart, with their tiles and rows, for new list items:
    /// GTK makes new list items for the items of a splice and takes the old ones apart after,
    /// so that without them a re-flow would make every row on screen again.
    private var spares: [Strip] = []
    /// The most spares kept (GTK 4.8 keeps about 200 list items alive).
    private static let maximumSpares = 256
    /// Each slot's list item and place in its strip.
    private var slotPlaces: [OpaquePointer: (listItem: OpaquePointer, index: Int)] = [:]
    /// The list items whose strips of tiles wait to be bound.
    private var waitingStrips: Set<OpaquePointer> = []
    /// The height of a strip of tiles as GTK laid one out last, which waiting strips take
    /// (nil before one is measured).
    private var stripHeight: Int32?
    /// The list item of the strip of tiles bound last (the first strip of tiles is bound at
    /// once, to measure).
    private var measuredStrip: OpaquePointer?
    private var afterLayout: AfterLayout?
    /// Whether the waiting strips near the visible part are to be bound once the frame is done.
    private var prefetchScheduled = false
    /// A strip to scroll to `y` (in the list view) once GTK shows it, with how many more
    /// layouts to wait for it.
    private var keptStrip: (position: Int, y: Float, layoutsLeft: Int)?

    /// What a list item shows: a strip box and its slots (a class: the dictionaries and the
    /// spares share it, and a strip changes at every bind).
    @MainActor
    private final class Strip {
        /// Owned here as well as by the list item, so that the strip outlives its list item
        /// and serves the next one (`spares`).
        let boxReference: ObjectReference<UnsafeMutablePointer<GtkWidget>>
        var box: UnsafeMutablePointer<GtkWidget> { boxReference.pointer }
        /// The slot of a header or footer, as wide as the strip.
        let wide: UnsafeMutablePointer<GtkWidget>
        /// The tiles' slots, a column each.
        var slots: [UnsafeMutablePointer<GtkWidget>] = []
        /// Empty boxes after the tiles of a short strip, a column each, so that its tiles keep
        /// a column's width (plain boxes: screen readers see no cells there).
        var spacers: [UnsafeMutablePointer<GtkWidget>] = []
        /// The strip item the list item showed last, and what the strip was then: bound again
        /// to the same, its tiles show the same items.
        var item: RowItem?
        var row: StripRow?
        /// Whether it shows a header or footer (in `wide`) rather than tiles.
        var showsWide = false
        /// How many tile slots show an item (from the first).
        var used = 0
        /// Whether its tiles wait to be bound until it comes near the visible part of the list.
        var waiting = false

        /// The slots that show something.
        var usedSlots: [UnsafeMutablePointer<GtkWidget>] { showsWide ? [wide] : Array(slots.prefix(used)) }

        init(boxReference: ObjectReference<UnsafeMutablePointer<GtkWidget>>, wide: UnsafeMutablePointer<GtkWidget>) {
            self.boxReference = boxReference
            self.wide = wide
        }
    }

    init(manager: SectionedGridViewManager) {
        self.manager = manager
        let instance = UnsafeMutableRawPointer(factory)
        Signal.connect(instance, "setup") { [weak self] (listItem: UnsafeMutableRawPointer?) in self?.setup(OpaquePointer(listItem!)) }
        Signal.connect(instance, "bind") { [weak self] (listItem: UnsafeMutableRawPointer?) in self?.bind(OpaquePointer(listItem!)) }
        Signal.connect(instance, "unbind") { [weak self] (listItem: UnsafeMutableRawPointer?) in self?.unbind(OpaquePointer(listItem!)) }
        Signal.connect(instance, "teardown") { [weak self] (listItem: UnsafeMutableRawPointer?) in self?.teardown(OpaquePointer(listItem!)) }
        afterLayout = AfterLayout(of: manager.view) { [weak self] in self?.bindStripsNearView() }
    }

    private func setup(_ listItem: OpaquePointer) {
        // The list item is not selectable and not activatable: the tiles in it are what the
        // user selects and activates.
        gtk_list_item_set_selectable(listItem, 0)
        gtk_list_item_set_activatable(listItem, 0)
        if let index = spares.firstIndex(where: { gtk_widget_get_parent($0.box) == nil }) {
            let strip = spares.remove(at: index)
            (strip.item, strip.row) = (nil, nil)
            gtk_list_item_set_child(listItem, strip.box)
            for slot in [strip.wide] + strip.slots { slotPlaces[OpaquePointer(slot)]?.listItem = listItem }
            strips[listItem] = strip
            return
        }
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_set_homogeneous(gtkCast(box, to: GtkBox.self), 1)
        gtk_widget_add_css_class(box, "strip")
        let reference = ObjectReference(sinking: box)  // ours; the list item takes its own
        gtk_list_item_set_child(listItem, box)
        let wide = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gtkCast(box, to: GtkBox.self), wide)
        slotPlaces[OpaquePointer(wide)] = (listItem, Self.wideIndex)
        strips[listItem] = Strip(boxReference: reference, wide: wide)
    }

    /// The index in `slotPlaces` of a strip's wide slot.
    private static let wideIndex = -1

    private func bind(_ listItem: OpaquePointer) {
        guard let manager, let strip = strips[listItem], let item = RowItem.of(gtk_list_item_get_item(listItem)),
              let row = manager.stripRow(at: Int(gtk_list_item_get_position(listItem))) else { return }
        let sameStrip = strip.item === item && strip.row == row && !strip.waiting
        (strip.item, strip.row) = (item, row)
        switch row {
        case .header, .footer: (strip.showsWide, strip.used) = (true, 0)
        case .strip(_, let items): (strip.showsWide, strip.used) = (false, items.count)
        }
        let columns = manager.columns
        if !strip.showsWide { makeSlots(strip, count: columns, listItem: listItem) }
        gtk_widget_set_visible(strip.wide, strip.showsWide ? 1 : 0)
        for (index, spacer) in strip.spacers.enumerated() {
            gtk_widget_set_visible(spacer, !strip.showsWide && index >= strip.used && index < columns ? 1 : 0)
        }
        for (index, slot) in strip.slots.enumerated() {
            gtk_widget_set_visible(slot, !strip.showsWide && index < strip.used ? 1 : 0)  // a spacer takes its place
        }
        if strip.showsWide || sameStrip || (stripHeight == nil && measuredStrip == nil) {
            bindTiles(of: listItem, refresh: sameStrip)
        } else {
            wait(listItem)
        }
    }

    /// Binds the slots of the strip `listItem` shows to the items of its row (to the items
    /// they show already, for a `refresh`).
    private func bindTiles(of listItem: OpaquePointer, refresh: Bool) {
        guard let manager, let strip = strips[listItem] else { return }
        strip.waiting = false
        waitingStrips.remove(listItem)
        gtk_widget_set_size_request(strip.box, -1, -1)
        if !strip.showsWide { measuredStrip = listItem }
        for slot in [strip.wide] + strip.slots {
            let tile = OpaquePointer(slot)
            guard let position = position(ofTile: tile) else {
                manager.factory.clearTile(tile)
                continue
            }
            gtk_widget_set_focusable(slot, slot == strip.wide ? 0 : 1)
            let tileItem = refresh ? manager.factory.lastItem(ofTile: tile) ?? manager.bridge.item(at: position) : manager.bridge.item(at: position)
            manager.factory.bindTile(tile, item: tileItem)
            if slot != strip.wide { manager.showSelection(ofTile: slot, at: position) }
        }
    }

    /// Shows nothing in the tiles of the strip `listItem` shows until it comes near the
    /// visible part of the list; the strip keeps the height of one laid out.
    private func wait(_ listItem: OpaquePointer) {
        guard let manager, let strip = strips[listItem] else { return }
        strip.waiting = true
        waitingStrips.insert(listItem)
        gtk_widget_set_size_request(strip.box, -1, stripHeight ?? -1)
        for slot in [strip.wide] + strip.slots { manager.factory.clearTile(OpaquePointer(slot)) }
    }

    /// Shows again the strips of every list item GTK holds, whose places show other items
    /// after a re-flow.
    func showNewContents() {
        for listItem in strips.keys where gtk_list_item_get_item(listItem) != nil { bind(listItem) }
    }

    /// After each layout: binds the waiting strips GTK shows (GTK maps the rows it shows and
    /// hides the others), whose tiles are laid out in another layout of the same frame, before
    /// it is painted; and, once the frame is done, those within half as many strips again as
    /// are shown before and after them, so that scrolling finds them ready.
    private func bindStripsNearView() {
        guard let manager, gtk_widget_get_mapped(manager.view) != 0 else { return }
        placeKeptStrip()
        guard let stripHeight else { return learnStripHeight() }
        var visible: ClosedRange<Int>?
        for (listItem, strip) in strips where gtk_widget_get_mapped(strip.box) != 0 {
            let position = Int(gtk_list_item_get_position(listItem))
            visible = visible.map { min($0.lowerBound, position)...max($0.upperBound, position) } ?? position...position
            if strip.waiting {
                bindTiles(of: listItem, refresh: false)
            } else if !strip.showsWide {
                let height = gtk_widget_get_height(strip.box)
                if height > 0, height != stripHeight { self.stripHeight = height }
            }
        }
        guard let visible else { return }
        let near = (visible.lowerBound - visible.count / 2)...(visible.upperBound + visible.count / 2)
        let soon = waitingStrips.filter { near.contains(Int(gtk_list_item_get_position($0))) }
        guard !soon.isEmpty, !prefetchScheduled else { return }
        prefetchScheduled = true
        whenIdle { [weak self] in
            guard let self else { return }
            prefetchScheduled = false
            for listItem in soon where waitingStrips.contains(listItem) { bindTiles(of: listItem, refresh: false) }
        }
    }

    /// The first item of the topmost strip of tiles on screen, and the top of its strip in the
    /// list view (0 or less, where the list is scrolled to).
    func topItem() -> (position: Int, y: Float)? {
        var top: (position: Int, y: Float)?
        for strip in strips.values where !strip.showsWide && !strip.waiting {
            guard let y = shownTop(of: strip), y < top?.y ?? .infinity, let first = strip.slots.first,
                  let position = position(ofTile: OpaquePointer(first)) else { continue }
            if y + Float(gtk_widget_get_height(gtk_widget_get_parent(strip.box))) > 0 { top = (position, y) }
        }
        return top
    }

    /// Scrolls the strip at `position` (in the list view) to `y` once GTK shows it: a re-flow
    /// keeps the item at the top where it was.
    func keep(strip position: Int, atY y: Float) {
        keptStrip = (position, y, 8)
    }

    private func placeKeptStrip() {
        guard let kept = keptStrip, let manager else { return }
        keptStrip = nil
        guard let strip = strips.first(where: { Int(gtk_list_item_get_position($0.key)) == kept.position })?.value,
              let y = shownTop(of: strip) else {
            if kept.layoutsLeft > 1 { keptStrip = (kept.position, kept.y, kept.layoutsLeft - 1) }
            return
        }
        guard abs(y - kept.y) >= 1, let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view)) else { return }
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + Double(y - kept.y))
    }

    /// The top of the row GTK shows `strip` in, in the list view, when GTK shows it.
    private func shownTop(of strip: Strip) -> Float? {
        guard let manager, gtk_widget_get_mapped(strip.box) != 0, let row = gtk_widget_get_parent(strip.box) else { return nil }
        var origin = graphene_point_t(x: 0, y: 0), top = graphene_point_t(x: 0, y: 0)
        guard gtk_widget_compute_point(row, manager.view, &origin, &top) != 0 else { return nil }
        return top.y
    }

    /// Measures the first strip of tiles bound and gives its height to the strips waiting;
    /// the next layout places them at it.
    private func learnStripHeight() {
        guard let manager, let measuredStrip, let strip = strips[measuredStrip], !strip.waiting else { return }
        var height: Int32 = 0
        gtk_widget_measure(strip.box, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width(manager.view), &height, nil, nil, nil)
        guard height > 0 else { return }
        stripHeight = height
        for listItem in waitingStrips {
            if let box = strips[listItem]?.box { gtk_widget_set_size_request(box, -1, height) }
        }
    }

    private func unbind(_ listItem: OpaquePointer) {
        waitingStrips.remove(listItem)
        guard let manager, let strip = strips[listItem] else { return }
        for slot in [strip.wide] + strip.slots { manager.factory.unbind(OpaquePointer(slot)) }
    }

    /// GTK is taking the list item apart: its strip (which GTK takes out of it right after)
    /// is kept for a new list item, or, past `maximumSpares`, let go of with its rows.
    private func teardown(_ listItem: OpaquePointer) {
        waitingStrips.remove(listItem)
        if measuredStrip == listItem { measuredStrip = nil }
        guard let strip = strips.removeValue(forKey: listItem) else { return }
        guard spares.count >= Self.maximumSpares else { return spares.append(strip) }
        for slot in [strip.wide] + strip.slots {
            manager?.factory.teardown(OpaquePointer(slot))
            slotPlaces[OpaquePointer(slot)] = nil
        }
    }

    /// Gives `strip` at least `count` slots and spacers, making new ones (with their clicks).
    /// A strip keeps the slots a narrowing leaves over, hidden with their rows, for the next
    /// widening.
    private func makeSlots(_ strip: Strip, count: Int, listItem: OpaquePointer) {
        while strip.spacers.count < count {
            let spacer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_box_append(gtkCast(strip.box, to: GtkBox.self), spacer)
            strip.spacers.append(spacer)
        }
        while strip.slots.count < count {
            let slot = cgtk_shims_tile_box_new()!
            gtk_widget_add_css_class(slot, "tile")
            gtk_box_insert_child_after(gtkCast(strip.box, to: GtkBox.self), slot, strip.slots.last ?? strip.wide)
            slotPlaces[OpaquePointer(slot)] = (listItem, strip.slots.count)
            strip.slots.append(slot)
            manager?.installTileInput(on: slot)
        }
    }

    /// The slot `widget` is in (or is), if any.
    func slot(containing widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        var candidate: UnsafeMutablePointer<GtkWidget>? = widget
        while let current = candidate {
            if slotPlaces[OpaquePointer(current)] != nil { return current }
            candidate = gtk_widget_get_parent(current)
        }
        return nil
    }

    /// The strip GTK shows at `y` in the list view (or the shown strip nearest to it), by its
    /// position in the list view, and the column at `x`.
    func strip(at x: Double, _ y: Double) -> (strip: Int, column: Int)? {
        guard let manager else { return nil }
        var nearest: (strip: Int, distance: Float)?
        for (listItem, strip) in strips where gtk_widget_get_mapped(strip.box) != 0 {
            var bounds = graphene_rect_t()
            guard let row = gtk_widget_get_parent(strip.box), gtk_widget_compute_bounds(row, manager.view, &bounds) != 0 else { continue }
            let top = bounds.origin.y, bottom = bounds.origin.y + bounds.size.height
            let distance = Float(y) < top ? top - Float(y) : Float(y) > bottom ? Float(y) - bottom : 0
            if distance < nearest?.distance ?? .infinity { nearest = (Int(gtk_list_item_get_position(listItem)), distance) }
        }
        let columnWidth = max(1, Double(gtk_widget_get_width(manager.view))) / Double(manager.columns)
        return nearest.map { ($0.strip, min(max(Int(x / columnWidth), 0), manager.columns - 1)) }
    }

    /// The slots of the strips GTK shows now that show an item, with its position.
    var boundTiles: [(slot: UnsafeMutablePointer<GtkWidget>, position: Int)] {
        strips.values.flatMap { strip in
            strip.usedSlots.compactMap { slot in position(ofTile: OpaquePointer(slot)).map { (slot, $0) } }
        }
    }

    // MARK: TileSlots

    func position(ofTile tile: OpaquePointer) -> Int? {
        guard let manager, let (listItem, index) = slotPlaces[tile], let strip = strips[listItem], strip.item != nil, !strip.waiting,
              let row = manager.stripRow(at: Int(gtk_list_item_get_position(listItem))) else { return nil }
        switch row {
        case .header(let section): return index == Self.wideIndex ? manager.bridge.layout.position(of: .header(section: section)) : nil
        case .footer(let section): return index == Self.wideIndex ? manager.bridge.layout.position(of: .footer(section: section)) : nil
        case .strip(let section, let items):
            guard index >= 0, index < items.count else { return nil }
            return manager.bridge.layout.position(of: .item(IndexPath(item: items.lowerBound + index, section: section)))
        }
    }

    func setChild(_ widget: UnsafeMutablePointer<GtkWidget>, ofTile tile: OpaquePointer) {
        let slot = UnsafeMutablePointer<GtkWidget>(tile)
        while let child = gtk_widget_get_first_child(slot) { gtk_box_remove(gtkCast(slot, to: GtkBox.self), child) }
        gtk_box_append(gtkCast(slot, to: GtkBox.self), widget)
    }
}
