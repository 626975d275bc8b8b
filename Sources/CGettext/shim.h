#ifndef CGETTEXT_SHIM_H
#define CGETTEXT_SHIM_H

/* gettext as the C library has it (glibc's libintl: nothing more to link): translated
 * texts (dgettext, dngettext) and where a text domain's translations are (bindtextdomain,
 * bind_textdomain_codeset). */
#include <libintl.h>

#endif
