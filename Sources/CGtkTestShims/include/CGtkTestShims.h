#ifndef CGTK_TEST_SHIMS_H
#define CGTK_TEST_SHIMS_H

/* Shims that only the tests and the benchmarks use: GLib macros Swift cannot import and
 * glibc's heap figures. Kept out of the library, which apps link. Prefixed `cgtk_shims_`, each with why it exists. */

#include "../../CGtk/shim.h"
#include <stddef.h>

/* G_TYPE_OBJECT expands to G_TYPE_MAKE_FUNDAMENTAL (20), a macro. */
GType cgtk_shims_object_get_type(void);

/* G_OBJECT_TYPE is a macro reading the instance's class pointer. */
GType cgtk_shims_object_type(gpointer object);

/* G_IS_OBJECT is a macro. */
gboolean cgtk_shims_is_object(gpointer instance);

/* G_IS_LIST_MODEL is a macro (interface check). */
gboolean cgtk_shims_is_list_model(gpointer instance);

/* GTK_WIDGET is a checked cast macro: it logs a critical when the instance is not a widget. */
GtkWidget *cgtk_shims_widget(gpointer instance);

/* The bytes glibc's malloc has handed out and not had back (mallinfo2: in-use heap blocks
 * plus mapped ones). Exact where resident memory counts pages; for the benchmarks' and
 * tests' memory figures. mallinfo2 returns a struct, which Swift cannot call through dlsym. */
size_t cgtk_shims_heap_bytes_in_use(void);

/* Whether cgtk_shims_heap_bytes_in_use counts this process's allocations: false when a
 * sanitizer (AddressSanitizer, ThreadSanitizer) has replaced glibc's malloc. */
gboolean cgtk_shims_heap_is_counted(void);

#endif
