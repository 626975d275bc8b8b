import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// A GtkSignalListItemFactory of a manager: on bind it shows a row of the mapped type in the
/// list item and updates it. A manager has one for its items (or one per column), and on
/// GTK 4.12 and later one more for its section headers, whose objects are GtkListHeaders.
///
/// Each list item keeps the rows it has shown, one per mapping, all but one hidden (in a box
/// once there are two): binding a model of another row type shows that type's row (made the
/// first time) and hides the others. Rows are thus reused without ever moving between list
/// items, which in GTK means unrealising and realising them again, with their style.
@MainActor
final class RowFactory {
    private let reference: ObjectReference<OpaquePointer>
    /// The GtkListItemFactory.
    var factory: OpaquePointer { reference.pointer }
    /// What the factory's objects are.
    let slots: Slots
    /// How a bound row is chosen and what happens around binding (set by the manager).
    weak var delegate: RowFactoryDelegate?
    /// The row each list item shows (or last showed).
    private(set) var attached: [OpaquePointer: AttachedRow] = [:]
    /// The rows each list item keeps.
    private var hosts: [OpaquePointer: RowHost] = [:]
    /// Each list item by the child widget its host gave it (`listItem(showing:)`).
    private var listItemsByChild: [UnsafeMutablePointer<GtkWidget>: OpaquePointer] = [:]
    /// Unbound rows whose `didEndDisplaying` waits to see whether GTK binds the same item
    /// again at once (it unbinds and rebinds every realised row on selection and position
    /// changes; those are refreshes, not new displays).
    private var pendingEnds: [OpaquePointer: AttachedRow] = [:]
    private var flushScheduled = false
    /// How many times a row was bound or updated in place with a model (for tests and benchmarks).
    private(set) var updateCount = 0
    /// Bound list items whose new content waits until GTK shows them (`updatesHiddenRowsWhenShown`).
    private var waitingContent: Set<OpaquePointer> = []
    /// Calls `showWaitingContent` after each layout of the view, once enabled.
    private var afterLayout: AfterLayout?
    /// How many rows were created.
    private(set) var createdCount = 0
    /// How many bound rows updates have looked at again because they may have moved (GTK
    /// 4.12 and later; for tests and benchmarks).
    private(set) var followedCount = 0

    /// What a factory's objects ("slots") are.
    enum Slots {
        /// GtkListItems: a view's items, or a column view's cells.
        case listItems
        /// GtkListHeaders (GTK 4.12 and later): each shows the header of the section of its
        /// item (the section's first row), or nothing.
        case sectionHeaders
        /// Tiles of a sectioned grid's strips (`TileSlots`): widgets of the manager's, bound
        /// by `bindTile(_:item:)` rather than by GTK.
        case tiles
    }

    /// Where tiles are and what they show (`tiles` slots).
    weak var tiles: TileSlots?

    /// The bound section headers, those showing nothing included (`sectionHeaders` only).
    private var boundHeaders: Set<OpaquePointer> = []

    /// A list item's child row and what it shows.
    struct AttachedRow {
        /// The GtkListItem (or column view cell, or GtkListHeader) showing the row.
        let listItem: OpaquePointer
        /// The factory that bound it.
        unowned let factory: RowFactory
        let row: RowWidget
        let mapping: ViewModelMapping
        var item: RowItem?
        var flatRow: FlatRow?
        var isBound: Bool

        /// The position of the row in the view's list now (list items only).
        @MainActor var position: Int { factory.position(of: listItem) }
    }

    /// The position in the view's list of what `listItem` shows now.
    func position(of listItem: OpaquePointer) -> Int {
        guard slots == .tiles else { return Int(gtk_list_item_get_position(listItem)) }
        return tiles?.position(ofTile: listItem) ?? -1
    }

    /// The widget `listItem` shows (its host's child), if any.
    func child(of listItem: OpaquePointer) -> UnsafeMutablePointer<GtkWidget>? {
        guard slots == .tiles else { return gtk_list_item_get_child(listItem) }
        return hosts[listItem]?.child
    }

