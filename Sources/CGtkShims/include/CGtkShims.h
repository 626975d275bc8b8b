#ifndef CGTK_SHIMS_H
#define CGTK_SHIMS_H

/* The library's C. What Swift cannot import from GTK 4 and GLib (function-like macros,
 * GType casts, constants built from casts, variadic calls), the list model and item types
 * the bridge hands GTK, the main-queue GLib source, and the newer GTK calls, each checked at
 * build and run time. Every shim is prefixed `cgtk_shims_` and says why it exists in one
 * line. Shims only the tests and benchmarks use are in CGtkTestShims. */

/* GTK through CGtk's header, so that both modules declare the same supported versions. */
#include "../../CGtk/shim.h"
#include <glib-unix.h>

/* GTK_INVALID_LIST_POSITION is a cast macro ((guint) 0xffffffff), which Swift skips. */
static const guint CGTK_SHIMS_INVALID_LIST_POSITION = GTK_INVALID_LIST_POSITION;

/* G_TYPE_CHECK_INSTANCE_TYPE is a macro; this is its function form. */
gboolean cgtk_shims_instance_is_a(gpointer instance, GType type);

/* GTK_IS_WIDGET is a macro. */
gboolean cgtk_shims_is_widget(gpointer instance);

/* G_LIST_MODEL is a checked cast macro to the interface. */
GListModel *cgtk_shims_list_model(gpointer instance);

/* g_signal_connect is a macro over g_signal_connect_data; this one always takes a destroy
 * notify so that no closure handed to C can leak. */
gulong cgtk_shims_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                                 gpointer data, GClosureNotify destroy);

/* The same, run after the signal's default handler. GLib 2.90 marks GConnectFlags as a flag
 * enum, which Swift then imports as an option set without the G_CONNECT_AFTER constant. */
gulong cgtk_shims_signal_connect_after(gpointer instance, const gchar *signal, GCallback handler,
                                       gpointer data, GClosureNotify destroy);

/* gtk_application_new with G_APPLICATION_NON_UNIQUE or the default flags: GLib 2.90 marks
 * GApplicationFlags as a flag enum, and Swift no longer sees its constants. */
GtkApplication *cgtk_shims_application_new(const gchar *id, gboolean non_unique);

/* GtkSingleSelection without autoselect and with can-unselect, set at construction through
 * g_object_new (variadic): set afterwards, the first row would already be selected. Takes
 * ownership of `model`, as gtk_single_selection_new does. */
GtkSelectionModel *cgtk_shims_single_selection_new(GListModel *model);

/* ---- Newer GTK, reached only here: each checked at build time (GTK_CHECK_VERSION) and at
 * run time (gtk_get_minor_version), so one binary works on every GTK from 4.8 on ---- */

/* Whether the GTK running is at least 4.`minor` (and was built against at least that). */
gboolean cgtk_shims_gtk_at_least(guint minor);

/* gtk_list_item_set_accessible_label (GTK 4.12) names the widget GTK makes for the list item,
 * even before it is placed (GTK 4.18 binds first). NULL resets it. FALSE on older GTK, where
 * nothing is done. */
gboolean cgtk_shims_list_item_set_accessible_label(GtkListItem *item, const gchar *label);

/* gtk_list_item_set_focusable (GTK 4.12). FALSE on older GTK, where nothing is done: there a
 * list item takes the focus when it is selectable or activatable. */
gboolean cgtk_shims_list_item_set_focusable(GtkListItem *item, gboolean focusable);

/* gtk_list_view_scroll_to, gtk_grid_view_scroll_to and gtk_column_view_scroll_to (GTK 4.12)
 * with GTK_LIST_SCROLL_FOCUS, one for each kind of view: scrolls to the row at `position` and
 * gives it the keyboard focus. FALSE on older GTK, where nothing is done. */
gboolean cgtk_shims_list_view_scroll_to_and_focus(GtkWidget *view, guint position);
gboolean cgtk_shims_grid_view_scroll_to_and_focus(GtkWidget *view, guint position);
gboolean cgtk_shims_column_view_scroll_to_and_focus(GtkWidget *view, guint position);

/* gtk_css_provider_load_from_data is deprecated since GTK 4.12 for _load_from_string. */
void cgtk_shims_css_provider_load(GtkCssProvider *provider, const gchar *css);

/* g_log is variadic, which Swift cannot call: logs `message` as a warning in `domain`. */
void cgtk_shims_log_warning(const gchar *domain, const gchar *message);

