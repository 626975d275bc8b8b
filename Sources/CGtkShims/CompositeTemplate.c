/* Raises the GTK ceiling to what the shims may call (see CGtk/shim.h). */
#define CGTK_SHIMS_C_FILE 1
#include "CGtkShims.h"

/* ---- Composite templates: a GType per <template class="…"> a row loads ----
 * GTK builds a composite widget from its class's template when an instance is made, so the
 * class must exist in the GType system; Swift classes are not GTypes, so the row registers
 * one, derived from the template's parent, whose class holds the template. */

typedef struct {
    GBytes *template;
    gchar **child_ids;
} CGtkShimsTemplateClassData;

static GQuark cgtk_shims_template_quark(void) {
    return g_quark_from_static_string("cgtk-shims-template-type");
}

static void cgtk_shims_template_dispose(GObject *object) {
    GType type = G_OBJECT_TYPE(object);
    gtk_widget_dispose_template(GTK_WIDGET(object), type);
    G_OBJECT_CLASS(g_type_class_peek(g_type_parent(type)))->dispose(object);
}

static void cgtk_shims_template_class_init(gpointer klass, gpointer class_data) {
    CGtkShimsTemplateClassData *data = class_data;
    gtk_widget_class_set_template(GTK_WIDGET_CLASS(klass), data->template);
    for (gchar **id = data->child_ids; id != NULL && *id != NULL; id++) {
        gtk_widget_class_bind_template_child_full(GTK_WIDGET_CLASS(klass), *id, FALSE, 0);
    }
    G_OBJECT_CLASS(klass)->dispose = cgtk_shims_template_dispose;
}

static void cgtk_shims_template_instance_init(GTypeInstance *instance, gpointer klass) {
    (void)klass;
    gtk_widget_init_template(GTK_WIDGET(instance));
}

GType cgtk_shims_template_type_register(const gchar *name, GType parent, GBytes *template,
                                        const gchar *const *child_ids, GError **error) {
    GType existing = g_type_from_name(name);
    if (existing != 0) {
        if (g_type_get_qdata(existing, cgtk_shims_template_quark()) != NULL) return existing;
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_EXISTS, "a type named %s exists already; name the template's class otherwise", name);
        return 0;
    }
    if (parent == 0 || !g_type_is_a(parent, GTK_TYPE_WIDGET) || G_TYPE_IS_FINAL(parent)) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                    "the template's parent must be a GTK widget type that can be derived from, such as GtkBox");
        return 0;
    }
    GTypeQuery query;
    g_type_query(parent, &query);
    /* Types live as long as the process: so does what their class is made from. */
    CGtkShimsTemplateClassData *data = g_new0(CGtkShimsTemplateClassData, 1);
    data->template = g_bytes_ref(template);
    data->child_ids = g_strdupv((gchar **)child_ids);
    GTypeInfo info = {
        .class_size = (guint16)query.class_size,
        .class_init = cgtk_shims_template_class_init,
        .class_data = data,
        .instance_size = (guint16)query.instance_size,
        .instance_init = cgtk_shims_template_instance_init,
    };
    GType type = g_type_register_static(parent, name, &info, 0);
    g_type_set_qdata(type, cgtk_shims_template_quark(), GINT_TO_POINTER(1));
    return type;
}

GtkWidget *cgtk_shims_template_widget_new(GType type) {
    return GTK_WIDGET(g_object_new(type, NULL));
}
