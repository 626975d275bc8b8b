#ifndef CGTK_SHIM_H
#define CGTK_SHIM_H

/* The GTK and GLib versions this package supports, declared before GTK is included (the
 * GNOME convention). The oldest (GTK 4.8, GLib 2.74, Debian 12) is both the floor and, for
 * Swift, the ceiling: an API deprecated later does not warn, and an API added later warns
 * as unavailable. Newer API is reached only through CGtkShims, whose C files raise the
 * ceiling (CGTK_SHIMS_C_FILE) and check the version at build time and at run time. */
#define GDK_VERSION_MIN_REQUIRED GDK_VERSION_4_8
#define GLIB_VERSION_MIN_REQUIRED GLIB_VERSION_2_74
#define GLIB_VERSION_MAX_ALLOWED GLIB_VERSION_2_74
#ifdef CGTK_SHIMS_C_FILE
/* The newest GTK whose API the shims may call, each call behind GTK_CHECK_VERSION. */
#define GDK_VERSION_MAX_ALLOWED G_ENCODE_VERSION(4, 12)
#else
#define GDK_VERSION_MAX_ALLOWED GDK_VERSION_4_8
#endif

#include <gtk/gtk.h>

#endif