/* ---- Drag and drop: G_TYPE_* and GDK_TYPE_FILE_LIST are macros, GValue needs init,
 * gdk_content_provider_new_typed is variadic ---- */

#define CGTK_SHIMS_TYPE_DRAG_ITEM (cgtk_shims_drag_item_get_type())
G_DECLARE_FINAL_TYPE(CGtkShimsDragItem, cgtk_shims_drag_item, CGTK_SHIMS, DRAG_ITEM, GObject)

/* What a managed list's item drag carries in-process: a CGtkShimsDragItem whose payload
 * names the list it comes from (released with `destroy`). No other application can read
 * it: they read the text or files offered beside it. */
GdkContentProvider *cgtk_shims_item_drag_content_new(gpointer payload, GDestroyNotify destroy);

/* A content provider offering `text` (G_TYPE_STRING: text/plain to other applications). */
GdkContentProvider *cgtk_shims_text_content_new(const gchar *text);

/* A content provider offering the `count` files of `paths` (local paths, or URIs with a
 * scheme) as a GDK_TYPE_FILE_LIST: text/uri-list to other applications. */
GdkContentProvider *cgtk_shims_files_content_new(const gchar *const *paths, gsize count);

/* A content provider offering what each of `providers` offers, the first preferred. Takes
 * a reference of its own to each (gdk_content_provider_new_union takes them over). */
GdkContentProvider *cgtk_shims_content_union_new(GdkContentProvider *const *providers, gsize count);

/* A drop target for the list: an item of a managed list (CGtkShimsDragItem, first, so that
 * it wins over the text it also offers), files (GDK_TYPE_FILE_LIST) or text
 * (G_TYPE_STRING), moved or copied. */
GtkDropTarget *cgtk_shims_list_drop_target_new(void);

/* The payload of the managed list item `drop` carries when its drag is this process's own
 * (borrowed: its drag's content holds it), else NULL. Read from the drag's content, so
 * that it is known while the drop is only hovering. */
gpointer cgtk_shims_drop_item_payload(GdkDrop *drop);

/* What a dropped value is. */
typedef enum {
    CGTK_SHIMS_DROPPED_OTHER = -1,  /* anything else */
    CGTK_SHIMS_DROPPED_ITEM = 0,    /* an item of a managed list (CGtkShimsDragItem) */
    CGTK_SHIMS_DROPPED_FILES = 1,   /* files (GDK_TYPE_FILE_LIST) */
    CGTK_SHIMS_DROPPED_TEXT = 2,    /* text (G_TYPE_STRING) */
} CGtkShimsDroppedKind;
CGtkShimsDroppedKind cgtk_shims_dropped_kind(const GValue *value);
const gchar *cgtk_shims_dropped_text(const GValue *value);
/* The dropped files' paths (or URIs when they have no local path), NULL-terminated; free
 * with g_strfreev. */
gchar **cgtk_shims_dropped_files(const GValue *value);

/* gtk_widget_activate_action_variant with `parameter` sunk first and released after, so a
 * new (floating) parameter is freed on every GTK: GTK 4.18 activates a widget class's action
 * (list.select-item, list.scroll-to-item) without sinking it, which leaked it. */
gboolean cgtk_shims_widget_activate_action(GtkWidget *widget, const gchar *name, GVariant *parameter);

/* gtk_accessible_update_property is variadic: sets the accessible label of `widget`
 * (NULL resets it, so GTK names the widget from its content again). */
void cgtk_shims_accessible_set_label(GtkWidget *widget, const gchar *label);

/* gtk_accessible_update_property is variadic: sets the accessible description of `widget`. */
void cgtk_shims_accessible_set_description(GtkWidget *widget, const gchar *description);

/* gtk_accessible_update_property/_state are variadic: tells screen readers that `widget` is a
 * tree item at `level` (1 for a top item), expanded or not, or (expanded < 0) without children. */
void cgtk_shims_accessible_set_tree_item(GtkWidget *widget, int level, int expanded);

/* A vertical box whose accessible role is heading, of `level` (the role is construct-only,
 * so it must be given to g_object_new, which is variadic). Floating, as gtk_box_new. */
GtkWidget *cgtk_shims_heading_box_new(int level);

/* A new vertical GtkBox whose accessible role is a grid cell (a sectioned grid's tile slot:
 * a widget's role can only be set when it is made). */
GtkWidget *cgtk_shims_tile_box_new(void);

/* A box whose accessible role is group, named `label`. A plain box is generic, and GTK 4.12+
 * does not read out a generic widget's name (ARIA prohibits naming generic containers). */
