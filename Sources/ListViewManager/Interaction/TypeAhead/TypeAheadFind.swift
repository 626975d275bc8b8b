import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// Type-ahead find, as GtkTreeView's interactive search had it (GtkListView has none):
/// typing while the list has the keyboard focus jumps to the next item whose text starts
/// with (or contains) what was typed, shown in a small popover under the list. Up and Down
/// go to the previous and next match, Backspace takes the last letter back, Escape closes,
/// Control+F opens it empty; Enter (or any other key of the list's) closes it and does what
/// it does. It closes by itself five seconds after the last key.
///
/// The keys are looked at before the rows see them, and left alone when the focus is in
/// something that takes text (an entry in a row).
@MainActor
final class TypeAheadFind: UpdateParticipant {
    private unowned let manager: ItemViewManager
    /// The popover showing what was typed (the list view is its parent and holds its
    /// reference), once made.
    private var popover: UnsafeMutablePointer<GtkWidget>?
    private var label: UnsafeMutablePointer<GtkWidget>?
    /// What was typed, while finding (nil: not finding).
    private(set) var text: String?
    /// Counts keys, for the close after five seconds without one.
    private var keys = 0
    /// The rows' texts (read ahead, or by a search; some of them while they are read ahead),
    /// until the list changes.
    var index: TypeAheadIndex?
    /// Counts the list's changes, and the times it lost the focus: a read ahead started
    /// before one stops.
    private var changes = 0
    /// Whether the keyboard focus is in the list.
    private var hasFocus = false
    /// Whether a read ahead waits for the list to be still for a second (one at a time).
    private var readAheadWaits = false

    var phases: UpdatePhases { .beforeSplices }

    func willApply(_ change: ContentChange) {
        index = nil
        changes += 1
        readAheadSoon()
    }

    init(manager: ItemViewManager) {
        self.manager = manager
        let listBase = manager.kind.listBase(manager.view)
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connect(UnsafeMutableRawPointer(keys), "key-pressed") { [weak self] (keyval: UInt32, _: UInt32, state: UInt32) -> Bool in
            self?.handle(keyval, state: state) ?? false
        }
        gtk_widget_add_controller(listBase, keys)
        let focus = gtk_event_controller_focus_new()!
        Signal.connect(UnsafeMutableRawPointer(focus), "enter") { [weak self] in
            self?.hasFocus = true
            self?.readAheadSoon()
        }
        Signal.connect(UnsafeMutableRawPointer(focus), "leave") { [weak self] in
            guard let self else { return }
            hasFocus = false
            changes += 1
            close()
        }
        gtk_widget_add_controller(listBase, focus)
        let click = gtk_gesture_click_new()!
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        Signal.connect(UnsafeMutableRawPointer(click), "pressed") { [weak self] (_: Int32, _: Double, _: Double) in
            self?.close()
        }
        gtk_widget_add_controller(listBase, click)
    }

