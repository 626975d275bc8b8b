import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// The rows one list item has shown, one per mapping, only the current one visible.
///
/// While the list item has shown rows of one type only, that row is the list item's child
/// itself; the second type puts both into a box (once), so that lists of one row type pay
/// for no extra widget level. A row may be shown inside a wrapper (a header's heading box).
@MainActor
final class RowHost {
    private struct Entry {
        let row: RowWidget
        let mapping: ViewModelMapping
        /// What is put into the list item: the row's root widget or its wrapper.
        let widget: UnsafeMutablePointer<GtkWidget>
        /// The wrapper, if any.
        let wrapper: ObjectReference<UnsafeMutablePointer<GtkWidget>>?
    }

    /// The list item (or section header) whose rows these are.
    let listItem: OpaquePointer
    /// The widget given to the list item: the first row's, or the box holding them all.
    private(set) var child: UnsafeMutablePointer<GtkWidget>?
    private let slots: RowFactory.Slots
    /// The factory that made them.
    private(set) weak var factory: RowFactory?
    /// The box holding the rows once there are two.
    private var box: ObjectReference<UnsafeMutablePointer<GtkWidget>>?
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var current: ObjectIdentifier?
    /// The indent and expander arrow shown before the rows of a tree's items (made once the
    /// list item first shows a row of a `TreeStorage`, then kept).
    private(set) var disclosure: TreeDisclosure?

    /// The rows made here, with their mappings.
    var rows: [(row: RowWidget, mapping: ViewModelMapping)] {
        entries.values.map { ($0.row, $0.mapping) }
    }

    init(listItem: OpaquePointer, factory: RowFactory, slots: RowFactory.Slots) {
        self.listItem = listItem
        self.factory = factory
        self.slots = slots
    }

    /// Shows the row of `mapping`, made with `make` the first time (with the wrapper to
    /// show it in, if any, which the host then owns).
    func show(_ mapping: ViewModelMapping, make: () -> (RowWidget, wrapper: ObjectReference<UnsafeMutablePointer<GtkWidget>>?)) -> RowWidget {
        let key = ObjectIdentifier(mapping)
        if current == key, let entry = entries[key] { return entry.row }
        hideCurrent()
        current = key
        if let entry = entries[key] {
            gtk_widget_set_visible(entry.widget, 1)
            return entry.row
        }
        let (row, wrapper) = make()
        let entry = Entry(row: row, mapping: mapping, widget: wrapper?.pointer ?? row.rootWidget, wrapper: wrapper)
        if let first = entries.values.first {
            append(entry.widget, after: first.widget)
        } else {
            setChild(entry.widget)
        }
        entries[key] = entry
        return row
    }

    /// The indent and arrow before the rows, made now (the rows put behind them) when the
    /// list item first shows a tree's row after rows of another storage.
    func makeDisclosure() -> TreeDisclosure? {
        guard slots == .listItems else { return nil }
        if let disclosure { return disclosure }
        guard let content = child else { return nil }
        // The rows keep their widgets (each row, and the box, holds a reference).
        gtk_list_item_set_child(listItem, nil)
        let disclosure = TreeDisclosure()
        self.disclosure = disclosure
        disclosure.setContent(content)
        factory?.host(self, replacedChild: content, with: disclosure.box.pointer)
        child = disclosure.box.pointer
        gtk_list_item_set_child(listItem, disclosure.box.pointer)
        return disclosure
    }

    /// Hides the row shown, if any: the list item shows nothing.
    func hideCurrent() {
        if let current, let entry = entries[current] {
            gtk_widget_set_visible(entry.widget, 0)
        }
        current = nil
    }

    private func setChild(_ row: UnsafeMutablePointer<GtkWidget>) {
        var widget = row
        if slots == .listItems, disclosure != nil || factory?.delegate?.showsTree == true {
            let disclosure = self.disclosure ?? TreeDisclosure()
            disclosure.setContent(row)
            guard self.disclosure == nil else { return }
            self.disclosure = disclosure
            widget = disclosure.box.pointer
        }
        factory?.host(self, replacedChild: child, with: widget)
        child = widget
        switch slots {
        case .listItems: gtk_list_item_set_child(listItem, widget)
        case .sectionHeaders: cgtk_shims_list_header_set_child(UnsafeMutableRawPointer(listItem), widget)
        case .tiles: factory?.tiles?.setChild(widget, ofTile: listItem)
        }
    }

    /// Appends `widget` to the box, made the first time with `first` (until then the list
    /// item's child) moved into it.
    private func append(_ widget: UnsafeMutablePointer<GtkWidget>, after first: UnsafeMutablePointer<GtkWidget>) {
        let box: UnsafeMutablePointer<GtkWidget>
        if let existing = self.box {
            box = existing.pointer
        } else {
            let made = ObjectReference(sinking: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!)
            box = made.pointer
            self.box = made
            setChild(box)
            gtk_box_append(gtkCast(box, to: GtkBox.self), first)
        }
        gtk_box_append(gtkCast(box, to: GtkBox.self), widget)
    }
}
