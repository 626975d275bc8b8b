import Foundation

/// A sectioned storage seen as a grid that a list view can show: for each section an optional
/// full-width header row, its items in strips of `columns` tiles flowing left to right, and an
/// optional full-width footer row.
///
/// It is a `FlatLayout` whose items are strips: finding a row costs O(log sections), and
/// `apply(_:)` turns a `StorageUpdate` into splices of strip rows, touching only the strips
/// from a change's first item to the end of its section (the tiles after it shift by one),
/// so that an insertion is one splice, or two when it also adds a strip somewhere else.
/// A change of `columns` (the view's width changed) is a re-flow: one splice replacing every
/// row, at a cost of O(sections).
///
/// ```swift
/// var layout = StripLayout(storage: storage, columns: 4)
/// layout.row(at: 1)                 // .strip(section: 0, items: 0..<4)
/// let changes = layout.apply(update) // splices of strip rows to emit
/// let reflow = layout.reflow(columns: 6)
/// ```
public struct StripLayout {
    /// Where each section's items fall into strips, followed through every change.
    private var columnsOfItems: StripColumns
    /// The rows: a flat layout whose items are strips.
    private var strips: FlatLayout

    /// Creates the layout of `storage` as it is now, in strips of `columns` tiles (at least 1).
    public init(storage: SectionedModels, columns: Int, options: FlatLayoutOptions = FlatLayoutOptions()) {
        columnsOfItems = StripColumns(storage: storage, columns: columns)
        strips = FlatLayout(storage: columnsOfItems.strips(of: storage), options: options)
    }

    /// The number of tiles in a full strip.
    public var columns: Int { columnsOfItems.columns }

    /// How sections are flattened.
    public var options: FlatLayoutOptions { strips.options }

    /// The number of rows: headers, strips and footers.
    public var count: Int { strips.count }

    /// The number of sections.
    public var numberOfSections: Int { columnsOfItems.numberOfSections }

    /// The number of items in `section` (0 when there is no such section).
    public func numberOfItems(inSection section: Int) -> Int {
        columnsOfItems.numberOfItems(inSection: section)
    }

    /// The number of strips `section` shows.
    public func numberOfStrips(inSection section: Int) -> Int {
        columnsOfItems.numberOfStrips(inSection: section)
    }

    /// The row at `position`, or nil when the position is out of range.
    public func row(at position: Int) -> StripRow? {
        strips.row(at: position).map(columnsOfItems.stripRow)
    }

    /// The position of the strip showing the item at `indexPath`, or nil when there is no such item.
    public func position(ofItem indexPath: IndexPath) -> Int? {
        columnsOfItems.strip(ofItem: indexPath).flatMap { strips.position(of: .item($0)) }
    }

    /// The position of `section`'s header row (nil when it shows none).
    public func position(ofHeader section: Int) -> Int? {
        strips.position(of: .header(section: section))
    }

    /// The position of `section`'s footer row (nil when it shows none).
    public func position(ofFooter section: Int) -> Int? {
        strips.position(of: .footer(section: section))
    }

    /// Every row in order. O(rows): for tests and debugging.
    public var rows: [StripRow] {
        (0..<count).compactMap(row(at:))
    }

    /// Follows `update` (which the storage has already made) and returns the splices of strip
    /// rows a view must emit, and the strips to update in place (an item updated in place).
    public mutating func apply(_ update: StorageUpdate) -> FlatChanges {
        strips.apply(columnsOfItems.translate(update))
    }

    /// Lays the items out again in strips of `columns` tiles (the view's width changed): one
    /// splice replacing every row, or no change when the number of columns is the same.
    /// O(sections); the storage is read only for its header and footer models.
    public mutating func reflow(columns: Int, storage: SectionedModels) -> FlatChanges {
        guard columnsOfItems.reflow(columns: columns) else { return FlatChanges() }
        return strips.reload(from: columnsOfItems.strips(of: storage))
    }

    /// Rebuilds the layout from `storage` after a reload (with new `options`, if given) and
    /// returns the one splice that replaces every row.
    public mutating func reload(from storage: SectionedModels, options: FlatLayoutOptions? = nil) -> FlatChanges {
        columnsOfItems = StripColumns(storage: storage, columns: columns)
        return strips.reload(from: columnsOfItems.strips(of: storage), options: options)
    }
}

/// One row of a `StripLayout`: a section's header, a strip of its items, or its footer.
public enum StripRow: Hashable, Sendable, CustomStringConvertible {
    /// The header of this section.
    case header(section: Int)
    /// A strip of tiles showing these items of `section`.
    case strip(section: Int, items: Range<Int>)
    /// The footer of this section.
    case footer(section: Int)

    /// The section the row belongs to.
    public var section: Int {
        switch self {
        case .header(let section), .footer(let section), .strip(let section, _): return section
        }
    }

    public var description: String {
        switch self {
        case .header(let section): return "header \(section)"
        case .strip(let section, let items): return "strip \(section): \(describe(items))"
        case .footer(let section): return "footer \(section)"
        }
    }
}
