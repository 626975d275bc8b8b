import CGtk
import Foundation
import GtkKit
import ModelStorage

/// Where the strips are on screen: binding the tiles of the strips GTK shows and of those
/// near them, letting those gone far wait, keeping a strip in place through a re-flow, and
/// finding the strip under a point.
extension StripFactory {
    /// Shows again the strips of every list item GTK holds, whose places show other items
    /// after a re-flow (the storage changes that the tiles' handlers make wait until all are
    /// shown: a change could take list items away from under the loop).
    func showNewContents() {
        manager?.holdingUpdates {
            for listItem in strips.keys where gtk_list_item_get_item(listItem) != nil { bind(listItem) }
        }
    }

    /// After each layout: binds the waiting strips GTK shows (GTK maps the rows it shows and
    /// hides the others), whose tiles are laid out in another layout of the same frame, before
    /// it is painted; and, once the frame is done, those within half as many strips again as
    /// are shown before and after them, so that scrolling finds them ready; those that went far
    /// wait, their slots there for strips that need more. The storage changes that the tiles'
    /// handlers make wait until the frame is done: applied in the layout, they would change
    /// the strips GTK lays out, and ask for another layout, each time.
    func bindStripsNearView() {
        guard let manager, gtk_widget_get_mapped(manager.view) != 0 else { return }
        manager.holdingUpdates(bindStripsShownAndNear)
    }

    private func bindStripsShownAndNear() {
        placeKeptStrip()
        guard let stripHeight else { return learnStripHeight() }
        var visible: ClosedRange<Int>?
        var shownWaiting: [OpaquePointer] = []
        for (listItem, strip) in strips where gtk_widget_get_mapped(strip.box) != 0 {
            let position = Int(gtk_list_item_get_position(listItem))
            visible = visible.map { min($0.lowerBound, position)...max($0.upperBound, position) } ?? position...position
            if strip.waiting {
                shownWaiting.append(listItem)
            } else if !strip.showsWide {
                let height = gtk_widget_get_height(strip.box)
                if height > 0, height != stripHeight { self.stripHeight = height }
            }
        }
        guard let visible else { return }
        // Strips of tiles more than a screen and a half away wait again, their slots there for
        // the strips coming that need more (not a strip holding the keyboard focus).
        let far = (visible.lowerBound - visible.count * 3 / 2)...(visible.upperBound + visible.count * 3 / 2)
        var away = strips.filter { listItem, strip in
            !strip.waiting && !strip.showsWide && gtk_widget_get_focus_child(strip.box) == nil
                && !far.contains(Int(gtk_list_item_get_position(listItem)))
        }.map(\.key)
        if !shownWaiting.isEmpty {
            // After a jump: the strips left behind wait first, for their slots to be taken.
            for listItem in away { wait(listItem) }
            away = []
            for listItem in shownWaiting { bindTiles(of: listItem, refresh: false) }
        }
        let near = (visible.lowerBound - visible.count / 2)...(visible.upperBound + visible.count / 2)
        let soon = strips.filter { listItem, strip in strip.waiting && near.contains(Int(gtk_list_item_get_position(listItem))) }.map(\.key)
        guard !soon.isEmpty || !away.isEmpty, !prefetchScheduled else { return }
        prefetchScheduled = true
        whenIdle { [weak self] in
            guard let self else { return }
            prefetchScheduled = false
            self.manager?.holdingUpdates {
                for listItem in away where strips[listItem]?.waiting == false { wait(listItem) }
                for listItem in soon where strips[listItem]?.waiting == true && gtk_list_item_get_item(listItem) != nil {
                    bindTiles(of: listItem, refresh: false)
                }
            }
        }
    }

    /// The first item of the topmost strip of tiles on screen, and the top of its strip in the
    /// grid view (0 or less, where the grid is scrolled to).
    func topItem() -> (position: Int, y: Float)? {
        var top: (position: Int, y: Float)?
        for strip in strips.values where !strip.showsWide && !strip.waiting {
            guard let y = shownTop(of: strip), y < top?.y ?? .infinity, let first = strip.slots.first,
                  let position = position(ofTile: OpaquePointer(first)) else { continue }
            if y + Float(gtk_widget_get_height(gtk_widget_get_parent(strip.box))) > 0 { top = (position, y) }
        }
        return top
    }

    /// Scrolls the strip at `position` (in the grid view) to `y` once GTK shows it: a re-flow
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

    /// The top of the row GTK shows `strip` in, in the grid view, when GTK shows it.
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
        // At the grid's width, or the strip's own minimum when the grid has just been made
        // narrower and its strips are not laid out again yet (GTK 4.12 and later warn of a
        // widget measured for a width below its minimum).
        var minimumWidth: Int32 = 0, height: Int32 = 0
        gtk_widget_measure(strip.box, GTK_ORIENTATION_HORIZONTAL, -1, &minimumWidth, nil, nil, nil)
        gtk_widget_measure(strip.box, GTK_ORIENTATION_VERTICAL, max(gtk_widget_get_width(manager.view), minimumWidth), &height, nil, nil, nil)
        guard height > 0 else { return }
        stripHeight = height
        for strip in strips.values where strip.waiting { gtk_widget_set_size_request(strip.box, -1, height) }
    }

    /// The strip GTK shows at `y` in the grid view (or the shown strip nearest to it), by its
    /// position in the grid view, and the column at `x`.
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
}
