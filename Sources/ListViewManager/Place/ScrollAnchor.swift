import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// Keeps the view on the same items through each change of the storage
/// (`Configuration.keepsPlace`), or at the bottom of the list while it is there
/// (`Configuration.livesAtBottom`).
///
/// GTK anchors its viewport to a position, not an item: it follows inserts and removes
/// before the anchor, but a moved row is removed and inserted again (the bridge's item
/// objects are new each time, so GTK cannot find the row again), and a reload is one
/// splice of everything; GTK then keeps the position, and shows whatever item is there.
///
/// Before the first change after a layout, the item row at the top of the view (or the
/// one with the keyboard focus) is noted with its offset; each change carries its index
/// path along (a reload, by the item's identity); after the next layout, in the same frame
/// (GDK lays out again when a layout asks for one), the view moves by what the row moved.
/// The cost is a look at the rows on screen once per frame that has changes, and a walk of
/// each change's log for one index path.
///
/// A list living at its bottom that is at its bottom before a change is put back there
/// after it (GTK keeps the top of the view where it was, so items added at the end would
/// go below it); scrolled up, it keeps its place as above, and counts the items that came
/// below the last one it had (`newItemsBelow`).
@MainActor
final class ScrollAnchor: UpdateParticipant {
    private unowned let manager: ItemViewManager
    /// What the view is held on while changes come in before the next layout.
    private enum Held {
        /// The item at `indexPath`, its row's top `offset` below the top of the view.
        case item(indexPath: IndexPath, offset: Double)
        /// The bottom of the list.
        case bottom
    }
    /// What to keep in place.
    private var anchor: Held?
    /// Whether the view showed the bottom of the list at the last layout.
    private var wasAtBottomAtLastLayout = false
    /// The items that came below the last item the list had while scrolled up.
    let newItemsBelow = NewItemsBelow()
    /// Whether the view is to be moved back to `anchor` at the next layout.
    private var isPending = false
    /// How many times the row was looked for or moved since the change.
    private var tries = 0
    /// The frame after which the row is no longer held in place (GTK 4.12 and later scroll
    /// to the focused row when a change re-makes its widget, a layout after the one that
    /// put the anchored row back: the row is held for the next few frames).
    private var holdUntilFrame: Int = 0
    /// The view's scroll position at the last layout (nil before the first one seen).
    private var valueAtLastLayout: Double?

    /// The view's scroll position now.
    private var currentValue: Double {
        adjustment.map(gtk_adjustment_get_value) ?? 0
    }

    /// The view's vertical adjustment.
    private var adjustment: UnsafeMutablePointer<GtkAdjustment>? {
        gtk_scrollable_get_vadjustment(OpaquePointer(manager.kind.listBase(manager.view)))
    }

    /// Whether the view shows the bottom of the list (all of it, when it is short).
    var isAtBottom: Bool {
        guard let adjustment else { return true }
        return gtk_adjustment_get_value(adjustment) + gtk_adjustment_get_page_size(adjustment) >= gtk_adjustment_get_upper(adjustment) - 1
    }

    /// Whether the view is at the top of the list.
    private var isAtTop: Bool {
        guard let adjustment else { return true }
        return gtk_adjustment_get_value(adjustment) < 0.5
    }

    /// Whether the row was put back in place since the change.
    private var isInPlace = false
    /// Calls `settle` after each layout, once a change was anchored.
    private var afterLayout: AfterLayout?

    init(manager: ItemViewManager) {
        self.manager = manager
    }

    var phases: UpdatePhases { [.beforeSplices, .afterSplices] }

    func willApply(_ change: ContentChange) {
        // A row held in place after the last change: the new change starts from what is
        // shown now.
        if isInPlace { finish() }
        // One look at the manager when the options are off (its reference is unowned: each
        // look costs a check).
        let configuration = manager.configuration, livesAtBottom = configuration.livesAtBottom
        guard configuration.keepsPlace || livesAtBottom else { return }
        watchLayouts()
        let isShown = gtk_widget_get_mapped(manager.view) != 0
        if anchor == nil, !manager.isScrollingToARow, isShown {
            if livesAtBottom, isAtBottom {
                anchor = .bottom
            } else if isAtTop, !livesAtBottom {
                // A list at its top stays there, as GTK keeps it: what comes at the top is
                // shown (new mail in an inbox; a re-sort shows its first rows). Not a list
                // living at its bottom: earlier items loaded above keep its view still.
            } else if let row = manager.anchorRow(scrolledBy: valueAtLastLayout.map { currentValue - $0 } ?? 0) {
                // The rows are where the last layout put them: a scroll since (the user's, in
                // this frame) has moved them by the difference.
                anchor = .item(indexPath: row.indexPath, offset: row.offset)
            }
        }
        if livesAtBottom, isShown, !isAtBottom { newItemsBelow.noteLastItem(of: manager.bridge.layout, models: manager.bridge.models, before: change) }
        // Found again by identity once the new models are in (nil: by index path).
        if change.isReload, case .item(let indexPath, _)? = anchor {
            identityBeforeReload = manager.bridge.models.item(at: indexPath).flatMap(itemIdentity(of:))
        }
    }

