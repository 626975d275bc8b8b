/* Raises the GTK ceiling to what the shims may call (see CGtk/shim.h). */
#define CGTK_SHIMS_C_FILE 1
#include "CGtkShims.h"

/* ---- CGtkShimsGatedSelection ----
 * A GtkSelectionModel in front of GTK's own (single, multiple or none). Every request to
 * change the selection, from a click, a key, an action, an accessibility call or the app,
 * becomes one wanted change (positions to select and to deselect); the gate may refuse or
 * redirect each position of it, and the inner model is then asked for what is left, in one
 * call. A request whose every position to select is refused changes nothing at all. */

struct _CGtkShimsGatedSelection {
    GObject parent_instance;
    GtkSelectionModel *inner;
    CGtkShimsSelectionGate gate;
    gulong items_changed_handler;
    gulong selection_changed_handler;
    gulong sections_changed_handler;
};

static void cgtk_shims_gated_selection_list_model_init(GListModelInterface *iface);
static void cgtk_shims_gated_selection_selection_model_init(GtkSelectionModelInterface *iface);

#if GTK_CHECK_VERSION(4, 12, 0)
static void cgtk_shims_gated_selection_get_section(GtkSectionModel *model, guint position, guint *start, guint *end) {
    CGtkShimsGatedSelection *self = CGTK_SHIMS_GATED_SELECTION(model);
    gtk_section_model_get_section(GTK_SECTION_MODEL(self->inner), position, start, end);
}

static void cgtk_shims_gated_selection_section_model_init(GtkSectionModelInterface *iface) {
    iface->get_section = cgtk_shims_gated_selection_get_section;
}

#define CGTK_SHIMS_GATED_SELECTION_SECTIONS                                                              \
    if (cgtk_shims_gtk_at_least(12)) {                                                                  \
        G_IMPLEMENT_INTERFACE(GTK_TYPE_SECTION_MODEL, cgtk_shims_gated_selection_section_model_init) \
    }
#else
#define CGTK_SHIMS_GATED_SELECTION_SECTIONS
#endif

G_DEFINE_FINAL_TYPE_WITH_CODE(CGtkShimsGatedSelection, cgtk_shims_gated_selection, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, cgtk_shims_gated_selection_list_model_init)
                              G_IMPLEMENT_INTERFACE(GTK_TYPE_SELECTION_MODEL, cgtk_shims_gated_selection_selection_model_init)
                              CGTK_SHIMS_GATED_SELECTION_SECTIONS)

/* -- GListModel: the inner model's items -- */

static GType cgtk_shims_gated_selection_get_item_type(GListModel *model) {
    return g_list_model_get_item_type(G_LIST_MODEL(CGTK_SHIMS_GATED_SELECTION(model)->inner));
}

static guint cgtk_shims_gated_selection_get_n_items(GListModel *model) {
    return g_list_model_get_n_items(G_LIST_MODEL(CGTK_SHIMS_GATED_SELECTION(model)->inner));
}

static gpointer cgtk_shims_gated_selection_get_item(GListModel *model, guint position) {
    return g_list_model_get_item(G_LIST_MODEL(CGTK_SHIMS_GATED_SELECTION(model)->inner), position);
}

static void cgtk_shims_gated_selection_list_model_init(GListModelInterface *iface) {
    iface->get_item_type = cgtk_shims_gated_selection_get_item_type;
    iface->get_n_items = cgtk_shims_gated_selection_get_n_items;
    iface->get_item = cgtk_shims_gated_selection_get_item;
}

/* -- The gate -- */

static gint64 cgtk_shims_gated_selection_ask(CGtkShimsGatedSelection *self, gboolean selecting, guint position) {
    gint64 (*answer)(gpointer, guint) = selecting ? self->gate.will_select : self->gate.will_deselect;
    if (answer == NULL) return position;
    gint64 target = answer(self->gate.data, position);
    guint n_items = g_list_model_get_n_items(G_LIST_MODEL(self));
    return target >= 0 && target < (gint64)n_items ? target : -1;
}

/* Asks the inner model for a selection in which the positions of `mask` are selected when
 * in `selected` and deselected otherwise, the rest staying as they are. */
