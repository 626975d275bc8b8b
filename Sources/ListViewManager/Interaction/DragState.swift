import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// What was dropped on a list from outside it.
public enum DroppedContent: Equatable, Sendable {
    /// Files (their paths, or URIs for files without a local path).
    case files([String])
    /// Text.
    case text(String)
}

/// What a drop of an item from another managed list does to it.
public enum DropOperation: Equatable, Sendable {
    /// The item leaves the list it comes from (the default).
    case move
    /// The item stays in the list it comes from too (Control held while dropping).
    case copy
}

/// The item a manager's list is dragging (followed through storage updates while the drag
/// lasts) and the row showing the drop indicator.
@MainActor
final class DragState: UpdateParticipant {
    /// The dragged item, where it is now; nil when no drag of this list is under way or the
    /// item was removed meanwhile.
    private(set) var item: IndexPath?
    /// The row showing the indicator, and its CSS class.
    private var indicator: (widget: ObjectReference<UnsafeMutablePointer<GtkWidget>>, cssClass: String)?

    func start(_ indexPath: IndexPath) {
        item = indexPath
    }

    func end() {
        item = nil
        showIndicator(nil)
    }

    /// The dragged item follows an update (nil when it was removed), and is forgotten
    /// before a reload.
    var phases: UpdatePhases { .beforeSplices }

    func willApply(_ change: ContentChange) {
        guard item != nil else { return }
        item = change.update.flatMap { update in item.flatMap(update.newIndexPath) }
    }

    /// Marks `widget` with a drop CSS class (`drop-above`, `drop-below`, `drop-before` or
    /// `drop-after`), or clears the mark.
    func showIndicator(_ mark: (widget: UnsafeMutablePointer<GtkWidget>, cssClass: String)?) {
        if let indicator, indicator.widget.pointer != mark?.widget || indicator.cssClass != mark?.cssClass {
            gtk_widget_remove_css_class(indicator.widget.pointer, indicator.cssClass)
            self.indicator = nil
        }
        guard let mark, indicator == nil else { return }
        gtk_widget_add_css_class(mark.widget, mark.cssClass)
        indicator = (ObjectReference(retaining: mark.widget), mark.cssClass)
    }

    /// The CSS class of the row showing the indicator, for tests.
    var indicatorClass: String? { indicator?.cssClass }
}
