import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// The factory of a sectioned grid's GtkGridView of strips: each list item shows a strip, a
/// row of tile slots (boxes of the manager's, CSS class `tile`), which the manager's tile
/// factory fills with the rows of the strip's items; a header or footer strip is one slot as
/// wide as the grid.
///
/// GTK keeps more list items than it shows (a GtkGridView on GTK 4.8: 30 rows), so a strip's tiles are
/// bound only once the strip comes near the visible part of the grid (`bindStripsNearView`):
/// until then it waits, with the height of the strips laid out last, so that the grid's
/// scrolling stays true. A waiting strip keeps its tile slots, empty and out of the layout,
/// so that when GTK shows its list item at another place the strip shows its tiles in the
/// same slots: moving a slot to another strip costs GTK an accessibility event for its
/// removal and one for its insertion, and its measure and style again. Slots move between
/// strips, with the rows they made, only when a strip needs more than it holds: it takes the
/// slots given back (`spareSlots`, by a strip that narrows or whose list item GTK took
/// apart); new ones are made while fewer than `maximumKeptSlots` are kept for later (given
/// back or in waiting strips), and past that it takes those of the waiting strip farthest
/// from it, so that the rows made stay bounded. Header and footer strips are bound at once.
@MainActor
final class StripFactory: TileSlots {
    private let reference = ObjectReference(adopting: gtk_signal_list_item_factory_new())
    /// The GtkListItemFactory.
    var factory: OpaquePointer { reference.pointer }
    private(set) weak var manager: SectionedGridViewManager?
    /// Each list item's strip box and its slots.
    var strips: [OpaquePointer: Strip] = [:]
    /// Strips whose list items GTK took apart (their tile slots given back, their header or
    /// footer slot kept with its rows), for new list items: GTK makes new list items for the
    /// items of a splice before it takes the old ones apart, so that without them every
    /// splice would make its strips anew.
    private var spares: [Strip] = []
    /// The most spares kept (GTK 4.8 keeps about 200 list items alive).
    private static let maximumSpares = 256
    /// Tile slots no strip shows, with the rows they made, for the next strips to show tiles
    /// (held here: they have no parent).
    private var spareSlots: [ObjectReference<UnsafeMutablePointer<GtkWidget>>] = []
    /// The most tile slots kept for later, given back (`spareSlots`) or in waiting strips: a
    /// screenful and more of tiles (tests lower it).
    var maximumKeptSlots = 128
    /// How many tile slots went into a strip from another one (given back or taken from a
    /// waiting strip), which scrolling should not need.
    private(set) var slotsMoved = 0
    /// Each slot's list item and place in its strip.
    private var slotPlaces: [OpaquePointer: (listItem: OpaquePointer, index: Int)] = [:]
    /// The height of a strip of tiles as GTK laid one out last, which waiting strips take
    /// (nil before one is measured).
    var stripHeight: Int32?
    /// The list item of the strip of tiles bound last (the first strip of tiles is bound at
    /// once, to measure).
    var measuredStrip: OpaquePointer?
    private var afterLayout: AfterLayout?
    /// Whether the waiting strips near the visible part are to be bound once the frame is done.
    var prefetchScheduled = false
    /// A strip to scroll to `y` (in the grid view) once GTK shows it, with how many more
    /// layouts to wait for it.
    var keptStrip: (position: Int, y: Float, layoutsLeft: Int)?

    /// What a list item shows: a strip box and its slots (a class: the dictionaries and the
    /// spares share it, and a strip changes at every bind).
    @MainActor
    final class Strip {
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
        /// Whether its tiles wait to be bound until it comes near the visible part of the grid.
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
        // Binding a strip binds its tiles and ends the display of others, whose handlers may
        // change the storage: as for any factory, those changes wait until GTK is done.
        Signal.connect(instance, "setup") { [weak self] (listItem: UnsafeMutableRawPointer?) in
            RowFactory.whileGTKCalls({ self?.manager }) { self?.setup(OpaquePointer(listItem!)) }
        }
        Signal.connect(instance, "bind") { [weak self] (listItem: UnsafeMutableRawPointer?) in
            RowFactory.whileGTKCalls({ self?.manager }) { self?.bind(OpaquePointer(listItem!)) }
        }
        Signal.connect(instance, "unbind") { [weak self] (listItem: UnsafeMutableRawPointer?) in
            RowFactory.whileGTKCalls({ self?.manager }) { self?.unbind(OpaquePointer(listItem!)) }
        }
        Signal.connect(instance, "teardown") { [weak self] (listItem: UnsafeMutableRawPointer?) in
            RowFactory.whileGTKCalls({ self?.manager }) { self?.teardown(OpaquePointer(listItem!)) }
        }
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
            slotPlaces[OpaquePointer(strip.wide)]?.listItem = listItem
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

