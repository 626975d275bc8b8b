import CGtk
import CGtkShims
import GtkKit
import ModelStorage

/// What differs between the GTK views a manager drives: how the view takes its model, its
/// activation mode and its factories, and how it shows section headers and footers.
@MainActor
struct ViewKind {
    /// The view's name in messages: "list view", "grid view", "column view" (never compared:
    /// each difference is a property of its own).
    let name: String
    /// Whether the view comes in its scrolled window with the current section's header
    /// pinned over its top (a list view: `ItemViewManager.gtkWidget`).
    let pinsSectionHeaders: Bool
    /// Whether sections show header and footer rows (GTK 4.8's grid and column views
    /// have no sections, and a header row there would be one cell among the items).
    let showsSupplementaryRows: Bool
    /// Whether the view can show section headers itself, through a header factory, where
    /// GTK has them (4.12 and later): a list view and a column view (which gets its header
    /// factory only while it has columns, see `ItemViewManager.attachHeaderFactory`).
    let hasHeaderFactory: Bool
    /// Whether the view can show section headers itself: GTK 4.12 and later, on a view with
    /// a header factory.
    var showsSectionHeaders: Bool { hasHeaderFactory && Self.gtkHasSections }
    /// Whether the GTK running has GtkSectionModel and header factories (4.12 and later).
    static let gtkHasSections = cgtk_shims_gtk_at_least(12) != 0
    /// Whether items follow each other left to right (a grid), so that a drop goes before
    /// or after the item by the pointer's horizontal place.
    let flowsHorizontally: Bool
    /// Whether the view's rows are strips of tiles (a sectioned grid): the view's list is one
    /// of strips, and the manager's rows are the tiles, in positions of the manager's own list.
    let showsTiles: Bool
    /// Whether the list items the factory binds are the view's items, which GTK 4.12 names
    /// for screen readers through `gtk_list_item_set_accessible_label` (a column view's
    /// factories bind cells; a sectioned grid's, strips).
    let namesItemsThroughListItems: Bool
    /// Whether the view takes a header factory only while it has columns (a column view:
    /// see `ItemViewManager.attachHeaderFactory`).
    let headerFactoryNeedsColumns: Bool
    let setModel: (UnsafeMutablePointer<GtkWidget>, OpaquePointer?) -> Void
    let setSingleClickActivation: (UnsafeMutablePointer<GtkWidget>, Bool) -> Void
    /// Takes the factories off the view (before the manager goes).
    let detachFactories: (UnsafeMutablePointer<GtkWidget>) -> Void
    /// Gives the view a header factory, or takes it back (nil); nothing for a view without
    /// one, or before GTK 4.12.
    let setHeaderFactory: (UnsafeMutablePointer<GtkWidget>, OpaquePointer?) -> Void
    /// Scrolls to the row at a position and gives it the keyboard focus, the view's own way
    /// (GTK 4.12); false where the view has none (before GTK 4.12, or rows that are strips).
    let scrollToAndFocus: (UnsafeMutablePointer<GtkWidget>, Int) -> Bool
    /// The GtkListBase (GtkListView or GtkGridView) that has the view's `list.*` actions
    /// (scrolling to, selecting and activating items).
    let listBase: (UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>

    /// How the flat layout shows sections with `configuration` in this kind of view.
    func layoutOptions(_ configuration: ItemViewManager.Configuration) -> FlatLayoutOptions {
        var options = configuration.layoutOptions
        let sectionHeaders = showsSectionHeaders(configuration)
        options.showsSupplementaryRows = showsSupplementaryRows || sectionHeaders
        options.headersAreSectionHeaders = sectionHeaders
        // A footer is a row: a column view's would be one cell among the items.
        options.showsFooterRows = showsSupplementaryRows
        return options
    }

    /// Whether the view shows section headers itself with `configuration`.
    func showsSectionHeaders(_ configuration: ItemViewManager.Configuration) -> Bool {
        showsSectionHeaders && configuration.usesGTKSectionHeaders
    }

    /// Whether the view shows sections' supplementary models of `kind` with `configuration`.
    func shows(_ kind: SupplementaryKind, _ configuration: ItemViewManager.Configuration) -> Bool {
        showsSupplementaryRows || (kind == .header && showsSectionHeaders(configuration))
    }

    static let list = ViewKind(
        name: "list view", pinsSectionHeaders: true, showsSupplementaryRows: true, hasHeaderFactory: true, flowsHorizontally: false,
        showsTiles: false, namesItemsThroughListItems: true, headerFactoryNeedsColumns: false,
        setModel: { gtk_list_view_set_model(OpaquePointer($0), $1) },
        setSingleClickActivation: { gtk_list_view_set_single_click_activate(OpaquePointer($0), $1 ? 1 : 0) },
        detachFactories: {
            gtk_list_view_set_factory(OpaquePointer($0), nil)
            cgtk_shims_list_view_set_header_factory($0, nil)
        },
        setHeaderFactory: { cgtk_shims_list_view_set_header_factory($0, $1) },
        scrollToAndFocus: { cgtk_shims_list_view_scroll_to_and_focus($0, UInt32($1)) != 0 },
        listBase: { $0 })

    static let grid = ViewKind(
        name: "grid view", pinsSectionHeaders: false, showsSupplementaryRows: false, hasHeaderFactory: false, flowsHorizontally: true,
        showsTiles: false, namesItemsThroughListItems: true, headerFactoryNeedsColumns: false,
        setModel: { gtk_grid_view_set_model(OpaquePointer($0), $1) },
        setSingleClickActivation: { gtk_grid_view_set_single_click_activate(OpaquePointer($0), $1 ? 1 : 0) },
        detachFactories: { gtk_grid_view_set_factory(OpaquePointer($0), nil) },
        setHeaderFactory: { _, _ in },
        scrollToAndFocus: { cgtk_shims_grid_view_scroll_to_and_focus($0, UInt32($1)) != 0 },
        listBase: { $0 })

    /// A GtkGridView of strips, one column wide (`SectionedGridViewManager`): its model is the manager's list
    /// of strips, not the selection model of the items, which no GTK view holds.
    static let sectionedGrid = ViewKind(
        name: "sectioned grid", pinsSectionHeaders: false, showsSupplementaryRows: true, hasHeaderFactory: false, flowsHorizontally: true,
        showsTiles: true, namesItemsThroughListItems: false, headerFactoryNeedsColumns: false,
        setModel: { view, model in if model == nil { gtk_grid_view_set_model(OpaquePointer(view), nil) } },
        setSingleClickActivation: { _, _ in },  // the tiles' clicks activate
        detachFactories: { gtk_grid_view_set_factory(OpaquePointer($0), nil) },
        setHeaderFactory: { _, _ in },
        // GTK's rows are strips: the manager scrolls to the strip, and the tile takes the focus.
        scrollToAndFocus: { _, _ in false },
        listBase: { $0 })

    static let column = ViewKind(
        name: "column view", pinsSectionHeaders: false, showsSupplementaryRows: false, hasHeaderFactory: true, flowsHorizontally: false,
        showsTiles: false, namesItemsThroughListItems: false, headerFactoryNeedsColumns: true,
        setModel: { gtk_column_view_set_model(OpaquePointer($0), $1) },
        setSingleClickActivation: { gtk_column_view_set_single_click_activate(OpaquePointer($0), $1 ? 1 : 0) },
        // `ColumnViewManager` takes back the factories of the columns it added.
        detachFactories: { cgtk_shims_column_view_set_header_factory($0, nil) },
        setHeaderFactory: { cgtk_shims_column_view_set_header_factory($0, $1) },
        scrollToAndFocus: { cgtk_shims_column_view_scroll_to_and_focus($0, UInt32($1)) != 0 },
        listBase: { view in
            // The column view's rows are a GtkListView inside it, which has the action.
            var child = gtk_widget_get_first_child(view)
            while let widget = child {
                if cgtk_shims_instance_is_a(UnsafeMutableRawPointer(widget), gtk_list_view_get_type()) != 0 { return widget }
                child = gtk_widget_get_next_sibling(widget)
            }
            return view
        })
}
