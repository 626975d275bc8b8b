import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// Where `scrollTo` puts the row scrolled to in the view.
public enum ScrollPosition: Sendable {
    /// As little as needed to show the whole row (where it is, when it is in view).
    case nearest
    /// At the top of the view (below the pinned section header, which names its section); a
    /// section scrolled to the top has its header at the top, under nothing.
    case top
    /// At the middle of the view.
    case center
    /// At the bottom of the view.
    case bottom
}

/// Where a row scrolled to comes to rest.
enum ScrollTarget: Equatable {
    /// At a place in the view; with `withSectionHeader`, the header GTK shows above the row
    /// (GTK 4.12's section headers), if any, counts as the row's top.
    case place(ScrollPosition, withSectionHeader: Bool)
    /// Its top this far below the top of the view (a place restored).
    case offset(Double)

    /// Whether the header above the row counts as its top.
    var withSectionHeader: Bool {
        if case .place(_, let withSectionHeader) = self { return withSectionHeader }
        return false
    }

    /// Whether the row comes to rest below the pinned copy of its section's header, once
    /// GTK has brought it in (a row put at a given offset rests there, under the copy or not).
    var keepsClearOfPinnedHeader: Bool {
        switch self {
        case .place(let place, let withSectionHeader): place != .top || !withSectionHeader
        case .offset: false
        }
    }

    /// Whether the row is looked at once more after it was moved: the pinned copy may move
    /// the list after GTK's first step, and a place in the middle, at the bottom or at an
    /// offset is the row's whatever the copy does.
    var isCheckedAgain: Bool {
        switch self {
        case .place(.center, _), .place(.bottom, _), .offset: true
        case .place(.nearest, _), .place(.top, _): false
        }
    }
}

extension ItemViewManager {
    /// Scrolls the list so that the item at `indexPath` is shown at `place` (as little as
    /// needed, by default). Returns false, changing nothing, when there is no such item.
    ///
    /// Near the ends of the list a row may not reach the place asked for: the list does not
    /// scroll past its first or last row.
    ///
    /// The list keeps its place by itself: GTK anchors the viewport to a row, so inserting
    /// or removing items above the visible rows does not move what is shown.
    @discardableResult
    public func scrollTo(_ indexPath: IndexPath, at place: ScrollPosition = .nearest) -> Bool {
        guard let position = position(of: indexPath) else { return false }
        return scroll(toRow: position, to: .place(place, withSectionHeader: place == .nearest))
    }

    /// Scrolls the list so that `section` is shown from its header (its first row when it
    /// shows no header) at `place`: at the top, by default, as a section picked from a
    /// sidebar or a search is expected. Returns false when the section shows no row.
    @discardableResult
    public func scrollTo(section: Int, at place: ScrollPosition = .top) -> Bool {
        guard section >= 0, section < storage.numberOfSections() else { return false }
        let first = bridge.layout.position(of: .header(section: section))
            ?? bridge.layout.position(of: .item(IndexPath(item: 0, section: section)))
            ?? bridge.layout.position(of: .footer(section: section))
        guard let first else { return false }
        return scroll(toRow: first, to: .place(place, withSectionHeader: true))
    }

    /// Scrolls to the row at `position` in two steps, on every GTK: GTK's
    /// `list.scroll-to-item` brings the row into view (GTK 4.12's `gtk_list_view_scroll_to`
    /// without focusing or selecting runs the same code, `gtk_list_base_scroll_to_item`, and
    /// its `GtkScrollInfo` has no alignment), then, once GTK has laid the row out, the view
    /// moves by the distance from where the row is to `place`. GTK estimates the heights of
    /// rows it has not laid out, so no place can be worked out before that.
    ///
    /// The last scroll asked for wins: one asked for while another is on its way replaces
    /// it (the first one's second step would measure rows the second one's first step moved).
    func scroll(toRow position: Int, to target: ScrollTarget) -> Bool {
        guard let row = bridge.layout.row(at: position), viewPosition(ofRow: position) != nil else { return false }
        isScrollingToARow = true
        scrollsAskedFor += 1
        let scroll = scrollsAskedFor
        whenSized { [weak self] in
            guard let self, scroll == scrollsAskedFor else { return }
            guard let position = bridge.layout.position(of: row), let shown = viewPosition(ofRow: position) else {
                isScrollingToARow = false
                return
            }
            if target.keepsClearOfPinnedHeader { pinnedHeader?.keepClear(of: position) }
            cgtk_shims_widget_activate_action(kind.listBase(view), "list.scroll-to-item", g_variant_new_uint32(UInt32(shown)))
            Screenshot.afterFrames(of: view, 2) { [weak self] in
                guard let self, scroll == scrollsAskedFor else { return }
                isScrollingToARow = false
                guard let position = bridge.layout.position(of: row) else { return }
                move(rowAt: position, to: target)
            }
        }
        return true
    }

