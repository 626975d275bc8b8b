/* Raises the GTK ceiling to what the shims may call (see CGtk/shim.h). */
#define CGTK_SHIMS_C_FILE 1
#include "CGtkShims.h"

/* ---- CGtkShimsRowItem ---- */

struct _CGtkShimsRowItem {
    GObject parent_instance;
    gpointer payload;
    GDestroyNotify destroy;
};

G_DEFINE_FINAL_TYPE(CGtkShimsRowItem, cgtk_shims_row_item, G_TYPE_OBJECT)

static void cgtk_shims_row_item_finalize(GObject *object) {
    CGtkShimsRowItem *self = CGTK_SHIMS_ROW_ITEM(object);
    if (self->destroy != NULL && self->payload != NULL) {
        self->destroy(self->payload);
    }
    G_OBJECT_CLASS(cgtk_shims_row_item_parent_class)->finalize(object);
}

static void cgtk_shims_row_item_class_init(CGtkShimsRowItemClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = cgtk_shims_row_item_finalize;
}

static void cgtk_shims_row_item_init(CGtkShimsRowItem *self) {
    (void)self;
}

CGtkShimsRowItem *cgtk_shims_row_item_new(gpointer payload, GDestroyNotify destroy) {
    CGtkShimsRowItem *self = g_object_new(CGTK_SHIMS_TYPE_ROW_ITEM, NULL);
    self->payload = payload;
    self->destroy = destroy;
    return self;
}

gpointer cgtk_shims_row_item_get_payload(CGtkShimsRowItem *self) {
    g_return_val_if_fail(CGTK_SHIMS_IS_ROW_ITEM(self), NULL);
    return self->payload;
}

/* ---- CGtkShimsListModel ---- */

struct _CGtkShimsListModel {
    GObject parent_instance;
    CGtkShimsListModelCallbacks callbacks;
    /* The number of items, following the splices emitted. */
    guint n_items;
};

static void cgtk_shims_list_model_interface_init(GListModelInterface *iface);

#if GTK_CHECK_VERSION(4, 12, 0)
static void cgtk_shims_list_model_get_section(GtkSectionModel *model, guint position, guint *start, guint *end) {
    CGtkShimsListModel *self = CGTK_SHIMS_LIST_MODEL(model);
    if (position >= self->n_items) {
        /* GtkSectionModel's answer past the end. */
        *start = self->n_items;
        *end = G_MAXUINT;
    } else if (self->callbacks.get_section == NULL) {
        *start = 0;
        *end = self->n_items;
    } else {
        self->callbacks.get_section(self->callbacks.data, position, start, end);
    }
}

static void cgtk_shims_list_model_section_model_init(GtkSectionModelInterface *iface) {
    iface->get_section = cgtk_shims_list_model_get_section;
}

/* The GtkSectionModel interface is added only when the GTK loaded has it. */
#define CGTK_SHIMS_IMPLEMENT_SECTION_MODEL                                                       \
    if (cgtk_shims_gtk_at_least(12)) {                                                           \
        G_IMPLEMENT_INTERFACE(GTK_TYPE_SECTION_MODEL, cgtk_shims_list_model_section_model_init) \
    }
#else
#define CGTK_SHIMS_IMPLEMENT_SECTION_MODEL
#endif

G_DEFINE_FINAL_TYPE_WITH_CODE(CGtkShimsListModel, cgtk_shims_list_model, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, cgtk_shims_list_model_interface_init)
                              CGTK_SHIMS_IMPLEMENT_SECTION_MODEL)

static GType cgtk_shims_list_model_get_item_type(GListModel *model) {
    (void)model;
    return CGTK_SHIMS_TYPE_ROW_ITEM;
}

static guint cgtk_shims_list_model_get_n_items(GListModel *model) {
    return CGTK_SHIMS_LIST_MODEL(model)->n_items;
}

static gpointer cgtk_shims_list_model_get_item(GListModel *model, guint position) {
    CGtkShimsListModel *self = CGTK_SHIMS_LIST_MODEL(model);
    if (self->callbacks.get_item == NULL) return NULL;
    if (position >= self->n_items) return NULL;
    gpointer item = self->callbacks.get_item(self->callbacks.data, position);
    /* The GListModel contract: every item is of the item type. */
    g_return_val_if_fail(item == NULL || CGTK_SHIMS_IS_ROW_ITEM(item), NULL);
    return item;
}

static void cgtk_shims_list_model_interface_init(GListModelInterface *iface) {
    iface->get_item_type = cgtk_shims_list_model_get_item_type;
    iface->get_n_items = cgtk_shims_list_model_get_n_items;
    iface->get_item = cgtk_shims_list_model_get_item;
}

void cgtk_shims_list_model_detach(CGtkShimsListModel *self) {
    g_return_if_fail(CGTK_SHIMS_IS_LIST_MODEL(self));
    CGtkShimsListModelCallbacks callbacks = self->callbacks;
    memset(&self->callbacks, 0, sizeof self->callbacks);
    self->n_items = 0;
    if (callbacks.destroy != NULL) callbacks.destroy(callbacks.data);
}

static void cgtk_shims_list_model_dispose(GObject *object) {
    cgtk_shims_list_model_detach(CGTK_SHIMS_LIST_MODEL(object));
    G_OBJECT_CLASS(cgtk_shims_list_model_parent_class)->dispose(object);
}

static void cgtk_shims_list_model_class_init(CGtkShimsListModelClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = cgtk_shims_list_model_dispose;
}

static void cgtk_shims_list_model_init(CGtkShimsListModel *self) {
    memset(&self->callbacks, 0, sizeof self->callbacks);
}

CGtkShimsListModel *cgtk_shims_list_model_new(CGtkShimsListModelCallbacks callbacks) {
    CGtkShimsListModel *self = g_object_new(CGTK_SHIMS_TYPE_LIST_MODEL, NULL);
    self->callbacks = callbacks;
    return self;
}

void cgtk_shims_list_model_items_changed(CGtkShimsListModel *self, guint position, guint removed, guint added) {
    g_return_if_fail(CGTK_SHIMS_IS_LIST_MODEL(self));
    g_return_if_fail(position <= self->n_items && removed <= self->n_items - position);
    self->n_items = self->n_items - removed + added;
    g_list_model_items_changed(G_LIST_MODEL(self), position, removed, added);
}

void cgtk_shims_list_model_sections_changed(CGtkShimsListModel *self, guint position, guint n_items) {
    g_return_if_fail(CGTK_SHIMS_IS_LIST_MODEL(self));
#if GTK_CHECK_VERSION(4, 12, 0)
    if (cgtk_shims_gtk_at_least(12)) gtk_section_model_sections_changed(GTK_SECTION_MODEL(self), position, n_items);
#endif
    (void)position;
    (void)n_items;
}
