/* Raises the GTK ceiling to what the shims may call (see CGtk/shim.h). */
#define CGTK_SHIMS_C_FILE 1
#include "CGtkShims.h"

#include <stdint.h>
#include <unistd.h>

/* libdispatch's hooks for foreign run loops (CoreFoundation uses them the same way). */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static gboolean main_queue_ready(gint fd, GIOCondition condition, gpointer data) {
    (void)condition;
    (void)data;
    /* libdispatch does not reset its eventfd; left set, GLib would wake forever. */
    uint64_t count;
    ssize_t ignored = read(fd, &count, sizeof count);
    (void)ignored;
    _dispatch_main_queue_callback_4CF(NULL);
    return G_SOURCE_CONTINUE;
}

guint cgtk_shims_attach_main_queue_source(void) {
    static guint source_id = 0;
    if (source_id == 0) {
        int fd = _dispatch_get_main_queue_handle_4CF();
        source_id = g_unix_fd_add(fd, G_IO_IN, main_queue_ready, NULL);
    }
    return source_id;
}
