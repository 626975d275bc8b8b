#ifndef CGTK_SHIMS_H
#define CGTK_SHIMS_H

/* What Swift cannot import from GTK 4 and GLib: function-like macros, GType casts
 * and constants built from casts. Every shim is prefixed `cgtk_shims_` and says why
 * it exists in one line. */

#include <gtk/gtk.h>

/* GTK_INVALID_LIST_POSITION is a cast macro ((guint) 0xffffffff), which Swift skips. */
static const guint CGTK_SHIMS_INVALID_LIST_POSITION = GTK_INVALID_LIST_POSITION;

/* G_TYPE_OBJECT expands to G_TYPE_MAKE_FUNDAMENTAL (20), a macro. */
GType cgtk_shims_object_get_type(void);

/* G_OBJECT_TYPE is a macro reading the instance's class pointer. */
GType cgtk_shims_object_type(gpointer object);

/* G_TYPE_CHECK_INSTANCE_TYPE is a macro; this is its function form. */
gboolean cgtk_shims_instance_is_a(gpointer instance, GType type);

/* G_IS_OBJECT is a macro. */
gboolean cgtk_shims_is_object(gpointer instance);

/* GTK_IS_WIDGET is a macro. */
gboolean cgtk_shims_is_widget(gpointer instance);

/* G_IS_LIST_MODEL is a macro (interface check). */
gboolean cgtk_shims_is_list_model(gpointer instance);

/* GTK_WIDGET is a checked cast macro: it logs a critical when the instance is not a widget. */
GtkWidget *cgtk_shims_widget(gpointer instance);

/* G_LIST_MODEL is a checked cast macro to the interface. */
GListModel *cgtk_shims_list_model(gpointer instance);

/* g_signal_connect is a macro over g_signal_connect_data; this one always takes a destroy
 * notify so that no closure handed to C can leak. */
gulong cgtk_shims_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                                 gpointer data, GClosureNotify destroy);

#endif
