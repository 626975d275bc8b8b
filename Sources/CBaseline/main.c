/* The C baseline of the benchmark suite: what a careful C programmer writes for a GTK 4
 * list: a GListStore of small GObjects, a GtkSignalListItemFactory with a label row bound
 * to the item's title, in an 800x600 window. It runs one scenario and prints one JSON line.
 *
 * Usage: list-baseline-c SCENARIO N
 *   bulk_load        N items into the visible list, until the first frame
 *   batch            1,000 adjacent inserts near the top in one splice
 *   separate         the same 1,000 inserts, one splice each
 *   content_update   the title of one visible item changes
 *   full_reload      every item replaced by a new one in one splice
 *   random           10,000 random inserts, removes and moves
 *   scroll           200 smooth 40 px steps and 100 random jumps, one frame each
 *   scroll_labels    the same (the project's side then has label rows only, no headers)
 *   scroll_grid      the same scrolling over a GtkGridView of tiles: a 48-pixel icon over a
 *                    caption, in a box with 6-pixel margins
 *   reflow_grid      the scroll_grid tiles, 140x60 each, in a GtkGridView of at most 7
 *                    columns whose scrolled window is made 500 then 800 pixels wide, 20
 *                    times, each resize measured over the two frames after it
 *   scroll_rich      the same scrolling over the project's `scroll` rows written in C: items
 *                    of three kinds (a label; an icon and a label; a title over a subtitle)
 *                    and a header item before each tenth, each list item's child a box
 *                    holding one widget tree per kind with the bound kind's shown
 *   scroll_tree      the same scrolling over a tree of N rows: a GtkTreeListModel (autoexpand)
 *                    over a GListStore of N / 100 items, each with a GListStore of 99 children,
 *                    each row a GtkTreeExpander around a label bound to the item's title
 */
/* The oldest GTK and GLib this baseline supports (GTK 4.8, Debian 12). */
#define GDK_VERSION_MIN_REQUIRED GDK_VERSION_4_8
#define GLIB_VERSION_MIN_REQUIRED GLIB_VERSION_2_74
#include <gtk/gtk.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* ---- The item: an id and a title (a notifying property) ---- */

#define BENCH_TYPE_ITEM (bench_item_get_type())
G_DECLARE_FINAL_TYPE(BenchItem, bench_item, BENCH, ITEM, GObject)

struct _BenchItem {
    GObject parent_instance;
    int id;
    int kind; /* scroll_rich: KIND_POST, KIND_PHOTO, KIND_NOTE or KIND_HEADER */
    char *title;
};

enum { PROP_TITLE = 1, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE(BenchItem, bench_item, G_TYPE_OBJECT)

static void bench_item_finalize(GObject *object) {
    g_free(BENCH_ITEM(object)->title);
    G_OBJECT_CLASS(bench_item_parent_class)->finalize(object);
}

static void bench_item_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
    if (id == PROP_TITLE) g_value_set_string(value, BENCH_ITEM(object)->title);
    else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void bench_item_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
    BenchItem *self = BENCH_ITEM(object);
    if (id == PROP_TITLE) {
        g_free(self->title);
        self->title = g_value_dup_string(value);
    } else {
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void bench_item_class_init(BenchItemClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->finalize = bench_item_finalize;
    object_class->get_property = bench_item_get_property;
    object_class->set_property = bench_item_set_property;
    properties[PROP_TITLE] = g_param_spec_string("title", NULL, NULL, NULL, G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY);
    g_object_class_install_properties(object_class, N_PROPS, properties);
}

static void bench_item_init(BenchItem *self) { (void)self; }

static BenchItem *bench_item_new(int id) {
    BenchItem *item = g_object_new(BENCH_TYPE_ITEM, NULL);
    item->id = id;
    item->title = g_strdup_printf("Post %d", id);
    return item;
}

enum { KIND_POST, KIND_PHOTO, KIND_NOTE, KIND_HEADER, N_KINDS };

/* ---- Counting what GTK does ---- */

static guint binds, signals, get_item_calls;

/* A GListModel forwarding to the store and counting get_item calls. */
#define COUNTING_TYPE_MODEL (counting_model_get_type())
G_DECLARE_FINAL_TYPE(CountingModel, counting_model, COUNTING, MODEL, GObject)
struct _CountingModel {
    GObject parent_instance;
    GListModel *inner;
};
static void counting_model_iface_init(GListModelInterface *iface);
G_DEFINE_FINAL_TYPE_WITH_CODE(CountingModel, counting_model, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, counting_model_iface_init))
static GType counting_get_item_type(GListModel *model) { return g_list_model_get_item_type(COUNTING_MODEL(model)->inner); }
static guint counting_get_n_items(GListModel *model) { return g_list_model_get_n_items(COUNTING_MODEL(model)->inner); }
static gpointer counting_get_item(GListModel *model, guint position) {
    get_item_calls++;
    return g_list_model_get_item(COUNTING_MODEL(model)->inner, position);
}
static void counting_model_iface_init(GListModelInterface *iface) {
    iface->get_item_type = counting_get_item_type;
    iface->get_n_items = counting_get_n_items;
    iface->get_item = counting_get_item;
}
static void counting_model_dispose(GObject *object) {
    g_clear_object(&COUNTING_MODEL(object)->inner);
    G_OBJECT_CLASS(counting_model_parent_class)->dispose(object);
}
static void counting_model_class_init(CountingModelClass *klass) { G_OBJECT_CLASS(klass)->dispose = counting_model_dispose; }
static void counting_model_init(CountingModel *self) { (void)self; }
static void forward_items_changed(GListModel *inner, guint position, guint removed, guint added, gpointer model) {
    (void)inner;
    signals++;
    g_list_model_items_changed(G_LIST_MODEL(model), position, removed, added);
}
static CountingModel *counting_model_new(GListModel *inner) {
    CountingModel *self = g_object_new(COUNTING_TYPE_MODEL, NULL);
    self->inner = g_object_ref(inner);
    g_signal_connect_object(inner, "items-changed", G_CALLBACK(forward_items_changed), self, 0);
    return self;
}

/* ---- The row: a label bound to the item's title ---- */

static void setup_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data) {
    (void)factory; (void)data;
    GtkWidget *label = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_list_item_set_child(list_item, label);
}

