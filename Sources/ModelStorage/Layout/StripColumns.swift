import Foundation

/// Where a sectioned storage's items fall into strips of `columns` tiles: each section's item
/// count, followed through every change, and the translation of a storage's changes into
/// changes of strips (a strip is an item of the storage `strips(of:)` gives). A view that
/// keeps its own `FlatLayout` of strips (a list model of strips) follows a storage with it.
public struct StripColumns {
    /// The number of tiles in a full strip.
    public private(set) var columns: Int
    /// The number of items in each section.
    private var itemCounts: [Int]

    /// The columns of `storage` as it is now, in strips of `columns` tiles (at least 1).
    public init(storage: SectionedModels, columns: Int) {
        self.columns = max(columns, 1)
        itemCounts = (0..<storage.numberOfSections()).map { storage.numberOfItems(inSection: $0) }
    }

    /// The number of sections.
    public var numberOfSections: Int { itemCounts.count }

    /// The number of items in `section` (0 when there is no such section).
    public func numberOfItems(inSection section: Int) -> Int {
        itemCounts.indices.contains(section) ? itemCounts[section] : 0
    }

    /// The number of strips `section` shows.
    public func numberOfStrips(inSection section: Int) -> Int {
        Self.strips(for: numberOfItems(inSection: section), columns: columns)
    }

    /// The items the `strip`th strip of `section` shows.
    public func items(inStrip strip: Int, ofSection section: Int) -> Range<Int> {
        let start = strip * columns
        return min(start, numberOfItems(inSection: section))..<min(start + columns, numberOfItems(inSection: section))
    }

    /// The strip (as an index path: strip, section) showing the item at `indexPath`, or nil
    /// when there is no such item.
    public func strip(ofItem indexPath: IndexPath) -> IndexPath? {
        guard indexPath.isSectionAndItem, indexPath.item >= 0, indexPath.item < numberOfItems(inSection: indexPath.section) else { return nil }
        return IndexPath(item: indexPath.item / columns, section: indexPath.section)
    }

    /// The row of a layout of strips, as a `StripRow`.
    public func stripRow(_ row: FlatRow) -> StripRow {
        switch row {
        case .header(let section): return .header(section: section)
        case .footer(let section): return .footer(section: section)
        case .item(let strip): return .strip(section: strip.section, items: items(inStrip: strip.item, ofSection: strip.section))
        }
    }

    /// `storage`'s sections seen as strips: each section's items are its strips (each the
    /// range of items it shows), with the storage's header and footer models.
    public func strips(of storage: SectionedModels) -> SectionedModels {
        StripModels(storage: storage, columns: self)
    }

    /// Takes `columns` (at least 1); false when it is the number there was.
    public mutating func reflow(columns newColumns: Int) -> Bool {
        let newColumns = max(newColumns, 1)
        guard newColumns != columns else { return false }
        columns = newColumns
        return true
    }

    /// Follows `update` and returns the same changes made to strips, in the same order: the
    /// strips from a change's first item to its section's end are replaced (one deletion and
    /// one insertion, which a flat layout merges into one splice), an item updated in place
    /// is its strip updated in place, and section and header or footer changes stay as they are.
    public mutating func translate(_ update: StorageUpdate) -> StorageUpdate {
        StorageUpdate(update.changes.flatMap { translate($0) })
    }

    /// How many strips `items` items take.
    static func strips(for items: Int, columns: Int) -> Int {
        (items + columns - 1) / columns
    }

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
    /// `item` to the section's end are laid out again.
    private mutating func resize(_ section: Int, by delta: Int, from item: Int) -> [StorageChange] {
        let old = itemCounts[section]
        itemCounts[section] = old + delta
        let first = item / columns
        return relaid(section, strips: first..<Self.strips(for: old, columns: columns),
                      to: first..<Self.strips(for: old + delta, columns: columns))
    }

    /// The strips `old` of `section` are replaced by the strips `new` (which start at the same strip).
    private func relaid(_ section: Int, strips old: Range<Int>, to new: Range<Int>) -> [StorageChange] {
        var changes: [StorageChange] = []
        if !old.isEmpty { changes.append(.deleteItems(section: section, items: old)) }
        if !new.isEmpty { changes.append(.insertItems(section: section, items: new)) }
        return changes
    }
}

/// A storage's sections as strips: what a `FlatLayout` of strips is built from. A strip's
/// model is the range of items it shows.
private struct StripModels: SectionedModels {
    let storage: SectionedModels
    let columns: StripColumns

    func numberOfSections() -> Int { columns.numberOfSections }
    func numberOfItems(inSection section: Int) -> Int { columns.numberOfStrips(inSection: section) }
    func item(at indexPath: IndexPath) -> Any? {
        indexPath.item < numberOfItems(inSection: indexPath.section) ? columns.items(inStrip: indexPath.item, ofSection: indexPath.section) : nil
    }
    func headerModel(forSection section: Int) -> Any? { storage.headerModel(forSection: section) }
    func footerModel(forSection section: Int) -> Any? { storage.footerModel(forSection: section) }
}