    init(slots: Slots = .listItems) {
        self.slots = slots
        reference = ObjectReference(adopting: gtk_signal_list_item_factory_new())
        let instance = UnsafeMutableRawPointer(factory)
        Signal.connect(instance, "bind") { [weak self] (listItem: UnsafeMutableRawPointer?) in
            RowFactory.whileGTKCalls({ self?.delegate }) { self?.bind(OpaquePointer(listItem!)) }
        }
        Signal.connect(instance, "unbind") { [weak self] (listItem: UnsafeMutableRawPointer?) in
            RowFactory.whileGTKCalls({ self?.delegate }) { self?.unbind(OpaquePointer(listItem!)) }
        }
        Signal.connect(instance, "teardown") { [weak self] (listItem: UnsafeMutableRawPointer?) in
            RowFactory.whileGTKCalls({ self?.delegate }) { self?.teardown(OpaquePointer(listItem!)) }
        }
    }

    /// How deep GTK is in factory signals now (a bind, and what its handlers do).
    private static var gtkCallDepth = 0

    /// Whether GTK is in the middle of binding, unbinding or tearing down a list item of
    /// some factory: taking a view's model or factories away now would pull its list items
    /// from under it (`ItemViewManager`'s deinit waits then).
    static var isInsideGTKCall: Bool { gtkCallDepth > 0 }

    /// Runs `body`, a factory signal GTK emits for one of its list items (a view's factory,
    /// or a sectioned grid's strips'): until GTK is done, the manager is not taken apart
    /// (`isInsideGTKCall`) and the storage changes that event handlers make wait
    /// (`holdingUpdates` of `delegate`'s manager): a change reaching GTK inside its own bind
    /// or teardown would change its list items under it.
    static func whileGTKCalls(_ delegate: () -> RowFactoryDelegate?, _ body: () -> Void) {
        gtkCallDepth += 1
        defer { gtkCallDepth -= 1 }
        do {  // let go of inside: a handler may drop the manager, whose deinit must see GTK's call
            guard let delegate = delegate() else { return body() }
            delegate.holdingUpdates(body)
        }
    }

    /// Every row made so far, bound or not, with the mapping it was made for.
    var madeRows: [(row: RowWidget, mapping: ViewModelMapping)] {
        hosts.values.flatMap(\.rows)
    }

    /// The bound rows, with their list items.
    var boundRows: [(listItem: OpaquePointer, row: AttachedRow)] {
        attached.filter(\.value.isBound).map { ($0.key, $0.value) }
    }

    /// The indent and expander arrow `listItem` shows before its row, if its rows are a tree's.
    func disclosure(of listItem: OpaquePointer) -> TreeDisclosure? {
        hosts[listItem]?.disclosure
    }

    /// The indent and expander arrow of `listItem`, made now if it has none yet.
    func makeDisclosure(of listItem: OpaquePointer) -> TreeDisclosure? {
        hosts[listItem]?.makeDisclosure()
    }