static void bind_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data) {
    (void)factory; (void)data;
    binds++;
    GBinding *binding = g_object_bind_property(gtk_list_item_get_item(list_item), "title",
                                               gtk_list_item_get_child(list_item), "label", G_BINDING_SYNC_CREATE);
    g_object_set_data(G_OBJECT(list_item), "binding", binding);
}

/* ---- scroll_tree: a GtkTreeExpander around the label, over a GtkTreeListModel ---- */

static void setup_tree_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data) {
    (void)factory; (void)data;
    GtkWidget *expander = gtk_tree_expander_new();
    GtkWidget *label = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_tree_expander_set_child(GTK_TREE_EXPANDER(expander), label);
    gtk_list_item_set_child(list_item, expander);
}

static void bind_tree_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data) {
    (void)factory; (void)data;
    binds++;
    GtkTreeListRow *row = gtk_list_item_get_item(list_item);
    GtkWidget *expander = gtk_list_item_get_child(list_item);
    gtk_tree_expander_set_list_row(GTK_TREE_EXPANDER(expander), row);
    gpointer item = gtk_tree_list_row_get_item(row);
    GBinding *binding = g_object_bind_property(item, "title", gtk_tree_expander_get_child(GTK_TREE_EXPANDER(expander)), "label",
                                               G_BINDING_SYNC_CREATE);
    g_object_set_data(G_OBJECT(list_item), "binding", binding);
    g_object_unref(item);
}

/* A top item's children: 99 items, ids after its own (top items' ids are multiples of 100). */
static GListModel *create_children(gpointer item, gpointer data) {
    (void)data;
    int id = BENCH_ITEM(item)->id;
    if (id % 100 != 0) return NULL;
    GListStore *children = g_list_store_new(BENCH_TYPE_ITEM);
    gpointer items[99];
    for (int index = 0; index < 99; index++) items[index] = bench_item_new(id + 1 + index);
    g_list_store_splice(children, 0, 0, items, 99);
    for (int index = 0; index < 99; index++) g_object_unref(items[index]);
    return G_LIST_MODEL(children);
}

/* ---- scroll_grid: a tile of an icon over a caption ---- */

/* The grid scenarios' CSS, the same in list-benchmarks and baseline.py. */
#define TILE_CSS "gridview > child box { margin: 0; border-spacing: 0; }"