    /// What a key does while the list has the focus; false leaves it to the list.
    private func handle(_ keyval: UInt32, state: UInt32) -> Bool {
        guard manager.configuration.typeAhead != .off, !focusTakesText else { return false }
        // A tree's keys (`+`, `-`, `*`, `/`) expand and collapse rather than search, whichever
        // of the list's key handlers GTK runs first.
        if text == nil, manager.treeKeyPressed(keyval, state: state) { return true }
        let modifiers = state & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue)
        let key = Int32(keyval)
        if modifiers == GDK_CONTROL_MASK.rawValue, key == GDK_KEY_f || key == GDK_KEY_F {
            show("")
            return true
        }
        if let text {
            switch key {
            case GDK_KEY_Escape:
                close()
                return true
            case GDK_KEY_Up, GDK_KEY_KP_Up:
                find(text, forward: false, from: 1)
                return true
            case GDK_KEY_Down, GDK_KEY_KP_Down:
                find(text, forward: true, from: 1)
                return true
            case GDK_KEY_BackSpace:
                show(String(text.dropLast()))
                if !text.isEmpty { find(String(text.dropLast()), forward: true, from: 0) }
                return true
            default: break
            }
        }
        // A modifier pressed on its own (Shift before a capital letter), or a dead key: what
        // is typed comes with the next key.
        if Self.isModifierOrDeadKey(keyval) { return false }
        let character = gdk_keyval_to_unicode(keyval)
        guard modifiers == 0, character != 0, g_unichar_isprint(character) != 0, let scalar = Unicode.Scalar(character) else {
            close()  // another of the list's keys (Enter, Page Down): it does what it does
            return false
        }
        // Space alone selects the focused row, as in GtkTreeView.
        if text == nil, scalar == " " { return false }
        guard manager.hasTypeAheadTexts else { return false }
        let typed = (text ?? "") + String(Character(scalar))
        show(typed)
        find(typed, forward: true, from: 0)
        return true
    }

    /// Reads the rows' texts ahead of the first key, once the list has had the focus for a
    /// second without changing: a part at a time (about 4 ms), when the main loop has
    /// nothing else to do (after GTK's frames), until every text is read, the list changes or
    /// it loses the focus.
    private func readAheadSoon() {
        guard hasFocus, index?.isComplete != true, !readAheadWaits else { return }
        readAheadWaits = true
        let change = changes
        after(seconds: 1) { [weak self] in
            guard let self else { return }
            readAheadWaits = false
            // Changed meanwhile (a live storage's commits): another second.
            if changes == change { readAhead(since: change) } else { readAheadSoon() }
        }
    }

    private func readAhead(since change: Int) {
        guard changes == change, hasFocus, manager.configuration.typeAhead != .off, manager.searchingStorage == nil, manager.hasTypeAheadTexts,
              index?.isComplete != true, manager.bridge.count > 0 else { return }
        let count = manager.bridge.count
        var index = index.flatMap { $0.count == count ? $0 : nil } ?? TypeAheadIndex(count: count)
        self.index = nil  // (not copied while it grows)
        let deadline = ContinuousClock.now + .milliseconds(4)
        index.read(manager.typeAheadTextOfRow) { ContinuousClock.now < deadline }
        self.index = index
        guard !index.isComplete else { return }
        whenIdle(inBackground: true) { [weak self] in self?.readAhead(since: change) }
    }

    /// Whether `keyval` is a modifier (Shift, Control, Alt, Super, the ISO level and group
    /// shifts and locks, Mode_switch, Num Lock) or a dead key (X keysyms: `keysymdef.h`).
    private static func isModifierOrDeadKey(_ keyval: UInt32) -> Bool {
        (0xFFE1...0xFFEE).contains(keyval) || (0xFE01...0xFE0F).contains(keyval) || (0xFE11...0xFE13).contains(keyval)
            || (0xFE50...0xFE93).contains(keyval) || keyval == 0xFF7E || keyval == 0xFF7F
    }

    /// Whether the keyboard focus is in something that takes text (an entry in a row).
    /// Whether the keyboard focus is in a widget that takes text (an entry in a row): its
    /// keys are its own.
    var focusTakesText: Bool {
        guard let root = gtk_widget_get_root(manager.view), let focus = gtk_root_get_focus(root) else { return false }
        return cgtk_shims_instance_is_a(UnsafeMutableRawPointer(focus), gtk_editable_get_type()) != 0
    }

    /// Focuses the next match of `text` from the focused item (`from` rows on: 0 includes
    /// it), backwards unless `forward`; shows in the popover whether there is one.
    /// A storage that searches itself is asked (`SearchingStorage`), and the focus moves
    /// when it answers, unless another key came meanwhile.
    private func find(_ text: String, forward: Bool, from offset: Int) {
        leaveSearchUnderWay()
        guard !text.isEmpty else { return }
        let start = manager.focusedPosition.map { $0 + (forward ? offset : -offset) } ?? 0
        guard let storage = manager.searchingStorage else {
            // A storage read a page at a time that no longer searches itself is not gone through.
            guard !(manager.storage is any ReadsItemsOnDemand) else { return }
            return showFound(manager.typeAheadMatch(of: text, from: start, forward: forward))
        }
        let search = searches
        searching = search
        manager.searchStorage(storage, for: text, from: start, forward: forward) { [weak self] found in
            guard let self, searches == search else { return }
            searching = nil
            if self.text != nil { showFound(found) }
        }
    }

    /// Focuses and selects the row found at `found`; shows in the popover whether there is one.
    private func showFound(_ found: Int?) {
        if let found { manager.focusAndSelect(position: found) }
        if let label {
            if found == nil { gtk_widget_add_css_class(label, "error") } else { gtk_widget_remove_css_class(label, "error") }
        }
    }

    /// Counts the searches started: a storage's answer to one followed by another is left.
    private var searches = 0
    /// Leaves the storage's answer to the search under way, if one is.
    private func leaveSearchUnderWay() {
        searches += 1
        searching = nil
    }

    /// The search asked of the storage and not yet answered, if any.
    private(set) var searching: Int?

    /// Shows `typed` in the popover (popping it up), and closes it five seconds after the
    /// last key.
    private func show(_ typed: String) {
        // What was typed changed: an answer for the text before is left.
        if typed != text { leaveSearchUnderWay() }
        text = typed
        keys += 1
        let key = keys
        after(seconds: 5) { [weak self] in
            guard let self, keys == key else { return }
            close()
        }
        let popover = popover ?? makePopover()
        if let label {
            gtk_label_set_text(OpaquePointer(label), typed)
            gtk_widget_remove_css_class(label, "error")
        }
        guard gtk_widget_get_visible(popover) == 0 else { return }
        // Above the bottom right corner of the list.
        let listBase = manager.kind.listBase(manager.view)
        var corner = GdkRectangle(x: max(0, gtk_widget_get_width(listBase) - 80), y: max(0, gtk_widget_get_height(listBase) - 8), width: 1, height: 1)
        gtk_popover_set_pointing_to(gtkCast(popover, to: GtkPopover.self), &corner)
        gtk_popover_popup(gtkCast(popover, to: GtkPopover.self))
    }

    private func makePopover() -> UnsafeMutablePointer<GtkWidget> {
        let listBase = manager.kind.listBase(manager.view)
        let popover = gtk_popover_new()!
        let label = gtk_label_new("")!
        gtk_widget_set_size_request(label, 120, -1)
        gtk_label_set_xalign(OpaquePointer(label), 0)
        gtk_popover_set_child(gtkCast(popover, to: GtkPopover.self), label)
        // The keys stay with the list: the popover takes no focus, and clicks elsewhere
        // reach what they are on.
        gtk_popover_set_autohide(gtkCast(popover, to: GtkPopover.self), 0)
        gtk_widget_set_can_focus(popover, 0)
        gtk_popover_set_position(gtkCast(popover, to: GtkPopover.self), GTK_POS_TOP)
        gtk_widget_add_css_class(popover, "type-ahead")
        gtk_widget_set_parent(popover, listBase)
        self.popover = popover
        self.label = label
        return popover
    }

    /// Stops finding, and hides the popover (a storage's answer to a search still under way
    /// is left).
    func close() {
        leaveSearchUnderWay()
        guard text != nil else { return }
        text = nil
        if let popover { gtk_popover_popdown(gtkCast(popover, to: GtkPopover.self)) }
    }

    /// Takes the popover off the list view (before the list view goes).
    func detach() {
        text = nil
        guard let popover else { return }
        gtk_widget_unparent(popover)
        self.popover = nil
        label = nil
    }

    /// Whether the popover is shown, with what was typed.
    var shownText: String? {
        guard let popover, gtk_widget_get_visible(popover) != 0 else { return nil }
        return text
    }
}