    /// The list item whose child widget is `child`, if any.
    func listItem(showing child: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer? {
        listItemsByChild[child]
    }

    /// `host` gave its list item `child` in place of `old`.
    func host(_ host: RowHost, replacedChild old: UnsafeMutablePointer<GtkWidget>?, with child: UnsafeMutablePointer<GtkWidget>) {
        if let old { listItemsByChild[old] = nil }
        listItemsByChild[child] = host.listItem
    }

    /// The bound list item at `position`, if any, its row showing its item's content (a row
    /// handed out is never one waiting to be shown): the one GTK shows, when GTK also keeps
    /// one it no longer shows.
    func boundListItem(at position: Int) -> OpaquePointer? {
        let listItems = boundListItems(at: position)
        // GTK keeps some widgets it no longer shows (unmapped, where they last were).
        return listItems.first { child(of: $0).map { gtk_widget_get_mapped($0) != 0 } ?? false } ?? listItems.first
    }

    /// The bound list items at `position`, their rows showing their items' content: one,
    /// or more while GTK keeps a widget it no longer shows (unmapped) beside the one it does.
    func boundListItems(at position: Int) -> [OpaquePointer] {
        let listItems = attached.filter { $0.value.isBound && self.position(of: $0.key) == position }.map(\.key)
        listItems.forEach(showWaitingContent(of:))
        return listItems
    }

    /// The widget GTK made for the bound list item at `position` (a child of the view, the
    /// parent of what the list item shows), if any.
    func itemWidget(at position: Int) -> UnsafeMutablePointer<GtkWidget>? {
        boundListItem(at: position).flatMap(child(of:)).flatMap(gtk_widget_get_parent)
    }

    /// Binds `slot` to what it shows now.
    func bind(_ slot: OpaquePointer) {
        switch slots {
        case .listItems: bind(slot, to: RowItem.of(gtk_list_item_get_item(slot)))
        case .tiles: break  // bound by `bindTile`
        case .sectionHeaders:
            boundHeaders.insert(slot)
            showSectionHeader(in: slot, updated: false)
        }
    }

    /// Binds `listItem` to the row item GTK gave it. Binding the item the list item had
    /// just before is a refresh: the row already shows it, so nothing is updated or fired,
    /// unless the row's new place calls for another row type.
    private func bind(_ listItem: OpaquePointer, to item: RowItem?) {
        guard let delegate, let item, item.kind != .vanishing else { return }
        guard item.kind != .placeholder else {
            showNothing(in: listItem)
            gtk_list_item_set_selectable(listItem, 0)
            gtk_list_item_set_activatable(listItem, 0)
            return
        }
        guard let model = item.model, let flatRow = delegate.flatRow(at: position(of: listItem)) else { return }
        // (A row whose new content was waiting to be shown is bound anew.)
        if var entry = attached[listItem], !entry.isBound, entry.item === item, !waitingContent.contains(listItem),
           entry.flatRow == flatRow || delegate.mapping(for: flatRow, model: model) === entry.mapping {
            let moved = entry.flatRow != flatRow
            entry.isBound = true
            entry.flatRow = flatRow
            attached[listItem] = entry
            pendingEnds[listItem] = nil
            updateFlags(of: listItem, item: item, model: model, at: flatRow, delegate: delegate)
            if moved { delegate.rowDidMove(entry) }
            return
        }
        endDisplaying(listItem)
        show(model, of: item, as: flatRow, in: listItem, delegate: delegate)
        delegate.rowDidBind(attached[listItem]!, listItem: listItem)
    }

    /// Shows `model` (the content of `item`) in `listItem`, bound now.
    private func show(_ model: Any, of item: RowItem, as flatRow: FlatRow, in listItem: OpaquePointer, delegate: RowFactoryDelegate) {
        waitingContent.remove(listItem)
        let mapping = delegate.mapping(for: flatRow, model: model)
        let row = dequeue(mapping, into: listItem)
        mapping.updateRow(row, model)
        updateCount += 1
        attached[listItem] = AttachedRow(listItem: listItem, factory: self, row: row, mapping: mapping, item: item, flatRow: flatRow, isBound: true)
        updateFlags(of: listItem, item: item, model: model, at: flatRow, delegate: delegate)
    }

    /// From now on, a row GTK keeps bound but does not show (GTK 4.8 keeps 200) takes the new
    /// content of its item only once GTK shows it, after the layout that maps it, in the same
    /// frame: content that changes while rows are off screen (pages of a paged storage
    /// arriving) costs only the rows shown.
    func updatesHiddenRowsWhenShown(in view: UnsafeMutablePointer<GtkWidget>) {
        guard slots == .listItems, afterLayout == nil else { return }
        afterLayout = AfterLayout(of: view) { [weak self] in self?.showWaitingContent() }
    }

    /// Updates the rows of the list items waiting for content that GTK now shows (in the
    /// layout: storage changes made by the handlers wait until the frame is done).
    private func showWaitingContent() {
        guard !waitingContent.isEmpty, let delegate else { return }
        delegate.holdingUpdates {
            for listItem in waitingContent {
                guard let child = child(of: listItem), gtk_widget_get_mapped(child) != 0 else { continue }
                showWaitingContent(of: listItem)
            }
        }
    }

    /// Puts its item's content into the row of `listItem` now, if it waits for it.
    private func showWaitingContent(of listItem: OpaquePointer) {
        guard waitingContent.remove(listItem) != nil, let entry = attached[listItem], entry.isBound,
              let model = entry.item?.model else { return }
        entry.mapping.updateRow(entry.row, model)
        updateCount += 1
        delegate?.rowDidUpdate(entry)
    }

    /// Puts `model`, the new content of the bound `listItem`'s item, into its row: the same
    /// row updated in place when the row type still fits (reported as `rowDidUpdate`; when
    /// GTK shows the row, if `updatesHiddenRowsWhenShown`), else the old row ends its display
    /// with its old model and a new row is bound.
    func replaceContent(of listItem: OpaquePointer, with model: Any, as flatRow: FlatRow) {
        guard let delegate, var entry = attached[listItem], entry.isBound, let item = entry.item else { return }
        let mapping = delegate.mapping(for: flatRow, model: model)
        guard mapping === entry.mapping else {
            release(listItem)
            endDisplaying(listItem)
            item.model = model
            show(model, of: item, as: flatRow, in: listItem, delegate: delegate)
            delegate.rowDidBind(attached[listItem]!, listItem: listItem)
            return
        }
        item.model = model
        entry.flatRow = flatRow
        attached[listItem] = entry
        updateFlags(of: listItem, item: item, model: model, at: flatRow, delegate: delegate)
        if afterLayout != nil, let child = child(of: listItem), gtk_widget_get_mapped(child) == 0 {
            waitingContent.insert(listItem)
            return
        }
        waitingContent.remove(listItem)
        mapping.updateRow(entry.row, model)
        updateCount += 1
        delegate.rowDidUpdate(entry)
    }

    /// Whether GTK binds a row again when only its position changes: GTK 4.8 does (every
    /// shifted row is unbound and bound again); GTK 4.12 and later keep it bound and only
    /// move it, so what a row remembered of its place must be followed (`followMovedRows`).
    static let rebindsMovedRows = cgtk_shims_gtk_at_least(12) == 0

    /// Follows the bound rows that an update moved without GTK binding them again: each
    /// takes its new place (its index path in events). Where the place matters to the rows
    /// (`rowsDependOnPlace`), a moved row is described again, takes the selectability its
    /// new place gives, and shows another row type when its mapping's condition now picks
    /// one, as a new bind would. Rows before `unchangedRows` did not move: an update looks
    /// only at the bound rows after its first change, and costs O(1) for each of them
    /// unless the place matters.
    func followMovedRows(after unchangedRows: Int) {
        // Tiles are never bound again by GTK: they are followed on every GTK.
        guard let delegate, slots == .tiles || (slots == .listItems && !Self.rebindsMovedRows) else { return }
        let placeMatters = delegate.rowsDependOnPlace
        // Found first, changed after: replacing a row's content changes `attached`.
        var moved: [OpaquePointer] = []
        for index in attached.indices where attached.values[index].isBound {
            let listItem = attached.keys[index]
            let position = position(of: listItem)
            guard position >= unchangedRows else { continue }
            followedCount += 1
            guard let flatRow = delegate.flatRow(at: position), flatRow != attached.values[index].flatRow else { continue }
            attached.values[index].flatRow = flatRow
            if placeMatters { moved.append(listItem) }
        }
        for listItem in moved {
            guard let entry = attached[listItem], let item = entry.item, let model = item.model, let flatRow = entry.flatRow else { continue }
            if delegate.mapping(for: flatRow, model: model) === entry.mapping {
                updateFlags(of: listItem, item: item, model: model, at: flatRow, delegate: delegate)
                delegate.rowDidMove(entry)
            } else {
                replaceContent(of: listItem, with: model, as: flatRow)
            }
        }
    }

    /// Shows the header of the section of `header`'s item, as the layout has it now, or
    /// nothing when that section shows none. The header the slot already shows is kept (a
    /// refresh: GTK binds a header again when its section's first row changes) and only
    /// updated with its model, reported as `rowDidUpdate` when `updated` (the storage
    /// changed it); a header of another section, or of another row type, is bound anew.
    private func showSectionHeader(in header: OpaquePointer, updated: Bool) {
        guard let delegate else { return }
        // GTK 4.18 leaves a header's start and end behind when rows before it go; its item,
        // the section's first row, carries the section's id.
        guard let item = RowItem.of(cgtk_shims_list_header_get_item(UnsafeMutableRawPointer(header))),
              let flatRow = delegate.sectionHeader(above: item), let model = delegate.model(of: flatRow) else {
            showNothing(in: header)
            return
        }
        if var entry = attached[header], entry.flatRow == flatRow, delegate.mapping(for: flatRow, model: model) === entry.mapping {
            pendingEnds[header] = nil
            let wasBound = entry.isBound
            entry.isBound = true
            entry.item?.model = model
            attached[header] = entry
            entry.mapping.updateRow(entry.row, model)
            if wasBound, updated { delegate.rowDidUpdate(entry) }
            return
        }
        release(header)
        endDisplaying(header)
        show(model, of: RowItem(kind: .row(.header), model: model), as: flatRow, in: header, delegate: delegate)
        delegate.rowDidBind(attached[header]!, listItem: header)
    }

    /// Looks at every bound section header again after an update: each shows its section's
    /// header as the layout now has it (`sections`: those whose header model changed).
    func followSectionHeaders(updatedSections sections: Set<Int>) {
        guard slots == .sectionHeaders else { return }
        for header in boundHeaders {
            let section = attached[header].flatMap { $0.isBound ? $0.flatRow?.section : nil }
            showSectionHeader(in: header, updated: section.map(sections.contains) ?? false)
        }
    }

    /// Ends the display of what `slot` showed (at once) and shows nothing there.
    private func showNothing(in slot: OpaquePointer) {
        release(slot)
        endDisplaying(slot)
        attached[slot] = nil
        hosts[slot]?.hideCurrent()
    }

    /// Whether the list item can be focused, selected and activated by the user (items only,
    /// as the app's rules allow). GTK 4.8 gives the keyboard focus only to selectable items.
    private func updateFlags(of listItem: OpaquePointer, item: RowItem, model: Any, at flatRow: FlatRow, delegate: RowFactoryDelegate) {
        guard slots == .listItems else { return }
        let focusable = item.kind == .row(.item) && delegate.canFocus(model, at: flatRow)
        gtk_list_item_set_selectable(listItem, focusable && delegate.canSelect(model, at: flatRow) ? 1 : 0)
        gtk_list_item_set_activatable(listItem, focusable ? 1 : 0)
        cgtk_shims_list_item_set_focusable(listItem, focusable ? 1 : 0)
    }

    /// Sets the flags of every bound list item again (a rule was added).
    func refreshFlags() {
        guard let delegate else { return }
        for (listItem, entry) in attached where entry.isBound {
            guard let item = entry.item, let model = item.model, let flatRow = entry.flatRow else { continue }
            updateFlags(of: listItem, item: item, model: model, at: flatRow, delegate: delegate)
        }
    }

    func unbind(_ listItem: OpaquePointer) {
        boundHeaders.remove(listItem)
        release(listItem)
    }

    /// Marks `listItem`'s row unbound; its `didEndDisplaying` waits (see `pendingEnds`).
    private func release(_ listItem: OpaquePointer) {
        guard var entry = attached[listItem], entry.isBound else { return }
        entry.isBound = false
        attached[listItem] = entry
        pendingEnds[listItem] = entry
        scheduleFlush()
    }

    func teardown(_ listItem: OpaquePointer) {
        boundHeaders.remove(listItem)
        waitingContent.remove(listItem)
        endDisplaying(listItem)
        attached[listItem] = nil
        if let child = hosts.removeValue(forKey: listItem)?.child { listItemsByChild[child] = nil }
    }

    /// Fires the waiting `didEndDisplaying` of `listItem`'s last row, if any.
    private func endDisplaying(_ listItem: OpaquePointer) {
        if let entry = pendingEnds.removeValue(forKey: listItem) {
            delegate?.rowDidUnbind(entry)
        }
    }

    /// Fires every waiting `didEndDisplaying` once GTK is done with the current change.
    private func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        whenIdle { [weak self] in
            guard let self else { return }
            flushScheduled = false
            for listItem in Array(pendingEnds.keys) { endDisplaying(listItem) }
        }
    }