static gboolean cgtk_shims_gated_selection_push(CGtkShimsGatedSelection *self, GtkBitset *selected, GtkBitset *mask) {
    if (GTK_IS_MULTI_SELECTION(self->inner)) return gtk_selection_model_set_selection(self->inner, selected, mask);
    if (!GTK_IS_SINGLE_SELECTION(self->inner)) return FALSE;
    /* The single selection: what it would hold afterwards must be one position or none. */
    GtkBitset *result = gtk_selection_model_get_selection(self->inner);
    gtk_bitset_subtract(result, mask);
    GtkBitset *chosen = gtk_bitset_copy(selected);
    gtk_bitset_intersect(chosen, mask);
    gtk_bitset_union(result, chosen);
    gtk_bitset_unref(chosen);
    guint64 size = gtk_bitset_get_size(result);
    gboolean done = FALSE;
    if (size == 0) {
        done = gtk_selection_model_unselect_all(self->inner);
    } else if (size == 1) {
        guint position = gtk_bitset_get_minimum(result);
        done = gtk_selection_model_select_item(self->inner, position, TRUE);
    }
    gtk_bitset_unref(result);
    return done;
}

/* The wanted change, as set_selection's arguments, through the gate. A single selection
 * holds one position, so selecting there deselects whatever else is selected. */
static gboolean cgtk_shims_gated_selection_change(CGtkShimsGatedSelection *self, GtkBitset *selected, GtkBitset *mask) {
    GtkBitset *current = gtk_selection_model_get_selection(self->inner);
    GtkBitset *to_select = gtk_bitset_copy(selected);
    gtk_bitset_intersect(to_select, mask);
    gtk_bitset_subtract(to_select, current);
    GtkBitset *final_selected = gtk_bitset_copy(selected);
    GtkBitset *final_mask = gtk_bitset_copy(mask);
    if (GTK_IS_SINGLE_SELECTION(self->inner) && !gtk_bitset_is_empty(to_select)) {
        gtk_bitset_add_range(final_mask, 0, g_list_model_get_n_items(G_LIST_MODEL(self)));
    }
    GtkBitset *to_deselect = gtk_bitset_copy(final_mask);
    gtk_bitset_subtract(to_deselect, selected);
    gtk_bitset_intersect(to_deselect, current);

    gboolean asked_to_select = !gtk_bitset_is_empty(to_select);
    gboolean anything_to_select = FALSE;
    GtkBitsetIter iter;
    guint position;
    for (gboolean more = gtk_bitset_iter_init_first(&iter, to_select, &position); more;
         more = gtk_bitset_iter_next(&iter, &position)) {
        gint64 target = cgtk_shims_gated_selection_ask(self, TRUE, position);
        if (target == position) {
            anything_to_select = TRUE;
            continue;
        }
        gtk_bitset_remove(final_selected, position);
        if (target < 0) continue;
        /* Redirected: the target is selected instead (or stays selected). */
        gtk_bitset_add(final_selected, (guint)target);
        gtk_bitset_add(final_mask, (guint)target);
        gtk_bitset_remove(to_deselect, (guint)target);
        anything_to_select = TRUE;
    }
    gboolean changed = FALSE;
    if (!asked_to_select || anything_to_select) {
        for (gboolean more = gtk_bitset_iter_init_first(&iter, to_deselect, &position); more;
             more = gtk_bitset_iter_next(&iter, &position)) {
            gint64 target = cgtk_shims_gated_selection_ask(self, FALSE, position);
            if (target == position) continue;
            /* Refused: the position stays selected; redirected: the target is deselected. */
            gtk_bitset_add(final_selected, position);
            if (target >= 0 && gtk_bitset_contains(current, (guint)target)) {
                gtk_bitset_remove(final_selected, (guint)target);
                gtk_bitset_add(final_mask, (guint)target);
            }
        }
        /* Nothing left to change: the request is refused. */
        GtkBitset *after = gtk_bitset_copy(final_selected);
        gtk_bitset_intersect(after, final_mask);
        GtkBitset *before = gtk_bitset_copy(current);
        gtk_bitset_intersect(before, final_mask);
        if (!gtk_bitset_equals(after, before)) changed = cgtk_shims_gated_selection_push(self, final_selected, final_mask);
        gtk_bitset_unref(before);
        gtk_bitset_unref(after);
    }
    gtk_bitset_unref(to_deselect);
    gtk_bitset_unref(final_mask);
    gtk_bitset_unref(final_selected);
    gtk_bitset_unref(to_select);
    gtk_bitset_unref(current);
    return changed;
}

