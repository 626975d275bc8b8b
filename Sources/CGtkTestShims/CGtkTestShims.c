#include <malloc.h>
#include "CGtkTestShims.h"

GType cgtk_shims_object_get_type(void) {
    return G_TYPE_OBJECT;
}

GType cgtk_shims_object_type(gpointer object) {
    return G_OBJECT_TYPE(object);
}

gboolean cgtk_shims_is_object(gpointer instance) {
    return instance != NULL && G_IS_OBJECT(instance);
}

gboolean cgtk_shims_is_list_model(gpointer instance) {
    return instance != NULL && G_IS_LIST_MODEL(instance);
}

GtkWidget *cgtk_shims_widget(gpointer instance) {
    return GTK_WIDGET(instance);
}

size_t cgtk_shims_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

gboolean cgtk_shims_heap_is_counted(void) {
    /* A sanitizer's allocator serves malloc itself, and glibc's figures stand still. One
     * block above the mmap threshold shows in glibc's count when glibc's malloc served it. */
    size_t before = cgtk_shims_heap_bytes_in_use();
    volatile char *block = malloc(1 << 20);
    if (block == NULL) return FALSE;
    block[0] = 1;
    size_t during = cgtk_shims_heap_bytes_in_use();
    free((void *)block);
    return during >= before + (1 << 20);
}

/* The messages GTK logs about its own bookkeeping, let through as not fatal (see the header). */
static const struct {
    const gchar *domain;
    const gchar *prefix;
    guint since_minor;
} known_gtk_messages[] = {
    { "Gdk", "gdk_frame_timings_submitted() called on submitted frame", 24 },
    { "Gtk", "Broken accounting of active state for widget", 0 },
};
static gboolean is_known_gtk_message(const gchar *domain, const gchar *message) {
    if (message == NULL) return FALSE;
    for (gsize i = 0; i < G_N_ELEMENTS(known_gtk_messages); i++) {
        if (gtk_get_minor_version() >= known_gtk_messages[i].since_minor &&
            g_strcmp0(domain, known_gtk_messages[i].domain) == 0 &&
            g_str_has_prefix(message, known_gtk_messages[i].prefix))
            return TRUE;
    }
    return FALSE;
}

static GLogWriterOutput test_log_writer(GLogLevelFlags level, const GLogField *fields, gsize count,
                                        gpointer data) {
    const gchar *domain = NULL, *message = NULL;
    for (gsize i = 0; i < count; i++) {
        if (g_strcmp0(fields[i].key, "GLIB_DOMAIN") == 0) domain = fields[i].value;
        else if (g_strcmp0(fields[i].key, "MESSAGE") == 0) message = fields[i].value;
    }
    if (is_known_gtk_message(domain, message)) {
        g_printerr("%s message let through as not fatal: %s\n", domain, message);
        return G_LOG_WRITER_HANDLED;
    }
    return g_log_writer_default(level, fields, count, data);
}

gboolean cgtk_shims_open_test_display(void) {
    static gsize writer_set = 0;
    if (g_once_init_enter(&writer_set)) {
        g_log_set_writer_func(test_log_writer, NULL, NULL);
        g_once_init_leave(&writer_set, 1);
    }
    return gtk_init_check();
}

gboolean cgtk_shims_accessible_value_is(GtkWidget *widget, GtkAccessibleRole role, double now, const gchar *text) {
    GtkAccessible *accessible = GTK_ACCESSIBLE(widget);
    if (gtk_accessible_get_accessible_role(accessible) != role) return FALSE;
    char *nowError = gtk_test_accessible_check_property(accessible, GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, now);
    char *textError = gtk_test_accessible_check_property(accessible, GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text);
    gboolean matches = nowError == NULL && textError == NULL;
    g_free(nowError);
    g_free(textError);
    return matches;
}

gboolean cgtk_shims_accessible_tree_item_is(GtkWidget *widget, int level, int expanded) {
    GtkAccessible *accessible = GTK_ACCESSIBLE(widget);
    char *levelError = gtk_test_accessible_check_property(accessible, GTK_ACCESSIBLE_PROPERTY_LEVEL, level);
    gboolean matches = levelError == NULL;
    g_free(levelError);
    if (expanded < 0) return matches && !gtk_test_accessible_has_state(accessible, GTK_ACCESSIBLE_STATE_EXPANDED);
    char *expandedError = gtk_test_accessible_check_state(accessible, GTK_ACCESSIBLE_STATE_EXPANDED, expanded ? TRUE : FALSE);
    matches = matches && expandedError == NULL;
    g_free(expandedError);
    return matches;
}
