import CGtk
import CGtkShims
import GtkKit

/// The library's default look of rows and their menus: the drop indicator, a line above or
/// below the row under the pointer (before or after the cell, in a grid), no hover highlight
/// for rows `shouldHighlight` refuses, and destructive menu entries in the theme's error
/// colour; the section index in small bold type of the theme's selection colour. Apps
/// override it with their own CSS for `.drop-above`, `.drop-below`, `.drop-before`,
/// `.drop-after`, `.no-highlight`, `modelbutton.destructive-action` and `.section-index`.
///
/// A sectioned grid's strips are the cells of a GtkGridView, whose theme gives every box in
/// a cell a margin and spacing meant for an icon over a caption: the strips take the padding
/// of a list's rows instead, and the boxes in them (the rows' own among them) only what the
/// app gives them.
@MainActor
enum RowStyle {
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
        .no-highlight:hover:not(:selected) { background-color: transparent; }
        modelbutton.destructive-action { color: @error_color; }
        .sectioned-grid > child { padding: 2px; }
        .sectioned-grid > child box { border-spacing: 0; margin: 0; }
        .sectioned-grid .tile { border-radius: 6px; }
        .sectioned-grid .tile:hover { background-color: alpha(currentColor, 0.07); }
        .sectioned-grid .tile:selected { background-color: alpha(@theme_selected_bg_color, 0.3); }
        .sectioned-grid .tile:focus-visible { outline: 2px solid alpha(@theme_selected_bg_color, 0.8); outline-offset: -2px; }
        .sectioned-grid .tile:selected:focus-within { background-color: alpha(@theme_selected_bg_color, 0.45); }
        .section-index { padding: 2px 0; font-size: 0.8em; font-weight: bold; color: @theme_selected_bg_color; }
        .section-index.pressed { background-color: alpha(currentColor, 0.08); }
        .section-index:focus-visible { outline: 2px solid alpha(@theme_selected_bg_color, 0.8); outline-offset: -2px; }
        """
        cgtk_shims_css_provider_load(provider.pointer, css)
        // Below the application's own priority, so that its CSS wins.
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider.pointer), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION - 1))
    }
}
