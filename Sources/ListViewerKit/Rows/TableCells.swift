import CGtk
import Foundation
import ListViewManager
import ModelStorage
import SQLiteStorage

/// The table's name cell: the item's icon and title.
public final class NameCell: RowWidget, ModelTransfer {
    let box = Box(orientation: .horizontal, spacing: 8)
    /// The item's icon, 16 pixels.
    public let icon = Image()
    /// The item's title.
    public let title = Label()

    /// An empty cell.
    public required init() {
        icon.pixelSize = 16
        title.ellipsize(.end)
        box.append(icon)
        box.append(title)
    }

    /// The box holding the icon and the title.
    public var rootWidget: UnsafeMutablePointer<GtkWidget> { box.gtkWidget }

    /// Shows `model`'s icon and title.
    public func update(with model: any Detailed) {
        icon.iconName = model.iconName
        title.shownText = model.detailTitle
    }
}

/// The columns of the viewer's table: name, kind, size and modification date (the last
/// two for files, empty for other items), or a database table's own columns. Every column
/// sorts.
@MainActor
enum ViewerTable {
    /// The key, then each of the columns the rows are read with, as text (empty while a
    /// row's page is read). A click on a header sorts the query itself
    /// (`FollowedTable.setOrder`): the orders given here only make the columns sortable.
    static func columns(of table: any FollowedTable) -> [TableColumn] {
        let rowid = TableColumn("#", text: { (row: PagedRow<DatabaseRecord>) in row.id.map(String.init) ?? "" }) { ($0.id ?? .min) < ($1.id ?? .min) }
        rowid.fixedWidth = 60
        let columns = table.shownColumns.map { name in
            TableColumn(name, text: { (row: PagedRow<DatabaseRecord>) in ShownText.bounded(row.record?.value(of: name) ?? "") }) { left, right in
                precedes(left.record?.value(of: name) ?? "", right.record?.value(of: name) ?? "")
            }
        }
        columns.last?.expands = true
        return [rowid] + columns
    }

    /// Whether the value `left` sorts before `right`: as numbers when both are, else as
    /// text the way people sort it (digits by value, case aside).
    static func precedes(_ left: String, _ right: String) -> Bool {
        if let left = Double(left), let right = Double(right) { return left < right }
        return left.localizedStandardCompare(right) == .orderedAscending
    }

    static func columns() -> [TableColumn] {
        let name = TableColumn(tr("Name"), cell: NameCell.self) { left, right in
            left.detailTitle.localizedStandardCompare(right.detailTitle) == .orderedAscending
        }
        name.expands = true
        let kind = TableColumn(tr("Kind"), text: { (model: any Detailed) in model.kindName }) { left, right in
            if let left = left as? DirectoryEntry, let right = right as? DirectoryEntry { return left.kind < right.kind }
            return left.kindName < right.kindName
        }
        kind.fixedWidth = 110
        let size = TableColumn(tr("Size"), text: { (entry: DirectoryEntry) in entry.size.map(EntryFormat.size) ?? "—" }) { left, right in
            (left.size ?? -1) < (right.size ?? -1)
        }
        size.fixedWidth = 100
        let modified = TableColumn(tr("Modified"), text: { (entry: DirectoryEntry) in entry.modified.map(EntryFormat.date) ?? "—" }) { left, right in
            (left.modified ?? .distantPast) < (right.modified ?? .distantPast)
        }
        modified.fixedWidth = 150
        return [name, kind, size, modified]
    }
}
