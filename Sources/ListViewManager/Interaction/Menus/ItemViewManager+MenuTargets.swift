import CGtk
import Foundation
import GtkKit
import ModelStorage

extension ItemViewManager {
    /// The menu asked for on `row`, what it is for and its entries, or nil when it has
    /// none: the menu of the selection when the row is one of two or more selected items
    /// and a selection menu has entries for them, else the row's own.
    func contextMenu(askedOn row: FlatRow) -> (target: MenuTarget, entries: [MenuEntry])? {
        if case .item(let indexPath) = row, !contextMenuBuilders.forSelection.isEmpty {
            let selected = selection.items.keys.sorted()
            if selected.count > 1, selected.contains(indexPath) {
                let target = MenuTarget.selection(selected)
                let entries = contextMenuEntries(for: target)
                if !entries.isEmpty { return (target, entries) }
            }
        }
        let target: MenuTarget
        switch row {
        case .header(let section): target = .header(section: section)
        case .footer(let section): target = .footer(section: section)
        case .item(let indexPath): target = .item(indexPath)
        }
        let entries = contextMenuEntries(for: target)
        return entries.isEmpty ? nil : (target, entries)
    }

    /// The entries of `target`'s menu (none: no menu), from the builders of the row showing
    /// it (if it is on screen) and of its model's type, or the selection's builders. `.delete`
    /// is left out where nothing can be deleted, and with it sections and submenus left empty.
    func contextMenuEntries(for target: MenuTarget) -> [MenuEntry] {
        let (models, indexPaths) = menuItems(of: target)
        guard !models.isEmpty else { return [] }
        var entries: [MenuEntry] = []
        switch target {
        case .item, .header, .footer:
            let row = target.rows[0]
            if let attached = boundRow(showing: row) {
                for build in attached.mapping.menuBuilders { entries += build(attached.row, models[0], indexPaths[0]) }
            }
            if case .item = row {
                entries += contextMenuBuilders.entries(for: models[0], at: indexPaths[0])
            }
        case .selection:
            entries += contextMenuBuilders.entries(forSelected: models, at: indexPaths)
        }
        let deletable = !target.isSupplementary && indexPaths.contains(where: canDelete)
        return entries.compactMap { entry in
            entry.filtered { entry in
                if case .delete? = entry.action { return deletable }
                return true
            }
        }
    }

    /// The models and index paths of what `target` stands for now (a header's or footer's
    /// index path is its section's first item's); nothing when it is gone.
    func menuItems(of target: MenuTarget) -> (models: [Any], indexPaths: [IndexPath]) {
        let found = target.rows.compactMap { row in bridge.model(of: row).map { ($0, Self.indexPath(of: row)) } }
        return (found.map(\.0), found.map(\.1))
    }

    /// Runs `entry` for `target` (nil: removed since the menu opened, an anomaly), as the
    /// entry's action says. A disabled entry does nothing.
    func runMenuEntry(_ entry: MenuEntry, for target: MenuTarget?) {
        guard entry.isEnabled, let action = entry.action else { return }
        let (models, indexPaths) = target.map(menuItems) ?? ([], [])
        guard !indexPaths.isEmpty else {
            anomalyHandler.report(.menuActionForRemovedItem(entry: entry.title))
            return
        }
        switch action {
        case .perform(let perform):
            // The last first, so that a closure removing its item leaves the others' index paths valid.
            for indexPath in indexPaths.reversed() { perform(indexPath) }
        case .performOnItems(let perform):
            perform(models, indexPaths)
        case .delete:
            guard !(target?.isSupplementary ?? true) else { return }
            deleteItems(at: indexPaths)
        }
    }

    /// The bound row showing `row` (in a column view, the first column's cell): a row of the
    /// list, or on GTK 4.12 and later a section header GTK shows itself.
    func boundRow(showing row: FlatRow) -> RowFactory.AttachedRow? {
        if let position = bridge.layout.position(of: row), let bound = boundRows(at: position).first {
            return bound.row
        }
        guard case .header = row, showsNativeSectionHeaders else { return nil }
        return headerFactory?.boundRows.first { $0.row.flatRow == row }?.row
    }
}
