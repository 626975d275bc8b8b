import Foundation

extension KeyList {
    /// The changes that turn `old` into this list, as one ordered update: sections that
    /// came, went or moved (with their headers), rows inserted, deleted or moved (a row
    /// whose section changed is a move).
    ///
    /// Each section kept is compared first at its ends: the rows its old and new lists
    /// share at the start and at the end are unchanged, and only what lies between is
    /// diffed (by `ListSnapshot`, through a scratch `MemoryStorage`), so a change costs a
    /// pass over the rowids plus the rows it touches, not a diff of millions. Nil when more
    /// than `limit` rows lie between (a new order of every row, say): then a reload is
    /// cheaper for the list too. `noSection` is the value of the one section of an
    /// unsectioned query (which has no header).
    package func update(from old: KeyList, limit: Int, noSection: SectionValue) -> StorageUpdate? {
        let oldIndex = Dictionary(old.sectionValues.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // For each section kept: how many rows it keeps at its start, and at its end.
        var kept: [SectionValue: (prefix: Int, suffix: Int)] = [:]
        for (section, value) in sectionValues.enumerated() {
            guard let oldSection = oldIndex[value] else { continue }
            let new = keys[starts[section]..<starts[section + 1]]
            let previous = old.keys[old.starts[oldSection]..<old.starts[oldSection + 1]]
            kept[value] = Self.sharedEnds(new, previous)
        }
        var between = 0
        for (section, value) in sectionValues.enumerated() {
            let ends = kept[value] ?? (0, 0)
            between += starts[section + 1] - starts[section] - ends.prefix - ends.suffix
        }
        for (section, value) in old.sectionValues.enumerated() {
            let ends = kept[value] ?? (0, 0)
            between += old.starts[section + 1] - old.starts[section] - ends.prefix - ends.suffix
        }
        guard between <= 2 * limit else { return nil }
        // Both lists with those ends cut off, diffed.
        func window(of list: KeyList) -> ListSnapshot<SectionValue, RowKey> {
            ListSnapshot(sections: list.sectionValues.enumerated().map { section, value in
                let ends = kept[value] ?? (0, 0)
                let rows = list.keys[(list.starts[section] + ends.prefix)..<(list.starts[section + 1] - ends.suffix)]
                return .init(id: value, items: rows.map(RowKey.init), header: value == noSection ? nil : value)
            })
        }
        let changes = changesBetween(window(of: old), window(of: self))
        // The changes' rows moved past the rows cut off the start of their section: the
        // sections' identities are followed through the changes, which give indexes of the
        // sections as they are at each step.
        var sections: [SectionValue?] = old.sectionValues
        func prefix(_ section: Int) -> Int { sections[section].flatMap { kept[$0]?.prefix } ?? 0 }
        var update = StorageUpdate()
        for change in changes {
            switch change {
            case .insertSection(let index):
                sections.insert(nil, at: index)  // a section new to the list: nothing cut off
                update.append(change)
            case .deleteSection(let index):
                sections.remove(at: index)
                update.append(change)
            case .moveSection(let from, let to):
                sections.insert(sections.remove(at: from), at: to)
                update.append(change)
            case .insertItems(let section, let items):
                update.append(.insertItems(section: section, items: items.shifted(by: prefix(section))))
            case .deleteItems(let section, let items):
                update.append(.deleteItems(section: section, items: items.shifted(by: prefix(section))))
            case .moveItem(let from, let to):
                let source = IndexPath(item: from[1] + prefix(from[0]), section: from[0])
                update.append(.moveItem(from: source, to: IndexPath(item: to[1] + prefix(to[0]), section: to[0])))
            case .updateItem, .supplementary:
                update.append(change)
            }
        }
        return update
    }
}

extension KeyList {
    /// How many rowids `a` and `b` share at their start, and then at their end.
    static func sharedEnds(_ a: ArraySlice<Int64>, _ b: ArraySlice<Int64>) -> (prefix: Int, suffix: Int) {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let shorter = min(a.count, b.count)
                var prefix = 0
                while prefix < shorter && a[prefix] == b[prefix] { prefix += 1 }
                var suffix = 0
                while suffix < shorter - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
                return (prefix, suffix)
            }
        }
    }
}

/// A change of the rows of a window of keys (`windowChanges`): rows at positions in a
/// window, as it is when the change comes.
package enum WindowChange: Equatable, Sendable {
    case insert(window: Int, items: Range<Int>)
    case delete(window: Int, items: Range<Int>)
    /// The row at `from` in window `fromWindow` is now at `to` in window `toWindow`.
    case move(fromWindow: Int, from: Int, toWindow: Int, to: Int)
}

/// The changes that turn the keys of windows `old` into `new` (the same windows, in the same
/// order: runs of rows a batch of changes touched, before and after): rows inserted, deleted,
/// and moved within and between windows, in order; a key at the same place is no change.
package func windowChanges(from old: [[Int64]], to new: [[Int64]]) -> [WindowChange] {
    precondition(old.count == new.count, "the same windows before and after")
    func windows(_ keys: [[Int64]]) -> ListSnapshot<Int, RowKey> {
        ListSnapshot(sections: keys.enumerated().map { .init(id: $0, items: $1.map(RowKey.init), header: nil) })
    }
    return changesBetween(windows(old), windows(new)).compactMap { change in
        switch change {
        case .insertItems(let window, let items): .insert(window: window, items: items)
        case .deleteItems(let window, let items): .delete(window: window, items: items)
        case .moveItem(let from, let to): .move(fromWindow: from[0], from: from[1], toWindow: to[0], to: to[1])
        case .insertSection, .deleteSection, .moveSection, .updateItem, .supplementary: nil
        }
    }
}

/// The changes a `MemoryStorage` makes going from `old` to `new`.
private func changesBetween<Section: Hashable>(_ old: ListSnapshot<Section, RowKey>, _ new: ListSnapshot<Section, RowKey>) -> [StorageChange] {
    let scratch = MemoryStorage()
    scratch.apply(old)
    let recorder = UpdateCatcher()
    scratch.delegate = recorder
    scratch.apply(new)
    return recorder.update.changes
}

/// A row in a diff: its rowid, as identity and content.
struct RowKey: Identifiable, Equatable {
    let id: Int64
}

/// Keeps what a scratch storage reports.
private final class UpdateCatcher: StorageUpdating {
    var update = StorageUpdate()
    func storageDidPerformUpdate(_ update: StorageUpdate) { self.update.append(contentsOf: update) }
    func storageNeedsReloading() {}
}

extension Range<Int> {
    fileprivate func shifted(by offset: Int) -> Range<Int> { (lowerBound + offset)..<(upperBound + offset) }
}
