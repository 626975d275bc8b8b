import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    /// Scrolls the list, as little as needed, so that the item at `indexPath` is visible
    /// (GtkListView's `list.scroll-to-item`, GTK 4.8's way to scroll to a row). Returns false,
    /// changing nothing, when there is no such item.
    ///
    /// The list keeps its place by itself: GTK anchors the viewport to a row, so inserting
    /// or removing items above the visible rows does not move what is shown. A row scrolled
    /// to the top comes to rest below the pinned section header (of a manager shown in a window itself).
    @discardableResult
    public func scrollTo(_ indexPath: IndexPath) -> Bool {
        guard let position = position(of: indexPath) else { return false }
        return scrollTo(position: position)
    }

    /// Scrolls the list so that `section`'s header row is visible (its first row when it
    /// shows no header). Returns false when the section shows no row.
    @discardableResult
    public func scrollTo(section: Int) -> Bool {
        guard section >= 0, section < storage.numberOfSections() else { return false }
        let first = bridge.layout.position(of: .header(section: section))
            ?? bridge.layout.position(of: .item(IndexPath(item: 0, section: section)))
            ?? bridge.layout.position(of: .footer(section: section))
        guard let first else { return false }
        return scrollTo(position: first)
    }

    /// GTK 4.12 and later have `gtk_list_view_scroll_to`, but without focusing or selecting
    /// it runs the same code as the action (`gtk_list_base_scroll_to_item` with no scroll
    /// info, gtklistbase.c), so the action serves every GTK.
    private func scrollTo(position: Int) -> Bool {
        guard let row = bridge.layout.row(at: position), viewPosition(ofRow: position) != nil else { return false }
        whenSized { [weak self] in
            guard let self, let position = bridge.layout.position(of: row) else { return }
            pinnedHeader?.keepClear(of: position)
            revealSectionHeader(above: position)
            guard let shown = viewPosition(ofRow: position) else { return }
            cgtk_shims_widget_activate_action(kind.listBase(view), "list.scroll-to-item", g_variant_new_uint32(UInt32(shown)))
        }
        return true
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
        guard showsNativeSectionHeaders, let headerFactory else { return }
        Screenshot.afterFrames(of: view, 2) { [weak self] in
            guard let self, showsNativeSectionHeaders,
                  let header = factory.itemWidget(at: position).flatMap(gtk_widget_get_prev_sibling),
                  let headerContent = gtk_widget_get_first_child(header), headerFactory.listItem(showing: headerContent) != nil,
                  let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(view)) else { return }
            var allocation = GtkAllocation()
            gtk_widget_get_allocation(header, &allocation)
            guard allocation.y < 0 else { return }
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + Double(allocation.y))
        }
    }
}