    /// The row of `mapping` in `listItem`'s host, shown, the host's other rows hidden.
    private func dequeue(_ mapping: ViewModelMapping, into listItem: OpaquePointer) -> RowWidget {
        let host: RowHost
        if let existing = hosts[listItem] {
            host = existing
        } else {
            host = RowHost(listItem: listItem, factory: self, slots: slots)
            hosts[listItem] = host
        }
        return host.show(mapping) {
            let row = mapping.makeRow()
            createdCount += 1
            let wrapper = Self.styleNewRow(row, for: mapping.kind)
            delegate?.rowWasCreated(row, kind: mapping.kind, host: host)
            return (row, wrapper)
        }
    }

    /// Styles a new row for its kind; returns the wrapper to show it in: a header is shown
    /// inside a box whose accessible role is heading, so screen readers announce it as one
    /// (a widget's role can only be set when it is made), owned by the caller (one
    /// reference). Also styles the pinned header's copies.
    static func styleNewRow(_ row: RowWidget, for kind: MappingKind) -> ObjectReference<UnsafeMutablePointer<GtkWidget>>? {
        switch kind {
        case .item:
            return nil
        case .header:
            gtk_widget_add_css_class(row.rootWidget, "section-header")
            gtk_widget_add_css_class(row.rootWidget, "heading")
            let heading = ObjectReference(sinking: cgtk_shims_heading_box_new(1)!)
            gtk_box_append(gtkCast(heading.pointer, to: GtkBox.self), row.rootWidget)
            return heading
        case .footer:
            gtk_widget_add_css_class(row.rootWidget, "section-footer")
            gtk_widget_add_css_class(row.rootWidget, "dim-label")
            return nil
        }
    }
}

