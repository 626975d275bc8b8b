import CGtk
import CGtkShims
import Foundation
import GtkKit

/// What a row of a `TreeStorage` item shows before the row itself: an indent for its depth
/// and an expander arrow (kept, transparent, on items without children, so that rows of a
/// level line up). Clicking the arrow calls `toggle`. CSS: the box has class
/// `tree-disclosure`, the arrow `expander` (`:checked` state when expanded).
@MainActor
final class TreeDisclosure {
    /// The box given to the list item: the arrow, then the row.
    let box: ObjectReference<UnsafeMutablePointer<GtkWidget>>
    private let arrow: UnsafeMutablePointer<GtkWidget>
    private var content: UnsafeMutablePointer<GtkWidget>?
    /// Called when the arrow is clicked.
    var toggle: (() -> Void)?
    private(set) var isExpandable = false

    /// The indent per level, in pixels (GtkTreeExpander's).
    static let indentPerLevel = 16

    init() {
        box = ObjectReference(sinking: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!)
        gtk_widget_add_css_class(box.pointer, "tree-disclosure")
        gtk_widget_set_margin_start(box.pointer, 6)
        arrow = gtk_image_new_from_icon_name("pan-end-symbolic")
        gtk_widget_add_css_class(arrow, "expander")
        gtk_widget_set_valign(arrow, GTK_ALIGN_CENTER)
        gtk_widget_set_size_request(arrow, Int32(Self.indentPerLevel), Int32(Self.indentPerLevel))
        gtk_box_append(gtkCast(box.pointer, to: GtkBox.self), arrow)
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, UInt32(GDK_BUTTON_PRIMARY))
        // Before the list item's own click handling, which would select the row.
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        Signal.connect(UnsafeMutableRawPointer(click), "pressed") { [weak self] (_: Int32, _: Double, _: Double) in
            guard let self, isExpandable else { return }
            gtk_gesture_set_state(click, GTK_EVENT_SEQUENCE_CLAIMED)
            toggle?()
        }
        gtk_widget_add_controller(arrow, click)
    }

    /// Shows `widget` (the row, or the box of rows) after the arrow, in place of the one before.
    func setContent(_ widget: UnsafeMutablePointer<GtkWidget>) {
        guard widget != content else { return }
        if let content { gtk_box_remove(gtkCast(box.pointer, to: GtkBox.self), content) }
        content = widget
        gtk_widget_set_hexpand(widget, 1)
        gtk_box_append(gtkCast(box.pointer, to: GtkBox.self), widget)
    }

    /// Indents the row for `depth` and turns the arrow for `isExpanded`; an item without
    /// children shows no arrow.
    func show(depth: Int, isExpandable: Bool, isExpanded: Bool) {
        gtk_widget_set_visible(arrow, 1)
        self.isExpandable = isExpandable
        gtk_widget_set_margin_start(arrow, Int32(depth * Self.indentPerLevel))
        gtk_widget_set_opacity(arrow, isExpandable ? 1 : 0)
        gtk_image_set_from_icon_name(OpaquePointer(arrow), isExpanded ? "pan-down-symbolic" : "pan-end-symbolic")
        if isExpanded {
            gtk_widget_set_state_flags(arrow, GTK_STATE_FLAG_CHECKED, 0)
        } else {
            gtk_widget_unset_state_flags(arrow, GTK_STATE_FLAG_CHECKED)
        }
    }

    /// Shows no indent and no arrow: the list item shows rows of a storage that is no tree.
    func showNothing() {
        isExpandable = false
        gtk_widget_set_visible(arrow, 0)
    }
}