GtkWidget *cgtk_shims_group_box_new(GtkOrientation orientation, int spacing, const gchar *label);

/* The colour `widget`'s CSS gives its text (gtk_widget_get_color on GTK 4.10 and later,
 * where the style context's is deprecated). */
void cgtk_shims_widget_get_color(GtkWidget *widget, GdkRGBA *color);

/* Gives `widget`, one that GTK made (a list item's widget), the accessible role `role` if it
 * is not realized yet, and returns whether it has that role now: GTK takes a new role only
 * until the widget's accessible object is realized, and logs a critical after (even when
 * the role is the same, so a role it has already is left alone). */
gboolean cgtk_shims_widget_set_accessible_role_early(GtkWidget *widget, GtkAccessibleRole role);

/* ---- A slider drawn by the app (the section index) ----
 * A GtkDrawingArea whose accessible role is a vertical slider. GTK 4.10 and later give
 * screen readers a widget's value (AT-SPI's Value interface) only when its type implements
 * GtkAccessibleRange, an interface a type must be defined in C to implement; GTK 4.8 gives
 * it only for its own ranges (GtkRange, GtkSpinButton, …), so there the value's text is the
 * widget's accessible description instead. */

/* What a screen reader asks for when it sets the value: true if the value changed. */
typedef gboolean (*CGtkShimsSliderSet)(double value, gpointer data);

#define CGTK_SHIMS_TYPE_SLIDER_AREA (cgtk_shims_slider_area_get_type())
G_DECLARE_FINAL_TYPE(CGtkShimsSliderArea, cgtk_shims_slider_area, CGTK_SHIMS, SLIDER_AREA, GtkDrawingArea)

/* Its minimum width is 0 (its natural width its content's): beside a list in a box, it never
 * makes the list's minimum width larger, and gives its room up when there is too little.
 * A new slider area named `label` (floating, as a widget), calling `set` (with `data`,
 * released by `destroy` when the area goes) when a screen reader sets its value. */
GtkWidget *cgtk_shims_slider_area_new(const gchar *label, CGtkShimsSliderSet set, gpointer data, GDestroyNotify destroy);

/* Tells screen readers where the slider is: at `now` of 0 to `max`, read out as `text`. */
void cgtk_shims_slider_area_set_value(GtkWidget *area, double max, double now, const gchar *text);

/* ---- The list model bridge: a GListModel whose answers come from Swift ----
 * GObject types must be defined in C (G_DEFINE_TYPE and interface vtables are macros). */

/* What the model asks Swift; `data` is released with `destroy` when the model detaches or dies.
 * The number of items is kept here, in C, from the splices emitted (GTK asks for it many times
 * per change: thousands of calls that need not cross into Swift). */
typedef struct {
    /* Returns a new reference to a CGtkShimsRowItem for `position` (< the number of items). */
    gpointer (*get_item)(gpointer data, guint position);
    /* Sets [*start, *end) to the positions of the section holding `position` (< the number of
     * items): GtkSectionModel's question, asked on GTK 4.12 and later. NULL: one section. */
    void (*get_section)(gpointer data, guint position, guint *start, guint *end);
    gpointer data;
    GDestroyNotify destroy;
} CGtkShimsListModelCallbacks;

#define CGTK_SHIMS_TYPE_LIST_MODEL (cgtk_shims_list_model_get_type())
G_DECLARE_FINAL_TYPE(CGtkShimsListModel, cgtk_shims_list_model, CGTK_SHIMS, LIST_MODEL, GObject)

/* A GListModel of CGtkShimsRowItem answering through `callbacks`. On GTK 4.12 and later (at
 * run time) it is a GtkSectionModel too, whose sections come from `get_section`. */
CGtkShimsListModel *cgtk_shims_list_model_new(CGtkShimsListModelCallbacks callbacks);

/* Emits items-changed (the Swift side has already updated what get_item answers); the number
 * of items becomes what it was, less `removed`, plus `added`. */
void cgtk_shims_list_model_items_changed(CGtkShimsListModel *self, guint position, guint removed, guint added);

/* Emits GtkSectionModel's sections-changed for `n_items` rows from `position` (GTK 4.12 and
 * later; before, nothing). */
void cgtk_shims_list_model_sections_changed(CGtkShimsListModel *self, guint position, guint n_items);

/* Drops the callbacks (releasing their data): from then on the model is empty. */
void cgtk_shims_list_model_detach(CGtkShimsListModel *self);

