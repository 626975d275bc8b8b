import Foundation

extension StorageUpdate {
    /// Where the item that was at `indexPath` before this update is after it, or nil when
    /// the update deleted it (alone or with its section).
    ///
    /// It follows the item through every change in order: inserts and deletes before it
    /// shift it, moves of it or of its section carry it. Use it to keep state attached to
    /// items (a selection, an expanded row) in step with the storage.
    public func newIndexPath(for indexPath: IndexPath) -> IndexPath? {
        var section = indexPath.section
        var item = indexPath.item
        for change in changes {
            switch change {
            case .insertSection, .deleteSection, .moveSection:
                guard let moved = Self.section(section, after: change) else { return nil }
                section = moved
            case .insertItems(let inserted, let items):
                if section == inserted, item >= items.lowerBound { item += items.count }
            case .deleteItems(let deleted, let items):
                guard section == deleted else { break }
                if items.contains(item) { return nil }
                if item >= items.upperBound { item -= items.count }
            case .moveItem(let from, let to):
                if section == from.section, item == from.item {
                    section = to.section
                    item = to.item
                    break
                }
                if section == from.section, item > from.item { item -= 1 }
                if section == to.section, item >= to.item { item += 1 }
            case .updateItem, .supplementary:
                break
            }
        }
        return IndexPath(item: item, section: section)
    }

    /// Where the section that was at `section` before this update is after it, or nil when
    /// the update deleted it. Item changes leave sections where they are: use it to keep
    /// state attached to a section (its header's menu, say) in step with the storage.
    public func newSection(for section: Int) -> Int? {
        var section = section
        for change in changes {
            guard let moved = Self.section(section, after: change) else { return nil }
            section = moved
        }
        return section
    }

    /// Where section `section` is after `change` (nil: deleted); item changes keep it.
    private static func section(_ section: Int, after change: StorageChange) -> Int? {
        switch change {
        case .insertSection(let index): return section >= index ? section + 1 : section
        case .deleteSection(let index): return section == index ? nil : section > index ? section - 1 : section
        case .moveSection(let from, let to): return index(section, afterMovingFrom: from, to: to)
        case .insertItems, .deleteItems, .moveItem, .updateItem, .supplementary: return section
        }
    }

    /// Where index `index` of an array is after the element at `from` moved to `to`.
    private static func index(_ index: Int, afterMovingFrom from: Int, to: Int) -> Int {
        if index == from { return to }
        if from < to, index > from, index <= to { return index - 1 }
        if to < from, index >= to, index < from { return index + 1 }
        return index
    }
}
