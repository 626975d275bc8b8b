import CGtk
import Foundation
import ListViewManager
import ModelStorage
import SQLiteStorage

extension Book: AccessibilityLabeled {
    public var accessibilityLabel: String { ShownText.bounded(tr("Book: %@ by %@, %ld", title, author, year)) }
}

extension Album: AccessibilityLabeled {
    public var accessibilityLabel: String { ShownText.bounded(tr("Album: %@ by %@, %ld", title, artist, year)) }
}

extension Place: AccessibilityLabeled {
    public var accessibilityLabel: String { ShownText.bounded(tr("Place: %@, %@", name, country)) }
}

extension DirectoryEntry: AccessibilityLabeled {
    public var accessibilityLabel: String { ShownText.bounded(tr("%@: %@", kind.singularName, name)) }
}

extension DatabaseRecord: AccessibilityLabeled {
    public var accessibilityLabel: String { ShownText.bounded(summary().isEmpty ? tr("Row %lld: %@", id, title) : tr("Row %lld: %@, %@", id, title, summary())) }
}

extension PagedRow: AccessibilityLabeled where Record == DatabaseRecord {
    public var accessibilityLabel: String { record?.accessibilityLabel ?? Self.beingRead(id) }
}

extension PagedRow where Record == DatabaseRecord {
    /// What a row whose record is still being read is called: "Row 12, being read" ("A row
    /// being read" before its key is read).
    static func beingRead(_ id: Int64?) -> String {
        id.map { tr("Row %lld, being read", $0) } ?? tr("A row being read")
    }
}

extension SectionBanner: AccessibilityLabeled {
    public var accessibilityLabel: String { ShownText.bounded(title) }
}

extension ViewerWindow {
    /// Context menus, deletion, tooltips and screen reader names of the viewer's rows.
    func connectInteractions() {
        for view in managers { connectInteractions(of: view) }
        // Only the list has folder rows of their own type.
        manager.contextMenu(FolderRow.self) { [weak self] _, entry, _ in
            [MenuEntry(tr("Open Folder")) { _ in self?.openDirectory(raw: entry.rawPath) }]
        }
    }

    /// The interactions every view has (the table's items keep their sorted order, so
    /// only the list and the grid reorder by dragging).
    private func connectInteractions(of view: ItemViewManager) {
        view.setAccessibilityLabel(tr("Items"))
        // Typing a name finds it (a file by its name, not by its screen reader name, which
        // starts with its kind).
        view.typeAheadText(model: (any Detailed).self) { model, _ in model.detailTitle }
        // A section index beside sectioned lists (a table sectioned by a column, the catalog).
        view.sectionIndexTitles(fromHeaders: Any.self) { header in
            switch header {
            case let banner as SectionBanner: ShownText.indexTitle(of: banner.title)
            case let name as String: ShownText.indexTitle(of: name.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? name)
            default: nil
            }
        }
        view.tooltip(model: DirectoryEntry.self) { entry, _ in ShownText.bounded(entry.path) }
        view.tooltip(model: PagedRow<DatabaseRecord>.self) { row, _ in
            guard let record = row.record else { return PagedRow.beingRead(row.id) }
            return ShownText.bounded(zip(record.columns, record.values).prefix(8).map { "\($0): \(ShownText.bounded($1))" }.joined(separator: "\n"))
        }
        view.tooltip(model: (any Detailed).self) { model, _ in
            ShownText.bounded(model.details.prefix(3).map { "\($0.0): \(ShownText.bounded($0.1))" }.joined(separator: "\n"))
        }

        // With nothing selected, the details pane previews the item under the pointer.
        view.didHighlight(model: (any Detailed).self) { [weak self, unowned view] model, _ in
            guard let self, view.selectedIndexPaths.isEmpty else { return }
            details.show(model)
        }
        view.didUnhighlight(model: (any Detailed).self) { [weak self, unowned view] _, _ in
            guard let self, view.selectedIndexPaths.isEmpty else { return }
            details.show(nil)
        }

        // Catalog items can be deleted (from the list, not from the file); files and
        // database rows cannot.
        view.canDelete(withItem: (any Detailed).self) { model, _ in Self.isCatalogItem(model) }
        view.commitDelete(model: (any Detailed).self) { [weak self] _, indexPath in
            self?.filter.removeShownItems(at: [indexPath])
            self?.updateCount()
        }

        // Catalog items are reordered by dragging, within and across sections, while no
        // search hides items; a folder or catalog file dropped on the list opens.
        if view !== tableManager {
            view.canMove(withItem: (any Detailed).self) { [weak self] model, _ in
                Self.isCatalogItem(model) && self?.filter.query.isEmpty == true
            }
            view.moveItem(model: (any Detailed).self) { [weak self] _, source, destination in
                self?.filter.moveShownItem(from: source, to: destination)
            }
        }
        view.didDropFromOutside { [weak self] content, _ in
            guard case .files(let paths) = content, let path = paths.first else { return }
            self?.open(path)
        }

        view.contextMenu(model: (any Detailed).self) { [weak self, unowned view] model, _ in
            [
                MenuEntry(tr("Show Details")) { indexPath in view.select(indexPath) },
                MenuEntry(tr("Copy Name")) { _ in self?.copyToClipboard(model.detailTitle) },
                .delete,
            ]
        }
    }

    /// Whether `model` is an item of a catalog (which the user may delete and move).
    static func isCatalogItem(_ model: Any) -> Bool {
        model is Book || model is Album || model is Place
    }

    /// Opens a dropped folder, SQLite database (its only table) or catalog file (a message
    /// in the banner when it is none of these).
    public func open(_ path: String) {
        let kind: PathKind
        do {
            kind = try PathKind.of(raw: Array(path.utf8))
        } catch {
            showProblem("\(error)")
            return
        }
        if kind == .folder {
            openDirectory(path)
            return
        }
        if DatabaseFile.isSQLite(path) {
            openDatabase(path)
            return
        }
        do {
            show(try CatalogLoader.load(path: path))
        } catch {
            showProblem("\(error)")
        }
    }

    /// Puts `text` on the display's clipboard.
    private func copyToClipboard(_ text: String) {
        guard let display = gtk_widget_get_display(window.gtkWidget) else { return }
        gdk_clipboard_set_text(gdk_display_get_clipboard(display), text)
    }
}