/// What the factory asks of its manager.
@MainActor
protocol RowFactoryDelegate: AnyObject {
    func flatRow(at position: Int) -> FlatRow?
    /// The header shown above the section of `item`, its first row, if any (section headers).
    func sectionHeader(above item: RowItem) -> FlatRow?
    /// The model shown by `row` (section headers).
    func model(of row: FlatRow) -> Any?
    func mapping(for row: FlatRow, model: Any) -> ViewModelMapping
    /// Whether the user can select the row (the selection model asks the same rules again).
    func canSelect(_ model: Any, at row: FlatRow) -> Bool
    /// Whether the row can take the keyboard focus.
    func canFocus(_ model: Any, at row: FlatRow) -> Bool
    /// Whether what a bound row shows or allows depends on its index path (a mapping's
    /// condition, a selection or focus rule, a tooltip or a label), so that a moved row must be
    /// looked at again.
    var rowsDependOnPlace: Bool { get }
    func rowDidBind(_ row: RowFactory.AttachedRow, listItem: OpaquePointer)
    func rowDidUpdate(_ row: RowFactory.AttachedRow)
    /// `row` kept its row type and model but moved: bound again in its new place (GTK 4.8),
    /// or followed there (later GTKs, only where place matters).
    func rowDidMove(_ row: RowFactory.AttachedRow)
    func rowDidUnbind(_ row: RowFactory.AttachedRow)
    func rowWasCreated(_ row: RowWidget, kind: MappingKind, host: RowHost)
    /// Runs `body`, in which GTK or the factory is busy with its rows: storage changes made
    /// meanwhile are applied once GTK is done (`ListViewUpdater.holdingUpdates`).
    func holdingUpdates(_ body: () -> Void)
    /// Whether the rows are a tree's (`TreeStorage`): each list item shows an indent and an
    /// expander arrow before its row.
    var showsTree: Bool { get }
}

