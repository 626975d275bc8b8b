#include "CGtkShims.h"

/* List positions cross into Swift as UInt32. */
_Static_assert(sizeof(guint) == 4, "GTK list positions are 32-bit");
/* GType crosses into Swift as UInt (gsize). */
_Static_assert(sizeof(GType) == sizeof(gsize), "GType is pointer-sized");

GType cgtk_shims_object_get_type(void) {
    return G_TYPE_OBJECT;
}

GType cgtk_shims_object_type(gpointer object) {
    return G_OBJECT_TYPE(object);
}

gboolean cgtk_shims_instance_is_a(gpointer instance, GType type) {
    return instance != NULL && G_TYPE_CHECK_INSTANCE_TYPE(instance, type);
}

gboolean cgtk_shims_is_object(gpointer instance) {
    return instance != NULL && G_IS_OBJECT(instance);
}

gboolean cgtk_shims_is_widget(gpointer instance) {
    return instance != NULL && GTK_IS_WIDGET(instance);
}

gboolean cgtk_shims_is_list_model(gpointer instance) {
    return instance != NULL && G_IS_LIST_MODEL(instance);
}

GtkWidget *cgtk_shims_widget(gpointer instance) {
    return GTK_WIDGET(instance);
}

GListModel *cgtk_shims_list_model(gpointer instance) {
    return G_LIST_MODEL(instance);
}

gulong cgtk_shims_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                                 gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, 0);
}

void cgtk_shims_log_warning(const gchar *domain, const gchar *message) {
    g_log(domain, G_LOG_LEVEL_WARNING, "%s", message);
}

GtkSelectionModel *cgtk_shims_single_selection_new(GListModel *model) {
    GtkSingleSelection *selection = g_object_new(GTK_TYPE_SINGLE_SELECTION, "autoselect", FALSE,
                                                 "can-unselect", TRUE, "model", model, NULL);
    g_clear_object(&model);
    return GTK_SELECTION_MODEL(selection);
}
