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
