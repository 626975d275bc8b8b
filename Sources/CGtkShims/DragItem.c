/* Raises the GTK ceiling to what the shims may call (see CGtk/shim.h). */
#define CGTK_SHIMS_C_FILE 1
#include "CGtkShims.h"

/* ---- CGtkShimsDragItem: what a managed list's item drag carries in-process ---- */

struct _CGtkShimsDragItem {
    GObject parent_instance;
    gpointer payload;
    GDestroyNotify destroy;
};

G_DEFINE_FINAL_TYPE(CGtkShimsDragItem, cgtk_shims_drag_item, G_TYPE_OBJECT)

static void cgtk_shims_drag_item_finalize(GObject *object) {
    CGtkShimsDragItem *self = CGTK_SHIMS_DRAG_ITEM(object);
    if (self->destroy != NULL && self->payload != NULL) self->destroy(self->payload);
    G_OBJECT_CLASS(cgtk_shims_drag_item_parent_class)->finalize(object);
}

static void cgtk_shims_drag_item_class_init(CGtkShimsDragItemClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = cgtk_shims_drag_item_finalize;
}

static void cgtk_shims_drag_item_init(CGtkShimsDragItem *self) {
    (void)self;
}

GdkContentProvider *cgtk_shims_item_drag_content_new(gpointer payload, GDestroyNotify destroy) {
    CGtkShimsDragItem *item = g_object_new(CGTK_SHIMS_TYPE_DRAG_ITEM, NULL);
    item->payload = payload;
    item->destroy = destroy;
    GdkContentProvider *provider = gdk_content_provider_new_typed(CGTK_SHIMS_TYPE_DRAG_ITEM, item);
    g_object_unref(item);
    return provider;
}

gpointer cgtk_shims_drop_item_payload(GdkDrop *drop) {
    GdkDrag *drag = drop != NULL ? gdk_drop_get_drag(drop) : NULL;
    if (drag == NULL) return NULL;
    GValue value = G_VALUE_INIT;
    g_value_init(&value, CGTK_SHIMS_TYPE_DRAG_ITEM);
    gpointer payload = NULL;
    if (gdk_content_provider_get_value(gdk_drag_get_content(drag), &value, NULL) && g_value_get_object(&value) != NULL) {
        payload = CGTK_SHIMS_DRAG_ITEM(g_value_get_object(&value))->payload;
    }
    g_value_unset(&value);
    return payload;
}
