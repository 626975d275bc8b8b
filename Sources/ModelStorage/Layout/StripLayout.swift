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
    /// The number of tiles in a full strip.
    public private(set) var columns: Int
    /// The number of items in each section, followed through every change.
    private var itemCounts: [Int]
    /// The rows: a flat layout whose items are strips.
    private var strips: FlatLayout

    /// Creates the layout of `storage` as it is now, in strips of `columns` tiles (at least 1).
    public init(storage: SectionedModels, columns: Int, options: FlatLayoutOptions = FlatLayoutOptions()) {
        self.columns = max(columns, 1)
        itemCounts = (0..<storage.numberOfSections()).map { storage.numberOfItems(inSection: $0) }
        strips = FlatLayout(storage: StripCounts(storage: storage, columns: self.columns), options: options)
    }

    /// How sections are flattened.
    public var options: FlatLayoutOptions { strips.options }

    /// The number of rows: headers, strips and footers.
    public var count: Int { strips.count }

    /// The number of sections.
    public var numberOfSections: Int { itemCounts.count }

    /// The number of items in `section` (0 when there is no such section).
    public func numberOfItems(inSection section: Int) -> Int {
        itemCounts.indices.contains(section) ? itemCounts[section] : 0
    }

    /// The row at `position`, or nil when the position is out of range.
    public func row(at position: Int) -> StripRow? {
        switch strips.row(at: position) {
        case .header(let section)?: return .header(section: section)
        case .footer(let section)?: return .footer(section: section)
        case .item(let strip)?: return .strip(section: strip.section, items: items(inStrip: strip.item, ofSection: strip.section))
        case nil: return nil
        }
    }

    /// The position of the strip showing the item at `indexPath`, or nil when there is no such item.
    public func position(ofItem indexPath: IndexPath) -> Int? {
        guard indexPath.isSectionAndItem, indexPath.item >= 0, indexPath.item < numberOfItems(inSection: indexPath.section) else { return nil }
        return strips.position(of: .item(IndexPath(item: indexPath.item / columns, section: indexPath.section)))
    }

    /// The position of `section`'s header row (nil when it shows none).
    public func position(ofHeader section: Int) -> Int? {
        strips.position(of: .header(section: section))
    }

    /// The position of `section`'s footer row (nil when it shows none).
    public func position(ofFooter section: Int) -> Int? {
        strips.position(of: .footer(section: section))
    }

    /// The number of strips `section` shows.
    public func numberOfStrips(inSection section: Int) -> Int {
        Self.strips(for: numberOfItems(inSection: section), columns: columns)
    }

    /// Every row in order. O(rows): for tests and debugging.
    public var rows: [StripRow] {
        (0..<count).compactMap(row(at:))
    }

    /// Follows `update` (which the storage has already made) and returns the splices of strip
    /// rows a view must emit, and the strips to update in place (an item updated in place).
    public mutating func apply(_ update: StorageUpdate) -> FlatChanges {
        var stripChanges: [StorageChange] = []
        for change in update.changes {
            stripChanges += translate(change)
        }
        return strips.apply(StorageUpdate(stripChanges))
    }

    /// Lays the items out again in strips of `columns` tiles (the view's width changed): one
    /// splice replacing every row, or no change when the number of columns is the same.
    /// O(sections); the storage is not read but for its header and footer models.
    public mutating func reflow(columns newColumns: Int, storage: SectionedModels) -> FlatChanges {
        let newColumns = max(newColumns, 1)
        guard newColumns != columns else { return FlatChanges() }
        columns = newColumns
        return strips.reload(from: StripCounts(storage: storage, itemCounts: itemCounts, columns: columns))
    }

    /// Rebuilds the layout from `storage` after a reload (with new `options`, if given) and
    /// returns the one splice that replaces every row.
    public mutating func reload(from storage: SectionedModels, options: FlatLayoutOptions? = nil) -> FlatChanges {
        itemCounts = (0..<storage.numberOfSections()).map { storage.numberOfItems(inSection: $0) }
        return strips.reload(from: StripCounts(storage: storage, columns: columns), options: options)
    }

    /// The items the `strip`th strip of `section` shows.
    private func items(inStrip strip: Int, ofSection section: Int) -> Range<Int> {
        let start = strip * columns
        return start..<min(start + columns, numberOfItems(inSection: section))
    }

    /// How many strips `items` items take.
    static func strips(for items: Int, columns: Int) -> Int {
        (items + columns - 1) / columns
    }

    /// The changes of strips that show `change`, made in the same order.
    private mutating func translate(_ change: StorageChange) -> [StorageChange] {
        switch change {
        case .insertSection(let index):
            itemCounts.insert(0, at: index)
            return [change]
        case .deleteSection(let index):
            itemCounts.remove(at: index)
            return [change]
        case .moveSection(let from, let to):
            itemCounts.insert(itemCounts.remove(at: from), at: to)
            return [change]
        case .supplementary:
            return [change]
        case .updateItem(let indexPath):
            return [.updateItem(IndexPath(item: indexPath.item / columns, section: indexPath.section))]
        case .insertItems(let section, let items):
            return resize(section, by: items.count, from: items.lowerBound)
        case .deleteItems(let section, let items):
            return resize(section, by: -items.count, from: items.lowerBound)
        case .moveItem(let from, let to) where from.section == to.section:
            // The tiles between the two places shift by one; the strips after them stay.
            let first = min(from.item, to.item) / columns, end = max(from.item, to.item) / columns + 1
            return relaid(from.section, strips: first..<end, to: first..<end)
        case .moveItem(let from, let to):
            return resize(from.section, by: -1, from: from.item) + resize(to.section, by: 1, from: to.item)
        }
    }

    /// `section` gains (or loses) `delta` items at `item`: the strips from the one holding
    /// `item` to the section's end are laid out again, as one splice.
    private mutating func resize(_ section: Int, by delta: Int, from item: Int) -> [StorageChange] {
        let old = itemCounts[section]
        itemCounts[section] = old + delta
        let first = item / columns
        return relaid(section, strips: first..<Self.strips(for: old, columns: columns),
                      to: first..<Self.strips(for: old + delta, columns: columns))
    }

    /// The strips `old` of `section` are replaced by the strips `new` (which start at the same
    /// strip): a deletion and an insertion the flat layout merges into one splice.
    private func relaid(_ section: Int, strips old: Range<Int>, to new: Range<Int>) -> [StorageChange] {
        var changes: [StorageChange] = []
        if !old.isEmpty { changes.append(.deleteItems(section: section, items: old)) }
        if !new.isEmpty { changes.append(.insertItems(section: section, items: new)) }
        return changes
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

/// A storage's sections as strips: what a `FlatLayout` of strips is built from.
private struct StripCounts: SectionedModels {
    let storage: SectionedModels
    let itemCounts: [Int]
    let columns: Int

    init(storage: SectionedModels, itemCounts: [Int]? = nil, columns: Int) {
        self.storage = storage
        self.itemCounts = itemCounts ?? (0..<storage.numberOfSections()).map { storage.numberOfItems(inSection: $0) }
        self.columns = columns
    }

    func numberOfSections() -> Int { itemCounts.count }
    func numberOfItems(inSection section: Int) -> Int { StripLayout.strips(for: itemCounts[section], columns: columns) }
    func item(at indexPath: IndexPath) -> Any? { nil }
    func headerModel(forSection section: Int) -> Any? { storage.headerModel(forSection: section) }
    func footerModel(forSection section: Int) -> Any? { storage.footerModel(forSection: section) }
}
