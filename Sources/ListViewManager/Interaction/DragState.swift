import CGtk
import CGtkShims
import Foundation
import ModelStorage

/// What was dropped on a list from outside it.
public enum DroppedContent: Equatable, Sendable {
    /// Files (their paths, or URIs for files without a local path).
    case files([String])
    /// Text.
    case text(String)
}

/// The item a manager's list is dragging (followed through storage updates while the drag
/// lasts) and the row showing the drop indicator.
@MainActor
final class DragState: UpdateFollower {
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

    func follow(_ update: StorageUpdate, models: any SectionedModels) {
        item = item.flatMap(update.newIndexPath)
    }

    func dropForReload(models: any SectionedModels) {
        item = nil
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

/// The default look of the drop indicator, a line above or below the row under the
/// pointer (before or after the cell, in a grid); apps override it with their own CSS for
/// `.drop-above`, `.drop-below`, `.drop-before` and `.drop-after`.
@MainActor
enum DropIndicatorStyle {
    private static var installed = false

    static func install() {
        guard !installed, let display = gdk_display_get_default() else { return }
        installed = true
        let provider = ObjectReference(adopting: gtk_css_provider_new()!)
        let css = """
        .drop-above { box-shadow: inset 0 3px @theme_selected_bg_color; }
        .drop-below { box-shadow: inset 0 -3px @theme_selected_bg_color; }
        .drop-before { box-shadow: inset 3px 0 @theme_selected_bg_color; }
        .drop-after { box-shadow: inset -3px 0 @theme_selected_bg_color; }
        """
        cgtk_shims_css_provider_load(provider.pointer, css)
        // Below the application's own priority, so that its CSS wins.
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider.pointer), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION - 1))
    }
}
