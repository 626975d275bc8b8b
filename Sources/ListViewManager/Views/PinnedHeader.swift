import CGtk
import CGtkShims
import GtkKit
import ModelStorage

/// A copy of the current section's header, pinned over the top of a list view while the
/// section's rows scroll under it. GTK has no pinned headers: 4.8 has no sections, and the
/// section headers of GTK 4.12 and later scroll away with their section.
///
/// The copy is a row of the header's own row type, updated with the section's header model
/// (no events fire for it: the header row in the list has them). It is looked at after each
/// frame's layout, at the cost of finding the first row on screen: GTK keeps the list's row
/// widgets in order, so that is a walk over the few rows above. The copy changes when the
/// section at the top does, and is updated with its model at the first layout after updates
/// (once, however many updates came before the frame).
@MainActor
final class PinnedHeader: UpdateParticipant {
    private let overlayReference, scrolledReference, holderReference: ObjectReference<UnsafeMutablePointer<GtkWidget>>
    /// The overlay holding the scrolled list and the pinned copy.
    var overlay: UnsafeMutablePointer<GtkWidget> { overlayReference.pointer }
    private var scrolled: UnsafeMutablePointer<GtkWidget> { scrolledReference.pointer }
    /// The box the copy is shown in, at the top of the overlay.
    private var holder: UnsafeMutablePointer<GtkWidget> { holderReference.pointer }
    private unowned let manager: ItemViewManager
    /// The copies made so far, one per header mapping.
    private var rows: [ObjectIdentifier: (row: RowWidget, heading: ObjectReference<UnsafeMutablePointer<GtkWidget>>)] = [:]
    /// The section whose header is shown, with its mapping (nil: none is shown).
    private var shown: (section: Int, mapping: ObjectIdentifier)?