static void setup_tile(GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data) {
    (void)factory; (void)data;
    GtkWidget *tile = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    gtk_widget_set_margin_top(tile, 6);
    gtk_widget_set_margin_bottom(tile, 6);
    gtk_widget_set_margin_start(tile, 6);
    gtk_widget_set_margin_end(tile, 6);
    GtkWidget *icon = gtk_image_new_from_icon_name("image-x-generic-symbolic");
    gtk_image_set_pixel_size(GTK_IMAGE(icon), 48);
    gtk_box_append(GTK_BOX(tile), icon);
    if (data != NULL) gtk_widget_set_size_request(tile, 140, 60); /* reflow_grid: one size */
    GtkWidget *caption = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(caption), 0);
    gtk_box_append(GTK_BOX(tile), caption);
    gtk_list_item_set_child(list_item, tile);
}

static void bind_tile(GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data) {
    (void)factory; (void)data;
    binds++;
    BenchItem *item = gtk_list_item_get_item(list_item);
    char text[64];
    g_snprintf(text, sizeof text, "Photo %d", item->id);
    gtk_label_set_text(GTK_LABEL(gtk_widget_get_last_child(gtk_list_item_get_child(list_item))), text);
}

/* ---- scroll_rich: one child tree per kind in each list item, the bound kind's shown ---- */

static GtkWidget *start_label(void) {
    GtkWidget *label = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    return label;
}

static void setup_rich_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data) {
    (void)factory; (void)data;
    GtkWidget *host = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    GtkWidget *post = start_label();
    GtkWidget *photo = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_box_append(GTK_BOX(photo), gtk_image_new_from_icon_name("image-x-generic-symbolic"));
    gtk_box_append(GTK_BOX(photo), start_label());
    GtkWidget *note = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    gtk_box_append(GTK_BOX(note), start_label());
    gtk_box_append(GTK_BOX(note), start_label());
    GtkWidget *header = start_label();
    gtk_widget_add_css_class(header, "heading");
    GtkWidget *kinds[N_KINDS] = { post, photo, note, header };
    for (int kind = 0; kind < N_KINDS; kind++) {
        gtk_widget_set_visible(kinds[kind], FALSE);
        gtk_box_append(GTK_BOX(host), kinds[kind]);
    }
    gtk_list_item_set_child(list_item, host);
}

static void bind_rich_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data) {
    (void)factory; (void)data;
    binds++;
    BenchItem *item = gtk_list_item_get_item(list_item);
    GtkWidget *shown = gtk_widget_get_first_child(gtk_list_item_get_child(list_item));
    for (int kind = 0; kind < item->kind; kind++) shown = gtk_widget_get_next_sibling(shown);
    for (GtkWidget *child = gtk_widget_get_first_child(gtk_list_item_get_child(list_item)); child != NULL;
         child = gtk_widget_get_next_sibling(child))
        gtk_widget_set_visible(child, child == shown);
    char text[64];
    switch (item->kind) {
    case KIND_PHOTO:
        g_snprintf(text, sizeof text, "Photo %d", item->id);
        gtk_label_set_text(GTK_LABEL(gtk_widget_get_last_child(shown)), text);
        break;
    case KIND_NOTE:
        g_snprintf(text, sizeof text, "Note %d", item->id);
        gtk_label_set_text(GTK_LABEL(gtk_widget_get_first_child(shown)), text);
        g_snprintf(text, sizeof text, "written on day %d", item->id % 365);
        gtk_label_set_text(GTK_LABEL(gtk_widget_get_last_child(shown)), text);
        break;
    default:
        gtk_label_set_text(GTK_LABEL(shown), item->title);
    }
    gtk_list_item_set_selectable(list_item, item->kind != KIND_HEADER);
}

/* Fills the store with n items of the three kinds and a header before each tenth. */
static void add_rich_items(GListStore *store, guint n) {
    GPtrArray *items = g_ptr_array_new_with_free_func(g_object_unref);
    for (guint section = 0; section < 10; section++) {
        BenchItem *header = bench_item_new(-1 - (int)section);
        header->kind = KIND_HEADER;
        g_free(header->title);
        header->title = g_strdup_printf("Section %u", section);
        g_ptr_array_add(items, header);
        for (guint index = 0; index < n / 10; index++) {
            BenchItem *item = bench_item_new((int)(section * (n / 10) + index));
            item->kind = item->id % 3;
            g_ptr_array_add(items, item);
        }
    }
    g_list_store_splice(store, 0, 0, items->pdata, items->len);
    g_ptr_array_unref(items);
}

static void unbind_row(GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer data) {
    (void)factory; (void)data;
    GBinding *binding = g_object_get_data(G_OBJECT(list_item), "binding");
    if (binding != NULL) g_binding_unbind(binding);
    g_object_set_data(G_OBJECT(list_item), "binding", NULL);
}

/* ---- Window, frames, memory ---- */

static GtkWidget *window;

