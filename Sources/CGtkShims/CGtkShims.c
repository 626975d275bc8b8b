/* Raises the GTK ceiling to what the shims may call (see CGtk/shim.h). */
#define CGTK_SHIMS_C_FILE 1
#include "CGtkShims.h"

/* List positions cross into Swift as UInt32. */
_Static_assert(sizeof(guint) == 4, "GTK list positions are 32-bit");
/* GType crosses into Swift as UInt (gsize). */
_Static_assert(sizeof(GType) == sizeof(gsize), "GType is pointer-sized");

gboolean cgtk_shims_instance_is_a(gpointer instance, GType type) {
    return instance != NULL && G_TYPE_CHECK_INSTANCE_TYPE(instance, type);
}

gboolean cgtk_shims_is_widget(gpointer instance) {
    return instance != NULL && GTK_IS_WIDGET(instance);
}

GListModel *cgtk_shims_list_model(gpointer instance) {
    return G_LIST_MODEL(instance);
}

gulong cgtk_shims_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                                 gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, 0);
}

gulong cgtk_shims_signal_connect_after(gpointer instance, const gchar *signal, GCallback handler,
                                       gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, G_CONNECT_AFTER);
}

GtkApplication *cgtk_shims_application_new(const gchar *id, gboolean non_unique) {
    return gtk_application_new(id, non_unique ? G_APPLICATION_NON_UNIQUE : G_APPLICATION_DEFAULT_FLAGS);
}

void cgtk_shims_log_warning(const gchar *domain, const gchar *message) {
    g_log(domain, G_LOG_LEVEL_WARNING, "%s", message);
}

gboolean cgtk_shims_widget_activate_action(GtkWidget *widget, const gchar *name, GVariant *parameter) {
    if (parameter != NULL) g_variant_ref_sink(parameter);
    gboolean activated = gtk_widget_activate_action_variant(widget, name, parameter);
    if (parameter != NULL) g_variant_unref(parameter);
    return activated;
}

void cgtk_shims_accessible_set_label(GtkWidget *widget, const gchar *label) {
    if (label == NULL) gtk_accessible_reset_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
    else gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

void cgtk_shims_accessible_set_description(GtkWidget *widget, const gchar *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

void cgtk_shims_accessible_set_tree_item(GtkWidget *widget, int level, int expanded) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LEVEL, level, -1);
    if (expanded < 0)
        gtk_accessible_reset_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_EXPANDED);
    else
        gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_EXPANDED, expanded ? TRUE : FALSE, -1);
}

