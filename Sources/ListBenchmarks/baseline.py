#!/usr/bin/python3
"""The PyGObject baseline of the benchmark suite: what a Python programmer writes for a
GTK 4 list: a Gio.ListStore of small GObjects and a Gtk.SignalListItemFactory whose label
is bound to the item's title, in an 800x600 window. Runs one scenario, prints one JSON line.

Usage: baseline.py SCENARIO N   (the scenarios of list-baseline-c)
"""
import ctypes
import json
import random
import sys
import time

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, Gio, GLib, GObject, Gtk  # noqa: E402


class Item(GObject.Object):
    title = GObject.Property(type=str)

    def __init__(self, identifier):
        super().__init__(title=f"Post {identifier}")
        self.identifier = identifier


class Counts:
    binds = 0
    signals = 0


def status_megabytes(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field):
                return float(line.split()[1]) / 1024
    return 0.0


def setup_row(_factory, list_item):
    label = Gtk.Label(xalign=0)
    list_item.set_child(label)


def bind_row(_factory, list_item):
    Counts.binds += 1
    binding = list_item.get_item().bind_property("title", list_item.get_child(), "label", GObject.BindingFlags.SYNC_CREATE)
    list_item.binding = binding


def unbind_row(_factory, list_item):
    binding = getattr(list_item, "binding", None)
    if binding is not None:
        binding.unbind()
        list_item.binding = None


def setup_tile(_factory, list_item):
    tile = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4,
                   margin_top=6, margin_bottom=6, margin_start=6, margin_end=6)
    tile.append(Gtk.Image(icon_name="image-x-generic-symbolic", pixel_size=48))
    tile.append(Gtk.Label(xalign=0))
    list_item.set_child(tile)


def bind_tile(_factory, list_item):
    Counts.binds += 1
    list_item.get_child().get_last_child().set_label(f"Photo {list_item.get_item().identifier}")


def wait_frames(window, frames):
    while window.get_frame_clock() is None:
        GLib.MainContext.default().iteration(True)
    clock = window.get_frame_clock()
    target = clock.get_frame_counter() + frames
    while clock.get_frame_counter() < target:
        window.queue_draw()
        GLib.MainContext.default().iteration(True)


def add_items(store, position, removed, first, count):
    store.splice(position, removed, [Item(first + index) for index in range(count)])


def main():
    scenario, count = sys.argv[1], int(sys.argv[2])
    store = Gio.ListStore(item_type=Item)
    store.connect("items-changed", lambda *_: setattr(Counts, "signals", Counts.signals + 1))
    factory = Gtk.SignalListItemFactory()
    if scenario == "scroll_grid":
        # Tiles of one size in every program (list-baseline-c's TILE_CSS).
        css = Gtk.CssProvider()
        tile_css = "gridview > child box { margin: 0; border-spacing: 0; }"
        if hasattr(css, "load_from_string"):  # GTK 4.12 and later
            css.load_from_string(tile_css)
        else:
            css.load_from_data(tile_css.encode())
        Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), css, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
        factory.connect("setup", setup_tile)
        factory.connect("bind", bind_tile)
        view = Gtk.GridView(model=Gtk.SingleSelection(model=store), factory=factory)
    else:
        factory.connect("setup", setup_row)
        factory.connect("bind", bind_row)
        factory.connect("unbind", unbind_row)
        view = Gtk.ListView(model=Gtk.SingleSelection(model=store), factory=factory)
    window = Gtk.Window(default_width=800, default_height=600)
    window.set_child(Gtk.ScrolledWindow(child=view))
    window.present()
    wait_frames(window, 3)

    rss_before = status_megabytes("VmRSS:")
    frames = 0
    cpu_start = time.process_time()
    if scenario == "bulk_load":
        Counts.binds = Counts.signals = 0
        start = time.monotonic()
        add_items(store, 0, 0, 0, count)
        wait_frames(window, 1)
    else:
        add_items(store, 0, 0, 0, count)
        wait_frames(window, 3)
        Counts.binds = Counts.signals = 0
        rss_before = status_megabytes("VmRSS:")
        start = time.monotonic()
        cpu_start = time.process_time()
        if scenario in ("scroll", "scroll_labels", "scroll_grid"):
            adjustment = window.get_child().get_vadjustment()
            generator = random.Random(7)
            for step in range(300):
                limit = adjustment.get_upper() - adjustment.get_page_size()
                adjustment.set_value(adjustment.get_value() + 40 if step < 200 else limit * generator.random())
                wait_frames(window, 1)
                frames += 1
        elif scenario == "batch":
            add_items(store, 5, 0, -1000, 1000)
        elif scenario == "separate":
            for index in range(1000):
                add_items(store, 5 + index, 0, -1 - index, 1)
        elif scenario == "content_update":
            store.get_item(3).props.title = "Edited"
        elif scenario == "full_reload":
            add_items(store, 0, count, 0, count)
        elif scenario == "random":
            generator = random.Random(42)
            for step in range(10000):
                size = store.get_n_items()
                position = generator.randrange(size)
                kind = generator.randrange(3)
                if kind == 0:
                    store.insert(position, Item(-step))
                elif kind == 1:
                    store.remove(position)
                else:
                    item = store.get_item(position)
                    store.remove(position)
                    store.insert(generator.randrange(size), item)
        else:
            print(f"unknown scenario {scenario}", file=sys.stderr)
            return 2
        if frames == 0:
            wait_frames(window, 2)
    wall = (time.monotonic() - start) * 1000
    cpu = (time.process_time() - cpu_start) * 1000
    # Memory still in use: freed blocks go back to the system first, as in every implementation.
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    rss_after = status_megabytes("VmRSS:")
    print(json.dumps({
        "scenario": scenario, "impl": "python", "n": count, "wall_ms": round(wall, 3),
        "peak_rss_mb": round(status_megabytes("VmHWM:"), 3),
        "rss_added_mb": round(rss_after - rss_before, 3),
        "binds": Counts.binds, "get_item": None, "signals": Counts.signals,
        "cpu_ms": round(cpu, 3), "cpu_ms_per_frame": round(cpu / frames, 4) if frames else 0,
    }, separators=(", ", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