    init(manager: ItemViewManager) {
        self.manager = manager
        scrolledReference = ObjectReference(sinking: gtk_scrolled_window_new()!)
        overlayReference = ObjectReference(sinking: gtk_overlay_new()!)
        holderReference = ObjectReference(sinking: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!)
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), manager.view)
        gtk_overlay_set_child(OpaquePointer(overlay), scrolled)
        gtk_widget_set_valign(holder, GTK_ALIGN_START)
        gtk_widget_add_css_class(holder, "pinned-section-header")
        gtk_widget_add_css_class(holder, "view")
        gtk_widget_set_visible(holder, 0)
        gtk_overlay_add_overlay(OpaquePointer(overlay), holder)
        // The copy hides the list's top edge, where GTK scrolls a list under a drag.
        let dragMotion = gtk_drop_controller_motion_new()!
        Signal.connect(UnsafeMutableRawPointer(dragMotion), "enter") { [weak manager] (_: Double, _: Double) -> Void in
            manager?.dragHover.pinnedHeaderHovered(true)
        }
        Signal.connect(UnsafeMutableRawPointer(dragMotion), "leave") { [weak manager] in manager?.dragHover.pinnedHeaderHovered(false) }
        gtk_widget_add_controller(holder, dragMotion)
        // Looked at once GTK has laid out each frame (row widgets have their new places then).
        Signal.connect(UnsafeMutableRawPointer(manager.view), "map") { [weak self] in self?.followFrames() }
        Signal.connect(UnsafeMutableRawPointer(manager.view), "unmap") { [weak self] in self?.stopFollowingFrames() }
    }

    /// The handler of the `layout` signal of the frame clock followed (disconnected when the
    /// copy goes).
    private var frameClock: SignalConnection?

    private func followFrames() {
        stopFollowingFrames()
        guard let clock = gtk_widget_get_frame_clock(manager.view) else { return }
        let instance = UnsafeMutableRawPointer(clock)
        frameClock = SignalConnection(Signal.connect(instance, "layout", after: true) { [weak self] in self?.followLayout() }, on: instance)
    }

    private func stopFollowingFrames() {
        frameClock?.disconnect()
        frameClock = nil
    }

    /// A row scrolled to (`scrollTo`), to keep clear of the copy once GTK has placed it.
    private var scrolledTo: Int?

    /// Keeps the row at `position`, which the list is being scrolled to, clear of the copy:
    /// GTK scrolls a row above the view to the top, where the copy would cover it.
    func keepClear(of position: Int) {
        scrolledTo = position
    }

    /// Whether the copy is to be updated with its model at the next layout.
    private var needsRefresh = false

    /// Updates the copy with its model at the next layout (which this asks GTK for): after
    /// an update of the storage or a change of configuration. O(1).
    func setNeedsRefresh() {
        guard !needsRefresh else { return }
        needsRefresh = true
        gtk_widget_queue_allocate(manager.view)
    }

    var phases: UpdatePhases { .settled }

    /// Once every row shows a change of the storage: the copy is updated at the next layout.
    func didSettle(_ applied: AppliedChange) {
        setNeedsRefresh()
    }

    /// The row widget that had the keyboard focus at the last layout.
    private var focusedRow: UnsafeMutablePointer<GtkWidget>?

    /// After GTK's layout: the copy follows the rows, and a row scrolled to, or newly
    /// focused (GTK scrolls a row the keyboard focuses above the view to the top), moves out
    /// from under it.
    private func followLayout() {
        update(refresh: needsRefresh)
        needsRefresh = false
        let focused = gtk_widget_get_focus_child(manager.view)
        if focused != focusedRow {
            focusedRow = focused
            if let focused { uncover(focused) }
        }
        guard let position = scrolledTo else { return }
        scrolledTo = nil
        guard let rowWidget = manager.factory.itemWidget(at: position) else { return }
        uncover(rowWidget)
    }

    /// Moves the list down until `rowWidget` (a child of the list view) is wholly below the
    /// copy, when the copy covers part of it.
    private func uncover(_ rowWidget: UnsafeMutablePointer<GtkWidget>) {
        guard shown != nil else { return }
        var allocation = GtkAllocation()
        gtk_widget_get_allocation(rowWidget, &allocation)
        // The copy's height at its width; a copy just shown has none yet: the list's width,
        // and never below the copy's least (GTK 4.18 warns when measured narrower).
        var minimumWidth: Int32 = 0
        gtk_widget_measure(holder, GTK_ORIENTATION_HORIZONTAL, -1, &minimumWidth, nil, nil, nil)
        let width = gtk_widget_get_width(holder) > 0 ? gtk_widget_get_width(holder) : gtk_widget_get_width(manager.view)
        var height: Int32 = 0
        gtk_widget_measure(holder, GTK_ORIENTATION_VERTICAL, max(width, minimumWidth), &height, nil, nil, nil)
        guard allocation.y < height, allocation.y + allocation.height > 0,
              let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view)) else { return }
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) - Double(height - allocation.y))
    }

    /// The section whose header the copy shows now (nil: the copy is hidden).
    var shownSection: Int? { shown?.section }

    /// Shows the header of the section of the first row on screen, unless that row is the
    /// header itself, wholly in view (or the section shows no header row); `refresh`
    /// updates the copy with its model even when the section is the one shown.
    private func update(refresh: Bool) {
        guard manager.configuration.pinsSectionHeaders, !manager.showsNativeSectionHeaders,
              let (position, top) = firstRowOnScreen(), let row = manager.bridge.row(at: position) else { return hide() }
        if case .header = row, top >= 0 { return hide() }
        let header = FlatRow.header(section: row.section)
        guard manager.bridge.layout.position(of: header) != nil, let model = manager.bridge.model(of: header) else { return hide() }
        let mapping = manager.mapping(for: header, model: model)
        let key = ObjectIdentifier(mapping)
        if !refresh, let shown, shown.section == row.section, shown.mapping == key { return }
        let entry = rows[key] ?? make(mapping)
        for (other, existing) in rows where other != key { gtk_widget_set_visible(existing.heading.pointer, 0) }
        gtk_widget_set_visible(entry.heading.pointer, 1)
        mapping.updateRow(entry.row, model)
        shown = (row.section, key)
        gtk_widget_set_visible(holder, 1)
    }

    private func hide() {
        guard shown != nil || gtk_widget_get_visible(holder) != 0 else { return }
        shown = nil
        gtk_widget_set_visible(holder, 0)
    }

    /// A copy of `mapping`'s header row, in a heading box as the list's header rows are.
    private func make(_ mapping: ViewModelMapping) -> (row: RowWidget, heading: ObjectReference<UnsafeMutablePointer<GtkWidget>>) {
        let row = mapping.makeRow()
        let heading = RowFactory.styleNewRow(row, for: .header)!
        gtk_box_append(gtkCast(holder, to: GtkBox.self), heading.pointer)
        let entry = (row: row, heading: heading)
        rows[ObjectIdentifier(mapping)] = entry
        return entry
    }

    /// The position of the first row whose bottom is below the top of the list, and where
    /// that row's top is (negative: partly scrolled out). GTK lays the row widgets out in
    /// the order of their positions.
    private func firstRowOnScreen() -> (position: Int, top: Int)? {
        var child = gtk_widget_get_first_child(manager.view)
        while let widget = child {
            var allocation = GtkAllocation()
            gtk_widget_get_allocation(widget, &allocation)
            // Rows GTK keeps off screen (the focused one) are not mapped, and not placed.
            if gtk_widget_get_mapped(widget) != 0, allocation.y + allocation.height > 0,
               let content = gtk_widget_get_first_child(widget),
               let listItem = manager.factory.listItem(showing: content) {
                return (manager.factory.position(of: listItem), Int(allocation.y))
            }
            child = gtk_widget_get_next_sibling(widget)
        }
        return nil
    }
}
