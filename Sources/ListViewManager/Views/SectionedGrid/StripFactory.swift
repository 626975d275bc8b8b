import CGtk
import CGtkShims
import Foundation
import ModelStorage

/// The factory of a sectioned grid's GtkListView: each list item shows a strip, a row of
/// tile slots (boxes of the manager's, CSS class `tile`), which the manager's tile factory
/// fills with the rows of the strip's items; a header or footer strip is one slot as wide as
/// the list. Slots are made when a strip needs more of them and taken apart when it needs
/// fewer (after a re-flow), and never move between list items.
@MainActor
final class StripFactory: TileSlots {
    private let reference = ObjectReference(adopting: gtk_signal_list_item_factory_new())
    /// The GtkListItemFactory.
    var factory: OpaquePointer { reference.pointer }
    private weak var manager: SectionedGridViewManager?
    /// Each list item's strip box and its slots.
    private var strips: [OpaquePointer: Strip] = [:]
    /// Each slot's list item and place in its strip.
    private var slotPlaces: [OpaquePointer: (listItem: OpaquePointer, index: Int)] = [:]

    private struct Strip {
        let box: UnsafeMutablePointer<GtkWidget>
        var slots: [UnsafeMutablePointer<GtkWidget>] = []
        /// The strip item the list item showed last: bound again to the same, its tiles show
        /// the same items.
        var item: RowItem?
        /// How many slots show something (from the first).
        var used = 0
    }

    init(manager: SectionedGridViewManager) {
        self.manager = manager
        let instance = UnsafeMutableRawPointer(factory)
        Signal.connect(instance, "setup") { [weak self] (listItem: UnsafeMutableRawPointer?) in self?.setup(OpaquePointer(listItem!)) }
        Signal.connect(instance, "bind") { [weak self] (listItem: UnsafeMutableRawPointer?) in self?.bind(OpaquePointer(listItem!)) }
        Signal.connect(instance, "unbind") { [weak self] (listItem: UnsafeMutableRawPointer?) in self?.unbind(OpaquePointer(listItem!)) }
        Signal.connect(instance, "teardown") { [weak self] (listItem: UnsafeMutableRawPointer?) in self?.teardown(OpaquePointer(listItem!)) }
    }

    private func setup(_ listItem: OpaquePointer) {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_set_homogeneous(gtkCast(box, to: GtkBox.self), 1)
        gtk_widget_add_css_class(box, "strip")
        gtk_list_item_set_child(listItem, box)
        // The strip is a row of GTK's; the tiles in it are what the user selects and activates.
        gtk_list_item_set_selectable(listItem, 0)
        gtk_list_item_set_activatable(listItem, 0)
        strips[listItem] = Strip(box: box)
    }

    private func bind(_ listItem: OpaquePointer) {
        guard let manager, var strip = strips[listItem], let item = RowItem.of(gtk_list_item_get_item(listItem)),
              let row = manager.stripRow(at: Int(gtk_list_item_get_position(listItem))) else { return }
        let sameStrip = strip.item === item
        strip.item = item
        let wide: Bool, count: Int
        switch row {
        case .header, .footer: (wide, count) = (true, 1)
        case .strip(_, let items): (wide, count) = (false, items.count)
        }
        let slotCount = wide ? 1 : manager.columns
        resize(&strip, to: slotCount, listItem: listItem)
        strip.used = count
        strips[listItem] = strip  // the tiles' positions are read from it
        for (index, slot) in strip.slots.enumerated() {
            let tile = OpaquePointer(slot)
            if wide { gtk_widget_remove_css_class(slot, "tile") } else { gtk_widget_add_css_class(slot, "tile") }
            guard index < count, let position = position(ofTile: tile) else {
                gtk_widget_set_focusable(slot, 0)
                manager.factory.clearTile(tile)
                continue
            }
            gtk_widget_set_focusable(slot, wide ? 0 : 1)
            let tileItem = sameStrip ? manager.factory.lastItem(ofTile: tile) ?? manager.bridge.item(at: position) : manager.bridge.item(at: position)
            manager.factory.bindTile(tile, item: tileItem)
            manager.showSelection(ofTile: slot, at: position)
        }
    }

    private func unbind(_ listItem: OpaquePointer) {
        guard let manager, let strip = strips[listItem] else { return }
        for slot in strip.slots { manager.factory.unbind(OpaquePointer(slot)) }
    }

    /// GTK is taking the list item apart, its widgets with it: only what the slots showed is
    /// let go of.
    private func teardown(_ listItem: OpaquePointer) {
        guard let strip = strips.removeValue(forKey: listItem) else { return }
        for slot in strip.slots {
            manager?.factory.teardown(OpaquePointer(slot))
            slotPlaces[OpaquePointer(slot)] = nil
        }
    }

    /// Gives `strip` `count` slots: new ones made (with their clicks), extra ones taken apart.
    private func resize(_ strip: inout Strip, to count: Int, listItem: OpaquePointer) {
        while strip.slots.count > count {
            let slot = strip.slots.removeLast()
            manager?.factory.teardown(OpaquePointer(slot))
            slotPlaces[OpaquePointer(slot)] = nil
            gtk_box_remove(gtkCast(strip.box, to: GtkBox.self), slot)
        }
        while strip.slots.count < count {
            let slot = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_box_append(gtkCast(strip.box, to: GtkBox.self), slot)
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

    /// The slots of the strips GTK shows now that show an item, with its position.
    var boundTiles: [(slot: UnsafeMutablePointer<GtkWidget>, position: Int)] {
        strips.values.flatMap { strip in
            strip.slots.prefix(strip.used).compactMap { slot in position(ofTile: OpaquePointer(slot)).map { (slot, $0) } }
        }
    }

    // MARK: TileSlots

    func position(ofTile tile: OpaquePointer) -> Int? {
        guard let manager, let (listItem, index) = slotPlaces[tile], strips[listItem]?.item != nil,
              let row = manager.stripRow(at: Int(gtk_list_item_get_position(listItem))) else { return nil }
        switch row {
        case .header(let section): return index == 0 ? manager.bridge.layout.position(of: .header(section: section)) : nil
        case .footer(let section): return index == 0 ? manager.bridge.layout.position(of: .footer(section: section)) : nil
        case .strip(let section, let items):
            guard index < items.count else { return nil }
            return manager.bridge.layout.position(of: .item(IndexPath(item: items.lowerBound + index, section: section)))
        }
    }

    func setChild(_ widget: UnsafeMutablePointer<GtkWidget>, ofTile tile: OpaquePointer) {
        let slot = UnsafeMutablePointer<GtkWidget>(tile)
        while let child = gtk_widget_get_first_child(slot) { gtk_box_remove(gtkCast(slot, to: GtkBox.self), child) }
        gtk_box_append(gtkCast(slot, to: GtkBox.self), widget)
    }
}