    /// Moves the view so that the row at `position` (laid out by GTK) is at `target`, and
    /// looks again two frames later when `target.isCheckedAgain` (unless `again` is false).
    private func move(rowAt position: Int, to target: ScrollTarget, again: Bool = true) {
        if again, target.isCheckedAgain, let row = bridge.layout.row(at: position) {
            let scroll = scrollsAskedFor
            Screenshot.afterFrames(of: view, 2) { [weak self] in
                guard let self, scroll == scrollsAskedFor, let position = bridge.layout.position(of: row) else { return }
                move(rowAt: position, to: target, again: false)
            }
        }
        let listBase = kind.listBase(view)
        guard let rowWidget = shownRowWidget(at: position),
              let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(listBase)) else { return }
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(rowWidget, listBase, &bounds) != 0 else { return }
        var top = Double(bounds.origin.y)
        let bottom = top + Double(bounds.size.height)
        if target.withSectionHeader, let header = sectionHeaderWidget(above: rowWidget) {
            var headerBounds = graphene_rect_t()
            if gtk_widget_compute_bounds(header, listBase, &headerBounds) != 0 { top = Double(headerBounds.origin.y) }
        }
        let height = Double(gtk_widget_get_height(listBase))
        let distance: Double = switch target {
        // GTK's own step leaves a row 2 px short of the bottom edge on GTK 4.24, at times.
        case .place(.nearest, _): top < 0 ? top : max(bottom - height, 0)
        case .place(.top, _): top
        case .place(.center, _): (top + bottom - height) / 2
        case .place(.bottom, _): bottom - height
        case .offset(let offset): top - offset
        }
        guard abs(distance) >= 0.5 else { return }
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + distance)
        // The row at the top comes to rest below the pinned copy of its section's header.
        if target == .place(.top, withSectionHeader: false) { pinnedHeader?.keepClear(of: position) }
    }

    /// GTK's widget for the row at `position` (a child of the list base; a tile's slot in
    /// a sectioned grid), if GTK shows the row: found through the bound content of any of
    /// the manager's factories (a column view's rows are the cells of its columns).
    func shownRowWidget(at position: Int) -> UnsafeMutablePointer<GtkWidget>? {
        for factory in factories {
            for listItem in factory.boundListItems(at: position) {
                guard let child = factory.child(of: listItem) else { continue }
                let widget = rowWidget(containing: child) ?? child
                // GTK keeps some widgets it no longer shows (unmapped, where they last were).
                if gtk_widget_get_mapped(widget) != 0, gtk_widget_get_child_visible(widget) != 0 { return widget }
            }
        }
        return nil
    }

    /// The section header GTK shows just above `rowWidget` (GTK 4.12's section headers; a
    /// child of the view before the row's own), if there is one.
    private func sectionHeaderWidget(above rowWidget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        guard showsNativeSectionHeaders, let headerFactory,
              let header = gtk_widget_get_prev_sibling(rowWidget),
              let headerContent = gtk_widget_get_first_child(header),
              headerFactory.listItem(showing: headerContent) != nil else { return nil }
        return header
    }

    /// Runs `scroll` now if the view has laid itself out at its size, else after the first
    /// layout that does (the last scroll asked for wins). GTK 4.8 cannot scroll a view whose
    /// viewport it has not sized yet (its adjustment's page size is 0, before its first
    /// allocation, or while a new model waits for its first layout):
    /// `gtk_list_base_scroll_to_item` aligns the row in a viewport of height 0, and the
    /// view's next layout shows its top with the rows around the row scrolled to bound out
    /// of sight, a blank list (`ScrollingTests`, `DatabaseWindowTests`).
    func whenSized(_ scroll: @escaping @MainActor () -> Void) {
        let listBase = kind.listBase(view)
        let isSized = { gtk_scrollable_get_vadjustment(OpaquePointer(listBase)).map { gtk_adjustment_get_page_size($0) > 0 } ?? false }
        guard !isSized() else {
            pendingScroll = nil
            return scroll()
        }
        pendingScroll = AfterLayout(of: view) { [weak self] in
            guard let self, isSized() else { return }
            pendingScroll = nil
            scroll()
        }
        gtk_widget_queue_allocate(listBase)  // a layout soon, even if nothing else changes
    }

    /// Where the view shows GTK's section headers, a section's first row scrolled to the
    /// top has its section's header just above the view: once GTK has laid the list out,
    /// the list moves up until that header is wholly in view.
    func revealSectionHeader(above position: Int) {
        guard showsNativeSectionHeaders, headerFactory != nil else { return }
        Screenshot.afterFrames(of: view, 2) { [weak self] in
            guard let self, showsNativeSectionHeaders else { return }
            move(rowAt: position, to: .place(.nearest, withSectionHeader: true))
        }
    }
}