/* ---- The gated selection: GTK's selection models with a say for the app ----
 * Selection requests reach a GtkSelectionModel from clicks, keys, the list's actions,
 * accessibility and code alike; this one asks the gate about each position first. */

/* What the selection asks; each answer is the position to select (or deselect) instead of
 * `position`: `position` itself to allow it, -1 to refuse it. NULL answers allow everything.
 * `data` is released with `destroy` when the selection detaches the gate or dies. */
typedef struct {
    gint64 (*will_select)(gpointer data, guint position);
    gint64 (*will_deselect)(gpointer data, guint position);
    gpointer data;
    GDestroyNotify destroy;
} CGtkShimsSelectionGate;

#define CGTK_SHIMS_TYPE_GATED_SELECTION (cgtk_shims_gated_selection_get_type())
G_DECLARE_FINAL_TYPE(CGtkShimsGatedSelection, cgtk_shims_gated_selection, CGTK_SHIMS, GATED_SELECTION, GObject)

/* A selection model showing `inner`'s items and selection (taking ownership of `inner`, a
 * GtkSingleSelection, GtkMultiSelection or GtkNoSelection), which changes `inner`'s
 * selection only as `gate` allows. A request whose every position to select is refused
 * changes nothing, so a refused click keeps the selection there was. On GTK 4.12 and later
 * it passes `inner`'s sections on, as GTK's selection models do. */
CGtkShimsGatedSelection *cgtk_shims_gated_selection_new(GtkSelectionModel *inner, CGtkShimsSelectionGate gate);

/* The selection model inside (borrowed): changes made to it directly pass no gate. */
GtkSelectionModel *cgtk_shims_gated_selection_get_inner(CGtkShimsGatedSelection *self);

/* Drops the gate (releasing its data): from then on every request is allowed. */
void cgtk_shims_gated_selection_detach_gate(CGtkShimsGatedSelection *self);

/* ---- Composite templates ---- */

/* Registers, once per process, the widget type `name` derived from `parent`, built from the
 * composite template `template` (a GtkBuilder file whose root is <template class="name"
 * parent="…">), whose objects with the ids `child_ids` (NULL-terminated) are reachable with
 * gtk_widget_get_template_child. Returns the type (the same one when called again), or 0
 * and `error` when the name is taken by another type or `parent` cannot be derived from. */
GType cgtk_shims_template_type_register(const gchar *name, GType parent, GBytes *template,
                                        const gchar *const *child_ids, GError **error);

/* A new instance of a template type (floating, as widgets are); g_object_new is variadic. */
GtkWidget *cgtk_shims_template_widget_new(GType type);

/* ---- Section headers (GTK 4.12 and later; before, these do nothing) ----
 * A header factory's objects are GtkListHeaders: the factory's signals hand them over as
 * `header`. */

/* Sets the header factory of a GtkListView, or of a GtkColumnView (NULL removes it); FALSE,
 * doing nothing, before GTK 4.12. */
gboolean cgtk_shims_list_view_set_header_factory(GtkWidget *view, GtkListItemFactory *factory);
gboolean cgtk_shims_column_view_set_header_factory(GtkWidget *view, GtkListItemFactory *factory);

/* The item of the first row of the header's section (borrowed; NULL before GTK 4.12). */
gpointer cgtk_shims_list_header_get_item(gpointer header);

/* Sets the widget the header shows (NULL: none). */
void cgtk_shims_list_header_set_child(gpointer header, GtkWidget *child);

#define CGTK_SHIMS_TYPE_ROW_ITEM (cgtk_shims_row_item_get_type())
G_DECLARE_FINAL_TYPE(CGtkShimsRowItem, cgtk_shims_row_item, CGTK_SHIMS, ROW_ITEM, GObject)

/* A cheap item made on demand: it only carries a Swift payload, released with `destroy`. */
CGtkShimsRowItem *cgtk_shims_row_item_new(gpointer payload, GDestroyNotify destroy);

/* The Swift payload of an item (borrowed). */
gpointer cgtk_shims_row_item_get_payload(CGtkShimsRowItem *self);

/* ---- Swift concurrency on the GLib main loop ----
 * Attaches (once) a GLib source to the default main context that drains libdispatch's main
 * queue whenever its eventfd signals, so that @MainActor jobs and DispatchQueue.main blocks
 * run while GLib owns the main thread. Call on the main thread. Returns the source id. */
guint cgtk_shims_attach_main_queue_source(void);

#endif