static void wait_frames(int frames) {
    GdkFrameClock *clock;
    while ((clock = gtk_widget_get_frame_clock(window)) == NULL) g_main_context_iteration(NULL, TRUE);
    gint64 target = gdk_frame_clock_get_frame_counter(clock) + frames;
    while (gdk_frame_clock_get_frame_counter(clock) < target) {
        gtk_widget_queue_draw(window);
        g_main_context_iteration(NULL, TRUE);
    }
}

static double status_megabytes(const char *field) {
    FILE *file = fopen("/proc/self/status", "r");
    char line[256];
    double value = 0;
    size_t length = strlen(field);
    while (file != NULL && fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, field, length) == 0) value = atof(line + length + 1) / 1024.0;
    }
    if (file != NULL) fclose(file);
    return value;
}

static double now_ms(void) { return g_get_monotonic_time() / 1000.0; }

static double cpu_ms(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0 + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
}

static void add_items(GListStore *store, guint position, guint removed, int first_id, guint count) {
    gpointer *items = g_new(gpointer, count);
    for (guint index = 0; index < count; index++) items[index] = bench_item_new(first_id + (int)index);
    g_list_store_splice(store, position, removed, items, count);
    for (guint index = 0; index < count; index++) g_object_unref(items[index]);
    g_free(items);
}


