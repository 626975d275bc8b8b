#include "CGtkShims.h"

struct _CGtkShimsSliderArea {
    GtkDrawingArea parent;
    CGtkShimsSliderSet set;
    gpointer data;
    GDestroyNotify destroy;
};

#if GTK_CHECK_VERSION(4, 10, 0)
static gboolean slider_area_set_current_value(GtkAccessibleRange *range, double value) {
    CGtkShimsSliderArea *self = CGTK_SHIMS_SLIDER_AREA(range);
    return self->set != NULL && self->set(value, self->data);
}

static void slider_area_range_init(GtkAccessibleRangeInterface *iface) {
    iface->set_current_value = slider_area_set_current_value;
}

G_DEFINE_FINAL_TYPE_WITH_CODE(CGtkShimsSliderArea, cgtk_shims_slider_area, GTK_TYPE_DRAWING_AREA,
                              if (cgtk_shims_gtk_at_least(10)) {
                                  G_IMPLEMENT_INTERFACE(GTK_TYPE_ACCESSIBLE_RANGE, slider_area_range_init)
                              })
#else
G_DEFINE_FINAL_TYPE(CGtkShimsSliderArea, cgtk_shims_slider_area, GTK_TYPE_DRAWING_AREA)
#endif

static void slider_area_dispose(GObject *object) {
    CGtkShimsSliderArea *self = CGTK_SHIMS_SLIDER_AREA(object);
    if (self->destroy != NULL) self->destroy(self->data);
    self->set = NULL;
    self->data = NULL;
    self->destroy = NULL;
    G_OBJECT_CLASS(cgtk_shims_slider_area_parent_class)->dispose(object);
}

/* As wide as its content when there is room, and able to be as narrow as nothing: beside a
 * list in a box, the slider never makes the list's minimum width larger. */
static void slider_area_measure(GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                                int *minimum_baseline, int *natural_baseline) {
    GTK_WIDGET_CLASS(cgtk_shims_slider_area_parent_class)->measure(widget, orientation, for_size, minimum, natural,
                                                                    minimum_baseline, natural_baseline);
    if (orientation == GTK_ORIENTATION_HORIZONTAL) *minimum = 0;
}

static void cgtk_shims_slider_area_class_init(CGtkShimsSliderAreaClass *klass) {
    G_OBJECT_CLASS(klass)->dispose = slider_area_dispose;
    GTK_WIDGET_CLASS(klass)->measure = slider_area_measure;
    gtk_widget_class_set_accessible_role(GTK_WIDGET_CLASS(klass), GTK_ACCESSIBLE_ROLE_SLIDER);
}

static void cgtk_shims_slider_area_init(CGtkShimsSliderArea *self) {
    gtk_widget_set_focusable(GTK_WIDGET(self), TRUE);
}

GtkWidget *cgtk_shims_slider_area_new(const gchar *label, CGtkShimsSliderSet set, gpointer data, GDestroyNotify destroy) {
    CGtkShimsSliderArea *self = g_object_new(CGTK_SHIMS_TYPE_SLIDER_AREA, NULL);
    self->set = set;
    self->data = data;
    self->destroy = destroy;
    gtk_accessible_update_property(GTK_ACCESSIBLE(self), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                   GTK_ACCESSIBLE_PROPERTY_ORIENTATION, GTK_ORIENTATION_VERTICAL,
                                   GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0, -1);
    return GTK_WIDGET(self);
}

void cgtk_shims_slider_area_set_value(GtkWidget *area, double max, double now, const gchar *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(area), GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, max,
                                   GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, now,
                                   GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text, -1);
    if (!cgtk_shims_gtk_at_least(10))
        gtk_accessible_update_property(GTK_ACCESSIBLE(area), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}