    /// Makes the widget GTK shows `listItem` in a row to screen readers, of the tiles (grid
    /// cells) or the header in it. GTK makes it a grid cell, which would put cells in cells,
    /// named by the widget's type on GTK 4.8 and after everything in it on GTK 4.12 and later.
    /// Done at the first bind, which GTK runs before it realizes the widget (a role can be
    /// set only until then).
    private func showAsRow(_ listItem: OpaquePointer) {
        guard let strip = strips[listItem], let itemWidget = gtk_widget_get_parent(strip.box) else { return }
        _ = cgtk_shims_widget_set_accessible_role_early(itemWidget, GTK_ACCESSIBLE_ROLE_ROW)
    }

    /// The index in `slotPlaces` of a strip's wide slot.
    private static let wideIndex = -1

    func bind(_ listItem: OpaquePointer) {
        showAsRow(listItem)
        guard let manager, let strip = strips[listItem], let item = RowItem.of(gtk_list_item_get_item(listItem)),
              let row = manager.stripRow(at: Int(gtk_list_item_get_position(listItem))) else { return }
        let sameStrip = strip.item === item && strip.row == row && !strip.waiting
        (strip.item, strip.row) = (item, row)
        switch row {
        case .header, .footer: (strip.showsWide, strip.used) = (true, 0)
        case .strip(_, let items): (strip.showsWide, strip.used) = (false, items.count)
        }
        gtk_widget_set_visible(strip.wide, strip.showsWide ? 1 : 0)
        if strip.showsWide || sameStrip || (stripHeight == nil && measuredStrip == nil) {
            bindTiles(of: listItem, refresh: sameStrip)
        } else {
            wait(listItem)
        }
    }

    /// Binds the slots of the strip `listItem` shows to the items of its row (to the items
    /// they show already, for a `refresh`), taking the slots it needs.
    func bindTiles(of listItem: OpaquePointer, refresh: Bool) {
        guard let manager, let strip = strips[listItem] else { return }
        strip.waiting = false
        gtk_widget_set_size_request(strip.box, -1, -1)
        let columns = strip.showsWide ? 0 : manager.columns
        setSlots(of: strip, count: columns, listItem: listItem)
        for (index, spacer) in strip.spacers.enumerated() {
            gtk_widget_set_visible(spacer, index >= strip.used && index < columns ? 1 : 0)
        }
        if !strip.showsWide { measuredStrip = listItem }
        for slot in [strip.wide] + strip.slots {
            let tile = OpaquePointer(slot)
            guard let position = position(ofTile: tile) else {
                if slot != strip.wide { gtk_widget_set_visible(slot, 0) }  // a spacer takes its place
                manager.factory.clearTile(tile)
                continue
            }
            if slot != strip.wide {
                gtk_widget_set_visible(slot, 1)
                gtk_widget_set_child_visible(slot, 1)
            }
            gtk_widget_set_focusable(slot, slot == strip.wide ? 0 : 1)
            let tileItem = refresh ? manager.factory.lastItem(ofTile: tile) ?? manager.bridge.item(at: position) : manager.bridge.item(at: position)
            manager.factory.bindTile(tile, item: tileItem)
            if slot != strip.wide { manager.showSelection(ofTile: slot, at: position) }
        }
    }

    /// Shows nothing in the strip `listItem` shows until it comes near the visible part of the
    /// list: its tiles' slots stay, empty (their rows hidden) and out of the layout (not
    /// visible as children: hiding a slot would tell screen readers), for the strip's next
    /// tiles or, when a strip needs them, for that strip; the strip keeps the height of one
    /// laid out.
    func wait(_ listItem: OpaquePointer) {
        guard let manager, let strip = strips[listItem] else { return }
        strip.waiting = true
        gtk_widget_set_size_request(strip.box, -1, stripHeight ?? -1)
        for slot in [strip.wide] + strip.slots { manager.factory.clearTile(OpaquePointer(slot)) }
        for slot in strip.slots { gtk_widget_set_child_visible(slot, 0) }
        for spacer in strip.spacers { gtk_widget_set_visible(spacer, 0) }
    }

