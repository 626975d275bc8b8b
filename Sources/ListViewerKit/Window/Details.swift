import Foundation
import ModelStorage
import SQLiteStorage

/// What the details pane shows for a selected model.
public protocol Detailed {
    /// The heading.
    var detailTitle: String { get }
    /// Label and value pairs, in order.
    var details: [(String, String)] { get }
    /// The icon shown beside it (a symbolic icon name).
    var iconName: String { get }
    /// What kind of item it is, in a word ("Book", "Folder").
    var kindName: String { get }
}

extension Book: Detailed {
    public var detailTitle: String { title }
    public var iconName: String { "x-office-document-symbolic" }
    public var kindName: String { tr("Book") }
    public var details: [(String, String)] {
        [(tr("Kind"), tr("Book")), (tr("Author"), author), (tr("Year"), "\(year)"), (tr("Pages"), "\(pages)")]
    }
}

extension Album: Detailed {
    public var detailTitle: String { title }
    public var iconName: String { "audio-x-generic-symbolic" }
    public var kindName: String { tr("Album") }
    public var details: [(String, String)] {
        [(tr("Kind"), tr("Album")), (tr("Artist"), artist), (tr("Year"), "\(year)"), (tr("Tracks"), "\(tracks)")]
    }
}

extension Place: Detailed {
    public var detailTitle: String { name }
    public var iconName: String { "mark-location-symbolic" }
    public var kindName: String { tr("Place") }
    public var details: [(String, String)] {
        [(tr("Kind"), tr("Place")), (tr("Country"), country), (tr("Latitude"), String(format: "%.4f", latitude)), (tr("Longitude"), String(format: "%.4f", longitude))]
    }
}

extension DirectoryEntry: Detailed {
    public var detailTitle: String { name }
    public var iconName: String { kind.iconName }
    public var kindName: String { kind.singularName }
    public var details: [(String, String)] {
        var rows = [(tr("Kind"), kind.sectionTitle), (tr("Path"), path)]
        if let size { rows.append((tr("Size"), EntryFormat.size(size) + (size >= 1000 ? " " + tr.plural("(%ld byte)", "(%ld bytes)", count: Int(size), Int(size)) : ""))) }
        if let modified { rows.append((tr("Modified"), EntryFormat.date(modified))) }
        if let linkTarget { rows.append((tr("Link to"), linkTarget)) }
        if let problem { rows.append((tr("Problem"), problem)) }
        return rows
    }
}

extension DatabaseRecord: Detailed {
    public var detailTitle: String { title }
    public var iconName: String { "x-office-spreadsheet-symbolic" }
    public var kindName: String { tr("Row") }
    /// Every column, after the rowid (a PostgreSQL key is one of the columns).
    public var details: [(String, String)] {
        (keyName.map { [($0, "\(id)")] } ?? []) + zip(columns, values).map { ($0, $1) }
    }
}

/// A row of a database table as the paged storage gives it: its record's details, or
/// only its rowid while its page is read.
extension PagedRow: Detailed where Record == DatabaseRecord {
    public var detailTitle: String { record?.detailTitle ?? id.map { tr("Row %lld", $0) } ?? tr("A row being read") }
    public var iconName: String { record?.iconName ?? "content-loading-symbolic" }
    public var kindName: String { tr("Row") }
    public var details: [(String, String)] { record?.details ?? id.map { [("rowid", "\($0)")] } ?? [] }
}