GtkWidget *cgtk_shims_heading_box_new(int level) {
    GtkWidget *box = g_object_new(GTK_TYPE_BOX, "orientation", GTK_ORIENTATION_VERTICAL,
                                  "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING, NULL);
    gtk_accessible_update_property(GTK_ACCESSIBLE(box), GTK_ACCESSIBLE_PROPERTY_LEVEL, level, -1);
    return box;
}

GtkWidget *cgtk_shims_tile_box_new(void) {
    return g_object_new(GTK_TYPE_BOX, "orientation", GTK_ORIENTATION_VERTICAL,
                        "accessible-role", GTK_ACCESSIBLE_ROLE_GRID_CELL, NULL);
}

gboolean cgtk_shims_widget_set_accessible_role_early(GtkWidget *widget, GtkAccessibleRole role) {
    // Already set (a widget bound again): GTK 4.10 and later refuse, with a critical, once a
    // screen reader has looked at the widget, even before it is realized.
    if (gtk_accessible_get_accessible_role(GTK_ACCESSIBLE(widget)) == role) return TRUE;
    if (gtk_widget_get_realized(widget)) return FALSE;
    g_object_set(widget, "accessible-role", role, NULL);
    return TRUE;
}

void cgtk_shims_widget_get_color(GtkWidget *widget, GdkRGBA *color) {
#if GTK_CHECK_VERSION(4, 10, 0)
    if (cgtk_shims_gtk_at_least(10)) {
        gtk_widget_get_color(widget, color);
        return;
    }
#endif
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gtk_style_context_get_color(gtk_widget_get_style_context(widget), color);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

GtkWidget *cgtk_shims_group_box_new(GtkOrientation orientation, int spacing, const gchar *label) {
    GtkWidget *box = g_object_new(GTK_TYPE_BOX, "orientation", orientation, "spacing", spacing,
                                  "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP, NULL);
    gtk_accessible_update_property(GTK_ACCESSIBLE(box), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    return box;
}

GtkSelectionModel *cgtk_shims_single_selection_new(GListModel *model) {
    GtkSingleSelection *selection = g_object_new(GTK_TYPE_SINGLE_SELECTION, "autoselect", FALSE,
                                                 "can-unselect", TRUE, "model", model, NULL);
    g_clear_object(&model);
    return GTK_SELECTION_MODEL(selection);
}

GdkContentProvider *cgtk_shims_text_content_new(const gchar *text) {
    return gdk_content_provider_new_typed(G_TYPE_STRING, text);
}

GdkContentProvider *cgtk_shims_files_content_new(const gchar *const *paths, gsize count) {
    GSList *files = NULL;
    for (gsize index = count; index > 0; index--) {
        const gchar *path = paths[index - 1];
        files = g_slist_prepend(files, g_uri_peek_scheme(path) != NULL ? g_file_new_for_uri(path) : g_file_new_for_path(path));
    }
    GdkContentProvider *provider = gdk_content_provider_new_typed(GDK_TYPE_FILE_LIST, files);
    g_slist_free_full(files, g_object_unref);
    return provider;
}

GdkContentProvider *cgtk_shims_content_union_new(GdkContentProvider *const *providers, gsize count) {
    GdkContentProvider **owned = g_new(GdkContentProvider *, count);
    for (gsize index = 0; index < count; index++) owned[index] = g_object_ref(providers[index]);
    GdkContentProvider *provider = gdk_content_provider_new_union(owned, count);
    g_free(owned);
    return provider;
}

GtkDropTarget *cgtk_shims_list_drop_target_new(void) {
    GtkDropTarget *target = gtk_drop_target_new(G_TYPE_INVALID, GDK_ACTION_MOVE | GDK_ACTION_COPY);
    GType types[] = { CGTK_SHIMS_TYPE_DRAG_ITEM, GDK_TYPE_FILE_LIST, G_TYPE_STRING };
    gtk_drop_target_set_gtypes(target, types, G_N_ELEMENTS(types));
    return target;
}

CGtkShimsDroppedKind cgtk_shims_dropped_kind(const GValue *value) {
    if (G_VALUE_HOLDS(value, CGTK_SHIMS_TYPE_DRAG_ITEM)) return CGTK_SHIMS_DROPPED_ITEM;
    if (G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST)) return CGTK_SHIMS_DROPPED_FILES;
    if (G_VALUE_HOLDS_STRING(value)) return CGTK_SHIMS_DROPPED_TEXT;
    return CGTK_SHIMS_DROPPED_OTHER;
}

const gchar *cgtk_shims_dropped_text(const GValue *value) {
    return g_value_get_string(value);
}

gchar **cgtk_shims_dropped_files(const GValue *value) {
    GSList *files = g_value_get_boxed(value);
    GPtrArray *paths = g_ptr_array_new();
    for (GSList *link = files; link != NULL; link = link->next) {
        gchar *path = g_file_get_path(link->data);
        g_ptr_array_add(paths, path != NULL ? path : g_file_get_uri(link->data));
    }
    g_ptr_array_add(paths, NULL);
    return (gchar **)g_ptr_array_free(paths, FALSE);
}

gboolean cgtk_shims_gtk_at_least(guint minor) {
    /* The headers built against bound what the binary can call; the library loaded bounds
     * what it can do. */
    if (!GTK_CHECK_VERSION(4, minor, 0)) return FALSE;
    return gtk_get_major_version() > 4 || gtk_get_minor_version() >= minor;
}

void cgtk_shims_css_provider_load(GtkCssProvider *provider, const gchar *css) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) {
        gtk_css_provider_load_from_string(provider, css);
        return;
    }
#endif
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gtk_css_provider_load_from_data(provider, css, -1);
    G_GNUC_END_IGNORE_DEPRECATIONS
}

gboolean cgtk_shims_list_item_set_accessible_label(GtkListItem *item, const gchar *label) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) {
        gtk_list_item_set_accessible_label(item, label);
        return TRUE;
    }
#endif
    (void)item;
    (void)label;
    return FALSE;
}

gboolean cgtk_shims_list_item_set_focusable(GtkListItem *item, gboolean focusable) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) {
        gtk_list_item_set_focusable(item, focusable);
        return TRUE;
    }
#endif
    (void)item;
    (void)focusable;
    return FALSE;
}

gboolean cgtk_shims_list_view_scroll_to_and_focus(GtkWidget *view, guint position) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) {
        gtk_list_view_scroll_to(GTK_LIST_VIEW(view), position, GTK_LIST_SCROLL_FOCUS, NULL);
        return TRUE;
    }
#endif
    (void)view;
    (void)position;
    return FALSE;
}

gboolean cgtk_shims_grid_view_scroll_to_and_focus(GtkWidget *view, guint position) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) {
        gtk_grid_view_scroll_to(GTK_GRID_VIEW(view), position, GTK_LIST_SCROLL_FOCUS, NULL);
        return TRUE;
    }
#endif
    (void)view;
    (void)position;
    return FALSE;
}

gboolean cgtk_shims_column_view_scroll_to_and_focus(GtkWidget *view, guint position) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) {
        gtk_column_view_scroll_to(GTK_COLUMN_VIEW(view), position, NULL, GTK_LIST_SCROLL_FOCUS, NULL);
        return TRUE;
    }
#endif
    (void)view;
    (void)position;
    return FALSE;
}

gboolean cgtk_shims_list_view_set_header_factory(GtkWidget *view, GtkListItemFactory *factory) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) {
        gtk_list_view_set_header_factory(GTK_LIST_VIEW(view), factory);
        return TRUE;
    }
#endif
    (void)view;
    (void)factory;
    return FALSE;
}

gboolean cgtk_shims_column_view_set_header_factory(GtkWidget *view, GtkListItemFactory *factory) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) {
        gtk_column_view_set_header_factory(GTK_COLUMN_VIEW(view), factory);
        return TRUE;
    }
#endif
    (void)view;
    (void)factory;
    return FALSE;
}

gpointer cgtk_shims_list_header_get_item(gpointer header) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) return gtk_list_header_get_item(GTK_LIST_HEADER(header));
#endif
    (void)header;
    return NULL;
}

void cgtk_shims_list_header_set_child(gpointer header, GtkWidget *child) {
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) gtk_list_header_set_child(GTK_LIST_HEADER(header), child);
#endif
    (void)header;
    (void)child;
}