    /// Takes the view to the bottom of the list at the next layouts (once it has a size),
    /// and keeps it there for the next few frames.
    func goToBottom() {
        watchLayouts()
        anchor = .bottom
        startFollowing()
    }

    /// Calls `settle` after each layout from now on.
    private func watchLayouts() {
        if afterLayout == nil {
            afterLayout = AfterLayout(of: manager.view) { [weak self] in self?.settle() }
        }
    }

    /// The anchored item's identity, across a reload.
    private var identityBeforeReload: String?

    func didApply(_ applied: AppliedChange) {
        if newItemsBelow.isCounting { newItemsBelow.count(after: applied.change, in: manager.storage) }
        switch anchor {
        case nil: return
        case .bottom: break
        case .item(let indexPath, let offset):
            let found: IndexPath?
            switch applied.change.kind {
            case .update(let update): found = Self.survivor(of: indexPath, through: update, in: applied.change.models)
            case .reload:
                found = identityBeforeReload.flatMap { manager.storage.indexPath(ofItemIdentifiedBy: $0, near: indexPath) }
                    ?? Self.clamped(indexPath, in: applied.change.models)
                identityBeforeReload = nil
            }
            guard let found else {
                anchor = nil
                return
            }
            anchor = .item(indexPath: found, offset: offset)
        }
        // The first change since the last layout asks for one; the others follow the row.
        guard !isPending else { return }
        startFollowing()
    }

    /// Puts the view back on `anchor` after the next layouts.
    private func startFollowing() {
        isPending = true
        isInPlace = false
        tries = 0
        holdUntilFrame = frame.map { $0 + 3 } ?? 0
        gtk_widget_queue_allocate(manager.kind.listBase(manager.view))
    }

    /// Where the item at `indexPath` is after `update`; when it went, the nearest item after
    /// it that stayed (else before it). Nil when the section went, or nothing near stayed.
    private static func survivor(of indexPath: IndexPath, through update: StorageUpdate, in models: any SectionedModels) -> IndexPath? {
        if let moved = update.newIndexPath(for: indexPath) { return moved }
        for distance in 1...64 {
            for neighbour in [indexPath.item + distance, indexPath.item - distance] where neighbour >= 0 {
                if let moved = update.newIndexPath(for: IndexPath(item: neighbour, section: indexPath.section)),
                   moved.item < models.numberOfItems(inSection: moved.section) {
                    return moved
                }
            }
        }
        return nil
    }

    /// `indexPath`, or the last item of its section when the section is shorter now.
    private static func clamped(_ indexPath: IndexPath, in models: any SectionedModels) -> IndexPath? {
        guard indexPath.section < models.numberOfSections() else { return nil }
        let count = models.numberOfItems(inSection: indexPath.section)
        guard count > 0 else { return nil }
        return IndexPath(item: min(indexPath.item, count - 1), section: indexPath.section)
    }

    /// After GTK's layout: the anchored row back where it was; GTK is first asked to bring
    /// it in when it did not lay it out (it moved far). Each move is looked at again after
    /// the next layout (GDK lays out again in the same frame when a layout asks for one):
    /// a row GTK had not placed yet may have moved once more. Once in place, the row is
    /// only brought back if GTK takes the view away from it altogether (to the focused row)
    /// in the next few frames.
    private func settle() {
        let previousValue = valueAtLastLayout, wasAtBottom = wasAtBottomAtLastLayout
        valueAtLastLayout = currentValue
        defer { wasAtBottomAtLastLayout = isAtBottom }
        if newItemsBelow.count > 0, isAtBottom { newItemsBelow.reset() }
        // The view left the bottom without going up (GTK laid rows out taller than it
        // guessed, below the view or above it, a row grew, a sectioned grid's strips were
        // made once it had its width): not the user's doing, who scrolls up.
        let leftBottomByItself = wasAtBottom && !isAtBottom && previousValue.map { currentValue >= $0 } ?? false
        if manager.configuration.livesAtBottom, leftBottomByItself, anchor == nil { goToBottom() }
        switch anchor {
        case nil: return
        case _ where !isPending: anchor = nil
        case .bottom: settleAtBottom(leftByItself: leftBottomByItself)
        case .item(let indexPath, let offset): settle(indexPath, at: offset)
        }
    }

    /// The current frame's number (nil before the view is realized).
    private var frame: Int? {
        gtk_widget_get_frame_clock(manager.view).map { Int(gdk_frame_clock_get_frame_counter($0)) }
    }