/* -- GtkSelectionModel: every request is a change through the gate -- */

static gboolean cgtk_shims_gated_selection_is_selected(GtkSelectionModel *model, guint position) {
    return gtk_selection_model_is_selected(CGTK_SHIMS_GATED_SELECTION(model)->inner, position);
}

static GtkBitset *cgtk_shims_gated_selection_get_selection_in_range(GtkSelectionModel *model, guint position, guint n_items) {
    return gtk_selection_model_get_selection_in_range(CGTK_SHIMS_GATED_SELECTION(model)->inner, position, n_items);
}

/* Selects (or deselects, when not `select`) `n` positions from `position`, the others
 * deselected too when `unselect_rest`. */
static gboolean cgtk_shims_gated_selection_request(GtkSelectionModel *model, guint position, guint n, gboolean select,
                                                   gboolean unselect_rest) {
    CGtkShimsGatedSelection *self = CGTK_SHIMS_GATED_SELECTION(model);
    guint n_items = g_list_model_get_n_items(G_LIST_MODEL(self));
    GtkBitset *selected = gtk_bitset_new_empty();
    GtkBitset *mask = gtk_bitset_new_empty();
    if (select) gtk_bitset_add_range(selected, position, n);
    if (unselect_rest) {
        gtk_bitset_add_range(mask, 0, n_items);
    } else {
        gtk_bitset_add_range(mask, position, n);
    }
    gboolean changed = cgtk_shims_gated_selection_change(self, selected, mask);
    gtk_bitset_unref(mask);
    gtk_bitset_unref(selected);
    return changed;
}

static gboolean cgtk_shims_gated_selection_select_item(GtkSelectionModel *model, guint position, gboolean unselect_rest) {
    return cgtk_shims_gated_selection_request(model, position, 1, TRUE, unselect_rest);
}

static gboolean cgtk_shims_gated_selection_unselect_item(GtkSelectionModel *model, guint position) {
    return cgtk_shims_gated_selection_request(model, position, 1, FALSE, FALSE);
}

static gboolean cgtk_shims_gated_selection_select_range(GtkSelectionModel *model, guint position, guint n_items,
                                                        gboolean unselect_rest) {
    return cgtk_shims_gated_selection_request(model, position, n_items, TRUE, unselect_rest);
}

static gboolean cgtk_shims_gated_selection_unselect_range(GtkSelectionModel *model, guint position, guint n_items) {
    return cgtk_shims_gated_selection_request(model, position, n_items, FALSE, FALSE);
}

static gboolean cgtk_shims_gated_selection_select_all(GtkSelectionModel *model) {
    return cgtk_shims_gated_selection_request(model, 0, g_list_model_get_n_items(G_LIST_MODEL(model)), TRUE, FALSE);
}

static gboolean cgtk_shims_gated_selection_unselect_all(GtkSelectionModel *model) {
    return cgtk_shims_gated_selection_request(model, 0, g_list_model_get_n_items(G_LIST_MODEL(model)), FALSE, FALSE);
}

static gboolean cgtk_shims_gated_selection_set_selection(GtkSelectionModel *model, GtkBitset *selected, GtkBitset *mask) {
    return cgtk_shims_gated_selection_change(CGTK_SHIMS_GATED_SELECTION(model), selected, mask);
}