extension RowFactoryDelegate {
    /// Only a header factory asks: a column's cells show no section headers.
    func sectionHeader(above item: RowItem) -> FlatRow? { nil }
    func model(of row: FlatRow) -> Any? { nil }
    var showsTree: Bool { false }
}

extension RowFactory {
    /// Binds `tile` (a `tiles` slot) to `item`, the row item at the tile's position, as GTK
    /// binds a list item: binding the item the tile had just before is a refresh.
    func bindTile(_ tile: OpaquePointer, item: RowItem) {
        bind(tile, to: item)
    }

    /// Shows nothing in `tile` (a strip's tile past its last item): what it showed ends its
    /// display.
    func clearTile(_ tile: OpaquePointer) {
        guard attached[tile] != nil else { return }
        showNothing(in: tile)
    }

    /// The item `tile` last showed (to bind it to the same item again: a refresh).
    func lastItem(ofTile tile: OpaquePointer) -> RowItem? {
        attached[tile]?.item
    }
}

/// What a factory of tiles asks of the strips holding them.
@MainActor
protocol TileSlots: AnyObject {
    /// The position in the manager's flat list of the item `tile` shows now, if it shows one.
    func position(ofTile tile: OpaquePointer) -> Int?
    /// Puts `widget` into `tile` in place of what it held.
    func setChild(_ widget: UnsafeMutablePointer<GtkWidget>, ofTile tile: OpaquePointer)
}