int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s SCENARIO N\n", argv[0]);
        return 2;
    }
    const char *scenario = argv[1];
    guint n = (guint)strtoul(argv[2], NULL, 10);
    gtk_init();

    GListStore *store = g_list_store_new(BENCH_TYPE_ITEM);
    gboolean tree = strcmp(scenario, "scroll_tree") == 0;
    /* scroll_tree: the store holds the top items, every one expanded as it comes (autoexpand). */
    GtkTreeListModel *tree_model = tree ? gtk_tree_list_model_new(G_LIST_MODEL(g_object_ref(store)), FALSE, TRUE,
                                                                  create_children, NULL, NULL) : NULL;
    CountingModel *counting = counting_model_new(tree ? G_LIST_MODEL(tree_model) : G_LIST_MODEL(store));
    GtkSelectionModel *selection = GTK_SELECTION_MODEL(gtk_single_selection_new(G_LIST_MODEL(counting)));
    GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
    gboolean rich = strcmp(scenario, "scroll_rich") == 0;
    gboolean reflow = strcmp(scenario, "reflow_grid") == 0;
    gboolean grid = strcmp(scenario, "scroll_grid") == 0 || reflow;
    if (grid) {
        g_signal_connect(factory, "setup", G_CALLBACK(setup_tile), reflow ? GINT_TO_POINTER(1) : NULL);
        g_signal_connect(factory, "bind", G_CALLBACK(bind_tile), NULL);
    } else if (tree) {
        g_signal_connect(factory, "setup", G_CALLBACK(setup_tree_row), NULL);
        g_signal_connect(factory, "bind", G_CALLBACK(bind_tree_row), NULL);
        g_signal_connect(factory, "unbind", G_CALLBACK(unbind_row), NULL);
    } else if (rich) {
        g_signal_connect(factory, "setup", G_CALLBACK(setup_rich_row), NULL);
        g_signal_connect(factory, "bind", G_CALLBACK(bind_rich_row), NULL);
    } else {
        g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
        g_signal_connect(factory, "bind", G_CALLBACK(bind_row), NULL);
        g_signal_connect(factory, "unbind", G_CALLBACK(unbind_row), NULL);
    }
    if (grid) {
        /* Tiles of the size the project's sectioned grid draws them: GTK's theme gives every
         * box in a GtkGridView cell a 12-pixel margin and 8 pixels of spacing, which the
         * sectioned grid takes off its strips. All the programs take them off, so that they
         * draw tiles of one size, as many to a screen. */
        GtkCssProvider *css = gtk_css_provider_new();
#if GTK_CHECK_VERSION(4, 12, 0)
        gtk_css_provider_load_from_string(css, TILE_CSS);
#else
        gtk_css_provider_load_from_data(css, TILE_CSS, -1);
#endif
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css),
                                                   GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
        g_object_unref(css);
    }
    GtkWidget *list = grid ? gtk_grid_view_new(selection, factory) : gtk_list_view_new(selection, factory);
    if (reflow) gtk_grid_view_set_max_columns(GTK_GRID_VIEW(list), 7);
    window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    GtkWidget *scrolled = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), list);
    gtk_window_set_child(GTK_WINDOW(window), scrolled);
    gtk_window_present(GTK_WINDOW(window));
    wait_frames(3);

    double rss_before = status_megabytes("VmRSS:");
    double start = now_ms();
    double cpu_start = cpu_ms();
    int frames = 0;
    if (strcmp(scenario, "bulk_load") == 0) {
        binds = signals = get_item_calls = 0;
        start = now_ms();
        add_items(store, 0, 0, 0, n);
        wait_frames(1);
    } else {
        if (rich) {
            add_rich_items(store, n);
        } else if (tree) {
            guint tops = n / 100;
            gpointer *items = g_new(gpointer, tops);
            for (guint top = 0; top < tops; top++) items[top] = bench_item_new((int)top * 100);
            g_list_store_splice(store, 0, 0, items, tops);
            for (guint top = 0; top < tops; top++) g_object_unref(items[top]);
            g_free(items);
        } else {
            add_items(store, 0, 0, 0, n);
        }
        wait_frames(3);
        binds = signals = get_item_calls = 0;
        rss_before = status_megabytes("VmRSS:");
        start = now_ms();
        cpu_start = cpu_ms();
        if (strncmp(scenario, "scroll", 6) == 0) {
            GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(scrolled));
            srand(7);
            /* LIST_BENCHMARKS_SCROLL_STEPS=0: all but the scrolling, for callgrind (as list-benchmarks) */
            const char *steps_text = getenv("LIST_BENCHMARKS_SCROLL_STEPS");
            int steps = steps_text != NULL ? atoi(steps_text) : 300;
            for (int step = 0; step < steps; step++) {
                double limit = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment);
                double value = step < 200 ? gtk_adjustment_get_value(adjustment) + 40 : limit * (rand() / (double)RAND_MAX);
                gtk_adjustment_set_value(adjustment, value);
                wait_frames(1);
                frames++;
            }
        } else if (reflow) {
            gtk_widget_set_halign(scrolled, GTK_ALIGN_START);
            for (int step = 0; step < 20; step++) {
                gtk_widget_set_size_request(scrolled, step % 2 == 0 ? 500 : 800, -1);
                wait_frames(2);
                frames += 2;
            }
        } else if (strcmp(scenario, "batch") == 0) {
            add_items(store, 5, 0, -1000, 1000);
        } else if (strcmp(scenario, "separate") == 0) {
            for (guint index = 0; index < 1000; index++) add_items(store, 5 + index, 0, -1 - (int)index, 1);
        } else if (strcmp(scenario, "content_update") == 0) {
            BenchItem *item = g_list_model_get_item(G_LIST_MODEL(store), 3);
            g_object_set(item, "title", "Edited", NULL);
            g_object_notify_by_pspec(G_OBJECT(item), properties[PROP_TITLE]);
            g_object_unref(item);
        } else if (strcmp(scenario, "full_reload") == 0) {
            add_items(store, 0, n, 0, n);
        } else if (strcmp(scenario, "random") == 0) {
            srand(42);
            for (int step = 0; step < 10000; step++) {
                guint count = g_list_model_get_n_items(G_LIST_MODEL(store));
                guint position = (guint)rand() % count;
                switch (rand() % 3) {
                case 0: add_items(store, position, 0, -step, 1); break;
                case 1: g_list_store_remove(store, position); break;
                default: {
                    /* GListStore has no move: take the item out and put it back elsewhere. */
                    gpointer item = g_list_model_get_item(G_LIST_MODEL(store), position);
                    g_list_store_remove(store, position);
                    g_list_store_insert(store, (guint)rand() % count, item);
                    g_object_unref(item);
                }
                }
            }
        } else {
            fprintf(stderr, "unknown scenario %s\n", scenario);
            return 2;
        }
        if (frames == 0) wait_frames(2);
    }
    double wall = now_ms() - start;
    double cpu = cpu_ms() - cpu_start;
    malloc_trim(0); /* memory still in use: freed blocks go back to the system first, as in every implementation */
    double rss_added = status_megabytes("VmRSS:") - rss_before;
    printf("{\"scenario\":\"%s\", \"impl\":\"c\", \"n\":%u, \"wall_ms\":%.3f, \"peak_rss_mb\":%.3f, \"rss_added_mb\":%.3f, "
           "\"binds\":%u, \"get_item\":%u, \"signals\":%u, \"cpu_ms\":%.3f, \"cpu_ms_per_frame\":%.4f}\n",
           scenario, n, wall, status_megabytes("VmHWM:"), rss_added, binds, get_item_calls, signals, cpu,
           frames > 0 ? cpu / frames : 0.0);
    return 0;
}