    private func unbind(_ listItem: OpaquePointer) {
        guard let manager, let strip = strips[listItem] else { return }
        for slot in [strip.wide] + strip.slots { manager.factory.unbind(OpaquePointer(slot)) }
    }

    /// GTK is taking the list item apart: its strip (which GTK takes out of it right after)
    /// is kept for a new list item, or, past `maximumSpares`, let go of with its rows.
    private func teardown(_ listItem: OpaquePointer) {
        if measuredStrip == listItem { measuredStrip = nil }
        guard let strip = strips.removeValue(forKey: listItem) else { return }
        setSlots(of: strip, count: 0, listItem: listItem)
        guard spares.count >= Self.maximumSpares else { return spares.append(strip) }
        manager?.factory.teardown(OpaquePointer(strip.wide))
        slotPlaces[OpaquePointer(strip.wide)] = nil
    }

    /// Gives `strip` `count` tile slots (and at least as many spacers): the slots given back
    /// are taken first (with the rows they made); then new ones are made (with their clicks)
    /// while fewer than `maximumKeptSlots` are kept, and past that those of the waiting strip
    /// farthest from it are taken. A strip that never held slots would otherwise take those of
    /// a strip that GTK shows again soon, which would take another's, at every frame. Slots
    /// left over go back (what they showed ends its display) while fewer than
    /// `maximumKeptSlots` are kept; the rest are taken apart.
    private func setSlots(of strip: Strip, count: Int, listItem: OpaquePointer) {
        let box = gtkCast(strip.box, to: GtkBox.self)
        while strip.spacers.count < count {
            let spacer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_box_append(box, spacer)
            strip.spacers.append(spacer)
        }
        while strip.slots.count > count {
            let reference = removeLastSlot(of: strip)
            if keptSlots < maximumKeptSlots {
                spareSlots.append(reference)
            } else {
                manager?.factory.teardown(OpaquePointer(reference.pointer))
            }
        }
        while strip.slots.count < count {
            // Held until the box holds it.
            let taken = spareSlots.popLast()
                ?? (keptSlots < maximumKeptSlots ? nil : farthestWaitingStrip(from: listItem).map(removeLastSlot(of:)))
            let slot = taken?.pointer ?? cgtk_shims_tile_box_new()!
            if taken == nil {
                gtk_widget_add_css_class(slot, "tile")
                manager?.installTileInput(on: slot)
            } else {
                slotsMoved += 1
            }
            gtk_box_insert_child_after(box, slot, strip.slots.last ?? strip.wide)
            withExtendedLifetime(taken) {}
            slotPlaces[OpaquePointer(slot)] = (listItem, strip.slots.count)
            strip.slots.append(slot)
        }
    }

    /// The tile slots kept for later: given back, and in waiting strips.
    private var keptSlots: Int {
        strips.values.reduce(spareSlots.count) { $0 + ($1.waiting ? $1.slots.count : 0) }
    }

    /// Takes the last tile slot out of `strip`, what it showed ending its display; the
    /// reference returned holds it.
    private func removeLastSlot(of strip: Strip) -> ObjectReference<UnsafeMutablePointer<GtkWidget>> {
        let slot = strip.slots.removeLast()
        let tile = OpaquePointer(slot)
        manager?.factory.clearTile(tile)
        slotPlaces[tile] = nil
        let reference = ObjectReference(retaining: slot)
        gtk_box_remove(gtkCast(strip.box, to: GtkBox.self), slot)
        return reference
    }

    /// The waiting strip holding tile slots farthest from `listItem`'s (those of list items
    /// GTK shows nothing in first), if any.
    private func farthestWaitingStrip(from listItem: OpaquePointer) -> Strip? {
        let position = Int(gtk_list_item_get_position(listItem))
        return strips.filter { $0.key != listItem && $0.value.waiting && !$0.value.slots.isEmpty }
            .max { abs(Int(gtk_list_item_get_position($0.key)) - position) < abs(Int(gtk_list_item_get_position($1.key)) - position) }?.value
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