    /// Keeps the row of the item at `indexPath` `offset` below the top of the view.
    private func settle(_ indexPath: IndexPath, at offset: Double) {
        let listBase = manager.kind.listBase(manager.view)
        guard tries < 12, let position = manager.position(of: indexPath) else { return finish() }
        let rowWidget = manager.shownRowWidget(at: position)
        if isInPlace {
            if frame ?? .max > holdUntilFrame { return finish() }
            // Only GTK's own jump to the focused row is undone, not the user's scrolling.
            guard rowWidget == nil, manager.focusedRowInView() != nil else { return }
            isInPlace = false
        }
        tries += 1
        guard let rowWidget else {
            guard let shown = manager.viewPosition(ofRow: position) else { return finish() }
            cgtk_shims_widget_activate_action(listBase, "list.scroll-to-item", g_variant_new_uint32(UInt32(shown)))
            gtk_widget_queue_allocate(listBase)
            return
        }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(rowWidget, listBase, &bounds) != 0, let adjustment else { return finish() }
        let distance = Double(bounds.origin.y) - offset
        guard abs(distance) >= 0.5 else {
            isInPlace = true
            return
        }
        let value = gtk_adjustment_get_value(adjustment)
        gtk_adjustment_set_value(adjustment, value + distance)
        // At an end of the list, the view cannot go further: done.
        if gtk_adjustment_get_value(adjustment) == value { finish() }
    }

    /// Takes the view to the bottom of the list. GTK is first asked to bring the last row in
    /// when it does not show it (GTK 4.8 shows a blank view when the view is moved far
    /// while it lays out a new list); then the view is moved to the bottom of what GTK laid
    /// out. GTK guesses the height of the rows it has not laid out, and finds them taller or
    /// shorter once it lays them out: the view is moved again until it rests at the bottom,
    /// and whenever it leaves the bottom without going up (see `settle`). GTK's jump to the
    /// focused row in the next few frames is undone.
    private func settleAtBottom(leftByItself: Bool) {
        guard let adjustment else { return finish() }
        // Not laid out at its size yet.
        guard gtk_adjustment_get_page_size(adjustment) > 0, !manager.isReflowing else { return }
        if holdUntilFrame == 0, let frame { holdUntilFrame = frame + 3 }
        if isInPlace {
            if frame ?? .max > holdUntilFrame { return finish() }
            guard !isAtBottom, leftByItself || manager.focusedRowInView() != nil else { return }
            isInPlace = false
        }
        guard tries < 12 else { return finish() }
        tries += 1
        let last = manager.bridge.layout.count - 1
        if tries == 1, last >= 0, manager.shownRowWidget(at: last) == nil, let shown = manager.viewPosition(ofRow: last) {
            let listBase = manager.kind.listBase(manager.view)
            cgtk_shims_widget_activate_action(listBase, "list.scroll-to-item", g_variant_new_uint32(UInt32(shown)))
            gtk_widget_queue_allocate(listBase)
        } else if isAtBottom {
            isInPlace = true
        } else {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment))
        }
    }

    private func finish() {
        isPending = false
        isInPlace = false
        anchor = nil
    }
}

extension ItemViewManager {
    /// The item row to keep in place through a change: the one with the keyboard focus
    /// when it is in view, else the first item row wholly in view; never the item the user
    /// is moving (the view would follow it to where it is dropped).
    /// The rows are placed as the last layout placed them, the view scrolled by `scrolled`
    /// since.
    func anchorRow(scrolledBy scrolled: Double = 0) -> (indexPath: IndexPath, offset: Double)? {
        let moved = itemMovedByUser
        if scrolled == 0, let focused = focusedRowInView(), focused.indexPath != moved { return focused }
        return topItemRow(excluding: moved, scrolledBy: scrolled).map { ($0.indexPath, $0.offset) }
    }

    /// The item row with the keyboard focus and its offset, when GTK shows it in view.
    func focusedRowInView() -> (indexPath: IndexPath, offset: Double)? {
        if let focused = focusedPosition, case .item(let indexPath)? = bridge.layout.row(at: focused),
           let rowWidget = shownRowWidget(at: focused) {
            let listBase = kind.listBase(view)
            var bounds = graphene_rect_t()
            // GTK 4.24 keeps the focused row's widget mapped where it was when it scrolls out
            // of view: it is in view only when GTK finds it under its own middle.
            if gtk_widget_compute_bounds(rowWidget, listBase, &bounds) != 0, bounds.origin.y >= 0, bounds.size.height > 0,
               Double(bounds.origin.y + bounds.size.height) <= Double(gtk_widget_get_height(listBase)) + 0.5,
               let picked = gtk_widget_pick(listBase, Double(bounds.origin.x + bounds.size.width / 2),
                                            Double(bounds.origin.y + bounds.size.height / 2), GTK_PICK_DEFAULT),
               picked == rowWidget || gtk_widget_is_ancestor(picked, rowWidget) != 0 {
                return (indexPath, Double(bounds.origin.y))
            }
        }
        return nil
    }
}