static void cgtk_shims_gated_selection_selection_model_init(GtkSelectionModelInterface *iface) {
    iface->is_selected = cgtk_shims_gated_selection_is_selected;
    iface->get_selection_in_range = cgtk_shims_gated_selection_get_selection_in_range;
    iface->select_item = cgtk_shims_gated_selection_select_item;
    iface->unselect_item = cgtk_shims_gated_selection_unselect_item;
    iface->select_range = cgtk_shims_gated_selection_select_range;
    iface->unselect_range = cgtk_shims_gated_selection_unselect_range;
    iface->select_all = cgtk_shims_gated_selection_select_all;
    iface->unselect_all = cgtk_shims_gated_selection_unselect_all;
    iface->set_selection = cgtk_shims_gated_selection_set_selection;
}

/* -- The inner model's signals, passed on as this model's -- */

static void cgtk_shims_gated_selection_items_changed(GListModel *inner, guint position, guint removed, guint added,
                                                     gpointer data) {
    (void)inner;
    g_list_model_items_changed(G_LIST_MODEL(data), position, removed, added);
}

static void cgtk_shims_gated_selection_selection_changed(GtkSelectionModel *inner, guint position, guint n_items,
                                                         gpointer data) {
    (void)inner;
    gtk_selection_model_selection_changed(GTK_SELECTION_MODEL(data), position, n_items);
}

#if GTK_CHECK_VERSION(4, 12, 0)
static void cgtk_shims_gated_selection_sections_changed(GtkSectionModel *inner, guint position, guint n_items,
                                                        gpointer data) {
    (void)inner;
    gtk_section_model_sections_changed(GTK_SECTION_MODEL(data), position, n_items);
}
#endif

static void cgtk_shims_gated_selection_detach(CGtkShimsGatedSelection *self) {
    CGtkShimsSelectionGate gate = self->gate;
    memset(&self->gate, 0, sizeof self->gate);
    if (gate.destroy != NULL) gate.destroy(gate.data);
}

static void cgtk_shims_gated_selection_dispose(GObject *object) {
    CGtkShimsGatedSelection *self = CGTK_SHIMS_GATED_SELECTION(object);
    cgtk_shims_gated_selection_detach(self);
    if (self->inner != NULL) {
        g_clear_signal_handler(&self->items_changed_handler, self->inner);
        g_clear_signal_handler(&self->selection_changed_handler, self->inner);
        g_clear_signal_handler(&self->sections_changed_handler, self->inner);
        g_clear_object(&self->inner);
    }
    G_OBJECT_CLASS(cgtk_shims_gated_selection_parent_class)->dispose(object);
}

static void cgtk_shims_gated_selection_class_init(CGtkShimsGatedSelectionClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = cgtk_shims_gated_selection_dispose;
}

static void cgtk_shims_gated_selection_init(CGtkShimsGatedSelection *self) {
    memset(&self->gate, 0, sizeof self->gate);
}

CGtkShimsGatedSelection *cgtk_shims_gated_selection_new(GtkSelectionModel *inner, CGtkShimsSelectionGate gate) {
    g_return_val_if_fail(GTK_IS_SELECTION_MODEL(inner), NULL);
    CGtkShimsGatedSelection *self = g_object_new(CGTK_SHIMS_TYPE_GATED_SELECTION, NULL);
    self->inner = inner;
    self->gate = gate;
    self->items_changed_handler =
        g_signal_connect(inner, "items-changed", G_CALLBACK(cgtk_shims_gated_selection_items_changed), self);
    self->selection_changed_handler =
        g_signal_connect(inner, "selection-changed", G_CALLBACK(cgtk_shims_gated_selection_selection_changed), self);
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12) && GTK_IS_SECTION_MODEL(inner)) {
        self->sections_changed_handler =
            g_signal_connect(inner, "sections-changed", G_CALLBACK(cgtk_shims_gated_selection_sections_changed), self);
    }
#endif
    return self;
}

GtkSelectionModel *cgtk_shims_gated_selection_get_inner(CGtkShimsGatedSelection *self) {
    g_return_val_if_fail(CGTK_SHIMS_IS_GATED_SELECTION(self), NULL);
    return self->inner;
}

void cgtk_shims_gated_selection_detach_gate(CGtkShimsGatedSelection *self) {
    g_return_if_fail(CGTK_SHIMS_IS_GATED_SELECTION(self));
    cgtk_shims_gated_selection_detach(self);
}
