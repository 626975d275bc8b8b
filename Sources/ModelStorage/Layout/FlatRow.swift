import Foundation

/// One row of a sectioned storage shown as a flat list: a section's header, one of its
/// items, or its footer.
public enum FlatRow: Hashable, Sendable, CustomStringConvertible {
    /// The header of this section.
    case header(section: Int)
    /// The item at this index path.
    case item(IndexPath)
    /// The footer of this section.
    case footer(section: Int)

    /// The section the row belongs to.
    public var section: Int {
        switch self {
        case .header(let section), .footer(let section): return section
        case .item(let indexPath): return indexPath.section
        }
    }

    public var description: String {
        switch self {
        case .header(let section): return "header \(section)"
        case .item(let indexPath): return "item \(describe(indexPath))"
        case .footer(let section): return "footer \(section)"
        }
    }
}

/// How a sectioned storage is flattened into rows.
public struct FlatLayoutOptions: Hashable, Sendable {
    /// Whether a section without items still shows its header row (DTTableViewManager's
    /// default: yes).
    public var displayHeaderOnEmptySection: Bool
    /// Whether a section without items still shows its footer row.
    public var displayFooterOnEmptySection: Bool
    /// Whether sections show header and footer rows at all (a grid shows only items).
    public var showsSupplementaryRows: Bool
    /// Whether the view shows each section's header above it by itself (GTK 4.12's
    /// GtkSectionModel and header factory), so that headers take no rows. A section the view
    /// could not otherwise show, an empty one displaying its header and no footer, keeps one
    /// `.header` row: GTK shows a header only above a section that has rows.
    public var headersAreSectionHeaders: Bool
    /// Whether sections show footer rows (GTK has no footer factory; a column view shows none).
    public var showsFooterRows: Bool

    /// Creates options; by default headers and footers are shown as rows, of empty sections too.
    public init(displayHeaderOnEmptySection: Bool = true, displayFooterOnEmptySection: Bool = true, showsSupplementaryRows: Bool = true,
                headersAreSectionHeaders: Bool = false, showsFooterRows: Bool = true) {
        self.displayHeaderOnEmptySection = displayHeaderOnEmptySection
        self.displayFooterOnEmptySection = displayFooterOnEmptySection
        self.showsSupplementaryRows = showsSupplementaryRows
        self.headersAreSectionHeaders = headersAreSectionHeaders
        self.showsFooterRows = showsFooterRows
    }
}

/// One `items-changed` of a GListModel: at `position`, `removed` rows were replaced by
/// `added` rows. Positions count the splices emitted before it.
public struct Splice: Hashable, Sendable, CustomStringConvertible {
    /// The first row changed.
    public var position: Int
    /// How many rows were removed there.
    public var removed: Int
    /// How many rows were added there.
    public var added: Int

    /// Creates a splice.
    public init(position: Int, removed: Int, added: Int) {
        self.position = position
        self.removed = removed
        self.added = added
    }

    /// GTK's testsuite notation: "5-1+2" (position, removed, added; zeros left out).
    public var description: String {
        "\(position)" + (removed > 0 ? "-\(removed)" : "") + (added > 0 ? "+\(added)" : "")
    }
}

/// What a view must do to follow a storage update: emit `splices` in order, then update
/// the rows at `updatedPositions` in place.
public struct FlatChanges: Hashable, Sendable, CustomStringConvertible {
    /// The splices to emit, in order; each position counts the splices before it.
    public var splices: [Splice]
    /// Rows (positions after all splices) whose content changed without moving: update
    /// their widgets in place, emit nothing for them. Ascending.
    public var updatedPositions: [Int]

    /// Sections (indexes after the update) whose header model was inserted, deleted or
    /// replaced while the view shows their header itself (`headersAreSectionHeaders`):
    /// update those headers in place. Ascending. An empty section whose header is not shown
    /// (`displayHeaderOnEmptySection` off) is left out.
    public var updatedSectionHeaders: [Int]

    /// How many rows at the top of the list the update left in place: each of them is the
    /// same row as before, at the same position and index path. Rows after them may have
    /// moved or changed index path (a reload keeps none). A view that remembers its rows'
    /// places looks again only from here on.
    public var unchangedRows: Int

    /// Creates a set of changes.
    public init(splices: [Splice] = [], updatedPositions: [Int] = [], updatedSectionHeaders: [Int] = [], unchangedRows: Int = 0) {
        self.splices = splices
        self.updatedPositions = updatedPositions
        self.updatedSectionHeaders = updatedSectionHeaders
        self.unchangedRows = unchangedRows
    }

    /// True when the view has nothing to do.
    public var isEmpty: Bool { splices.isEmpty && updatedPositions.isEmpty && updatedSectionHeaders.isEmpty }

    public var description: String {
        let spliceText = splices.map(\.description).joined(separator: " ")
        let updateText = updatedPositions.isEmpty ? "" : " updated " + updatedPositions.map(String.init).joined(separator: ",")
        let headerText = updatedSectionHeaders.isEmpty ? "" : " headers " + updatedSectionHeaders.map(String.init).joined(separator: ",")
        return "[" + spliceText + "]" + updateText + headerText
    }
}
