import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    /// Opens the menu asked for on `row` (see `contextMenu(askedOn:)`), pointing at `point`
    /// in the list view, or at the row when nil (the row must then be on screen). Returns
    /// whether a menu opened.
    @discardableResult
    func openContextMenu(askedOn row: FlatRow, at point: (x: Double, y: Double)?) -> Bool {
        let rect: GdkRectangle
        if let point {
            rect = GdkRectangle(x: Int32(point.x), y: Int32(point.y), width: 1, height: 1)
        } else {
            var bounds = graphene_rect_t()
            guard let shown = boundRow(showing: row), gtk_widget_compute_bounds(shown.row.rootWidget, view, &bounds) != 0 else { return false }
            rect = GdkRectangle(x: Int32(bounds.origin.x + 24), y: Int32(bounds.origin.y + bounds.size.height / 2), width: 1, height: 1)
        }
        guard let (target, entries) = contextMenu(askedOn: row) else { return false }
        for entry in entries.flatMap(\.actionEntries) {
            guard let accelerator = entry.accelerator, !MenuAccelerator.parses(accelerator) else { continue }
            anomalyHandler.report(.invalidMenuAccelerator(entry: entry.title, accelerator: accelerator))
        }
        contextMenus.open(entries, for: target, pointingTo: rect)
        return true
    }

    /// The row the keyboard asks a menu for: the focused row, else the first selected item.
    private var keyboardMenuRow: FlatRow? {
        if let position = focusedPosition, let row = bridge.row(at: position) { return row }
        return selection.items.keys.min().map(FlatRow.item)
    }

    /// The Menu key or Shift+F10.
    func keyboardAskedForMenu() {
        guard let row = keyboardMenuRow else { return }
        openContextMenu(askedOn: row, at: nil)
    }

    /// A right click or a long press at (`x`, `y`) in the list view: on a row, or on a
    /// section header GTK shows itself (GTK 4.12 and later).
    func pointerAskedForMenu(x: Double, y: Double) {
        guard let row = boundRow(atX: x, y: y)?.flatRow ?? nativeSectionHeader(atX: x, y: y) else { return }
        openContextMenu(askedOn: row, at: (x, y))
    }

    /// A drag began from a row: the press that started it is no long press, however long
    /// it is held. The long press cancels itself only on a motion past the drag threshold
    /// in the list view's coordinates, while the drag source measures in the row's: a slow
    /// drag begins on a motion exactly at the threshold (GTK 4.8 measures 8 px as 8.000001
    /// in the row), and once the drag has the pointer the long press sees no more motion
    /// and would open the row's menu in the middle of the drag.
    func pressBecameDrag() {
        guard let menuLongPress else { return }
        gtk_event_controller_reset(menuLongPress)
    }

    /// The section header GTK shows itself at (`x`, `y`), if any.
    private func nativeSectionHeader(atX x: Double, y: Double) -> FlatRow? {
        guard showsNativeSectionHeaders, let headerFactory, var widget = gtk_widget_pick(view, x, y, GTK_PICK_DEFAULT) else { return nil }
        let headers = headerFactory.boundRows.map(\.row)
        while widget != view {
            if let header = headers.first(where: { $0.row.rootWidget == widget }) { return header.flatRow }
            guard let parent = gtk_widget_get_parent(widget) else { return nil }
            widget = parent
        }
        return nil
    }

    /// A key pressed in the list view with no menu open: runs the enabled entry whose
    /// accelerator it is, of the menu the Menu key would open. Returns whether one ran.
    private func runMenuAccelerator(of event: OpaquePointer) -> Bool {
        guard gdk_key_event_is_modifier(event) == 0, !contextMenus.isShown, let row = keyboardMenuRow,
              let (target, entries) = contextMenu(askedOn: row) else { return false }
        let chosen = entries.flatMap(\.actionEntries).first { entry in
            entry.isEnabled && entry.accelerator.map { MenuAccelerator.matches($0, event) } == true
        }
        guard let chosen else { return false }
        runMenuEntry(chosen, for: target)
        return true
    }

    /// Whether the point (in the view's coordinates) is on a column view's row of headers
    /// (the view's first child, before its list).
    private func isOnColumnHeaders(x: Double, y: Double) -> Bool {
        guard self is ColumnViewManager, let headers = gtk_widget_get_first_child(view),
              let picked = gtk_widget_pick(view, x, y, GTK_PICK_DEFAULT) else { return false }
        return picked == headers || gtk_widget_is_ancestor(picked, headers) != 0
    }

    /// Right click and long press on the list view, and the entries' accelerators; the Menu
    /// key and Shift+F10 are in `installRowActions`.
    func installContextMenuInput() {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, UInt32(GDK_BUTTON_SECONDARY))
        // Before the list items' own click handling, which would take the press.
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        Signal.connect(UnsafeMutableRawPointer(click), "pressed") { [weak self] (_: Int32, x: Double, y: Double) in
            guard let self else { return }
            // A column view's headers have their own menu (the columns to show).
            if isOnColumnHeaders(x: x, y: y) {
                gtk_gesture_set_state(click, GTK_EVENT_SEQUENCE_DENIED)
                return
            }
            gtk_gesture_set_state(click, GTK_EVENT_SEQUENCE_CLAIMED)
            pointerAskedForMenu(x: x, y: y)
        }
        gtk_widget_add_controller(view, click)

        let longPress = gtk_gesture_long_press_new()!
        Signal.connect(UnsafeMutableRawPointer(longPress), "pressed") { [weak self] (x: Double, y: Double) in
            self?.pointerAskedForMenu(x: x, y: y)
        }
        gtk_widget_add_controller(view, longPress)
        menuLongPress = longPress

        let keys = gtk_event_controller_key_new()!
        Signal.connect(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] (_: UInt32, _: UInt32, _: UInt32) -> Bool in
            guard let self, let event = gtk_event_controller_get_current_event(keys) else { return false }
            return runMenuAccelerator(of: event)
        }
        gtk_widget_add_controller(view, keys)

        // A menu left open holds the pointer: close it with the list (its window closing, say).
        Signal.connect(UnsafeMutableRawPointer(view), "unmap") { [weak self] in self?.contextMenus.close() }
    }
}

/// Keyboard shortcuts of menu entries, in GTK's accelerator format (`"<Control>o"`), parsed
/// and matched by GTK as its own shortcuts are.
@MainActor
enum MenuAccelerator {
    /// Whether GTK reads `accelerator` as a key with modifiers.
    static func parses(_ accelerator: String) -> Bool {
        parsed(accelerator) != nil
    }

    /// Whether the key event `event` presses `accelerator`.
    static func matches(_ accelerator: String, _ event: OpaquePointer) -> Bool {
        guard let (key, modifiers) = parsed(accelerator) else { return false }
        return gdk_key_event_matches(event, key, modifiers) == GDK_KEY_MATCH_EXACT
    }

    private static func parsed(_ accelerator: String) -> (key: UInt32, modifiers: GdkModifierType)? {
        var key: UInt32 = 0
        var modifiers = GdkModifierType(rawValue: 0)
        guard gtk_accelerator_parse(accelerator, &key, &modifiers) != 0, key != 0 else { return nil }
        return (key, modifiers)
    }
}
