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
    public var kindName: String { "Book" }
    public var details: [(String, String)] {
        [("Kind", "Book"), ("Author", author), ("Year", "\(year)"), ("Pages", "\(pages)")]
    }
}

extension Album: Detailed {
    public var detailTitle: String { title }
    public var iconName: String { "audio-x-generic-symbolic" }
    public var kindName: String { "Album" }
    public var details: [(String, String)] {
        [("Kind", "Album"), ("Artist", artist), ("Year", "\(year)"), ("Tracks", "\(tracks)")]
    }
}

extension Place: Detailed {
    public var detailTitle: String { name }
    public var iconName: String { "mark-location-symbolic" }
    public var kindName: String { "Place" }
    public var details: [(String, String)] {
        [("Kind", "Place"), ("Country", country), ("Latitude", String(format: "%.4f", latitude)), ("Longitude", String(format: "%.4f", longitude))]
    }
}

extension DirectoryEntry: Detailed {
    public var detailTitle: String { name }
    public var iconName: String { kind.iconName }
    public var kindName: String { kind.singularName }
    public var details: [(String, String)] {
        var rows = [("Kind", kind.sectionTitle), ("Path", path)]
        if let size { rows.append(("Size", EntryFormat.size(size) + (size >= 1000 ? " (\(size) bytes)" : ""))) }
        if let modified { rows.append(("Modified", EntryFormat.date(modified))) }
        if let linkTarget { rows.append(("Link to", linkTarget)) }
        if let problem { rows.append(("Problem", problem)) }
        return rows
    }
}

extension DatabaseRecord: Detailed {
    public var detailTitle: String { title }
    public var iconName: String { "x-office-spreadsheet-symbolic" }
    public var kindName: String { "Row" }
    /// Every column, after the rowid (a PostgreSQL key is one of the columns).
    public var details: [(String, String)] {
        (keyName.map { [($0, "\(id)")] } ?? []) + zip(columns, values).map { ($0, $1) }
    }
}

/// A row of a database table as the paged storage gives it: its record's details, or
/// only its rowid while its page is read.
extension PagedRow: Detailed where Record == DatabaseRecord {
    public var detailTitle: String { record?.detailTitle ?? "Row \(id)" }
    public var iconName: String { record?.iconName ?? "content-loading-symbolic" }
    public var kindName: String { "Row" }
    public var details: [(String, String)] { record?.details ?? [("rowid", "\(id)")] }
}
