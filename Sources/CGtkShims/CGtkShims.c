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

void cgtk_shims_accessible_set_label(GtkWidget *widget, const gchar *label) {
    if (label == NULL) gtk_accessible_reset_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
    else gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

GtkWidget *cgtk_shims_heading_box_new(int level) {
    GtkWidget *box = g_object_new(GTK_TYPE_BOX, "orientation", GTK_ORIENTATION_VERTICAL,
                                  "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING, NULL);
    gtk_accessible_update_property(GTK_ACCESSIBLE(box), GTK_ACCESSIBLE_PROPERTY_LEVEL, level, -1);
    return box;
}

GtkSelectionModel *cgtk_shims_single_selection_new(GListModel *model) {
    GtkSingleSelection *selection = g_object_new(GTK_TYPE_SINGLE_SELECTION, "autoselect", FALSE,
                                                 "can-unselect", TRUE, "model", model, NULL);
    g_clear_object(&model);
    return GTK_SELECTION_MODEL(selection);
}
