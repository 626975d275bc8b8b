"""Reads list-viewer through AT-SPI, as a screen reader does, and prints what it found as
one JSON line. Run by the viewer's accessibility test with Debian's /usr/bin/python3.

Usage: screen_reader.py catalog PID   read the list, its rows and headings; select a book
                                  through the list's Selection interface; read the details
                                  and the section index
       screen_reader.py folder PID KEY...
                                  press KEYs (real keys, xdotool) in the list and read the
                                  rows of the folder that opens
"""
import json
import subprocess
import sys
import time

import pyatspi

BOOK = "Book: Summer Library by Clara Duval, 1902"
VIEWER_PID = int(sys.argv[2])


def wait_for(what, probe, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            found = probe()
        except Exception:  # the tree changes under us while GTK updates it
            found = None
        if found:
            return found
        time.sleep(0.1)
    print(json.dumps({"error": "timed out waiting for " + what}))
    sys.exit(1)


def application():
    """The viewer's application, found by its process id (without asking other apps for
    their names: one that is busy would keep us waiting)."""
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is not None and app.get_process_id() == VIEWER_PID:
            return app
    return None


def find_all(node, predicate, depth=0, found=None):
    found = [] if found is None else found
    if node is None or depth > 40:
        return found
    if predicate(node):
        found.append(node)
    for index in range(node.childCount):
        find_all(node.getChildAtIndex(index), predicate, depth + 1, found)
    return found


def the_list(app):
    lists = find_all(app, lambda node: node.getRoleName() == "list" and node.name == "Items")
    return lists[0] if lists else None


def row_names(lst):
    return [lst.getChildAtIndex(index).name for index in range(lst.childCount)]


def texts(node):
    return [label.name for label in find_all(node, lambda n: n.getRoleName() == "label")]


def details_texts(app):
    panes = find_all(app, lambda node: node.name == "Details" and node.getRoleName() != "label")
    return texts(panes[0]) if panes else []


def press(*keys):
    subprocess.run(["xdotool", "search", "--sync", "--name", "List Viewer", "windowfocus", "--sync",
                    "key", "--delay", "50", *keys], check=True)


def catalog(app):
    lst = wait_for("the list of items", lambda: the_list(app))
    wait_for("the rows", lambda: BOOK in row_names(lst))
    names = row_names(lst)
    headings = [node.name for node in find_all(lst, lambda node: node.getRoleName() == "heading")]
    selection = lst.querySelection()
    # GTK's Selection interface counts the list's items, not section headers that GTK 4.12
    # and later can show among its children.
    items = [lst.getChildAtIndex(index).name for index in range(lst.childCount)
             if lst.getChildAtIndex(index).getRoleName() == "list item"]
    selected = selection.selectChild(items.index(BOOK))
    details = wait_for("the details of the selected book", lambda: (lambda t: t if "Clara Duval" in t else None)(details_texts(app)))
    return {"list": lst.name, "rows": names[:12], "headings": headings, "selected": selected,
            "selected_count": selection.nSelectedChildren, "details": details, "index": section_index(app)}


def section_index(app):
    """The section index beside the list: a slider, its name and where it is (its
    description on GTK 4.8, which gives its own ranges alone a value); then a title picked
    by setting the value, as a screen reader's user does."""
    slider = wait_for("the section index", lambda: find_all(app, lambda node: node.getRoleName() == "slider"))[0]
    found = {"name": slider.name, "description": slider.description}
    try:
        value = slider.queryValue()
    except NotImplementedError:
        return found
    found.update({"current": value.currentValue, "minimum": value.minimumValue, "maximum": value.maximumValue})
    value.currentValue = 2
    found["set"] = wait_for("the title set", lambda: slider.queryValue().currentValue == 2)
    return found


def folder(app):
    lst = wait_for("the list of items", lambda: the_list(app))
    before = wait_for("the folder's rows", lambda: (lambda n: n if "Folder: alpha" in n else None)(row_names(lst)))
    press(*sys.argv[3:])
    after = wait_for("the opened folder", lambda: (lambda n: n if "Document: inside.txt" in n else None)(row_names(the_list(app))))
    return {"before": before, "after": after}


def grid(app):
    def tiles():
        names = [node.name for node in find_all(app, lambda node: node.getRoleName() == "table cell")]
        return names if "Folder: alpha" in names else None
    names = wait_for("the grid's tiles", tiles)
    headings = [node.name for node in find_all(app, lambda node: node.getRoleName() == "heading")]
    return {"tiles": names, "headings": headings}


def main():
    app = wait_for("list-viewer on the accessibility bus", application)
    result = {"catalog": catalog, "folder": folder, "grid": grid}[sys.argv[1]](app)
    print(json.dumps(result))


main()
