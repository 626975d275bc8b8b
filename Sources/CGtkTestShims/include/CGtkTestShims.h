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

/* Whether `widget` tells screen readers that its value is `now`, read as `text`, and its
 * role is `role` (GtkTestAccessible's checks are variadic or macros). */
gboolean cgtk_shims_accessible_value_is(GtkWidget *widget, GtkAccessibleRole role, double now, const gchar *text);

/* Whether `widget` tells screen readers that it is a tree item at `level`, expanded
 * (`expanded` 1) or collapsed (0), or (`expanded` < 0) without an expanded state. */
gboolean cgtk_shims_accessible_tree_item_is(GtkWidget *widget, int level, int expanded);

/* Opens GTK's display for a test process (gtk_init_check), first installing a GLib log
 * writer that lets through as not fatal (printed) the messages GTK logs about
 * its own bookkeeping, which no caller can cause or prevent:
 * - "gdk_frame_timings_submitted() called on submitted frame" (Gdk, GTK 4.24 and later):
 *   the X11 backend reports a popover's frame as submitted twice when no compositor answers
 *   frame sync, as on Xvfb: a plain C program that pops up a GtkPopover gets it and, under
 *   G_DEBUG=fatal-warnings, aborts.
 * - "Broken accounting of active state for widget" (Gtk, every GTK): GTK's count of the
 *   presses a widget is under, which its pointer-event code keeps, went below zero; seen on
 *   a scrollbar's or popover's GtkGizmo about once in 50 runs of the context-menu tests on a
 *   loaded machine, at the start of a test following one whose last input went to a menu.
 * Every other message reaches GLib's default writer, which keeps G_DEBUG=fatal-warnings
 * fatal. A log writer can be set once per process: the first call sets it, later calls only
 * open the display. */
gboolean cgtk_shims_open_test_display(void);

#endif
