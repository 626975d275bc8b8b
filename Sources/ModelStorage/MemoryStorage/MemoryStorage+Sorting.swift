extension MemoryStorage {
    /// Sorts the items of each section (sections keep their order and their header and
    /// footer models), stably: items `areInIncreasingOrder` finds equal keep their order.
    ///
    /// The update records only the items that change place, each as a `moveItem` (the
    /// fewest: every item outside a longest run already in order), so a view keeps the
    /// moved items' selection and their rows. Sorting an already sorted storage delivers
    /// nothing. Takes O(n log n) comparisons.
    public func sortItems(by areInIncreasingOrder: (Any, Any) throws -> Bool) rethrows {
        checkThread()
        // The standard library's sort is stable.
        try reorderItems { _, items in try items.indices.sorted { try areInIncreasingOrder(items[$0], items[$1]) } }
    }

    /// Puts each section's items in the order `order` gives for them: given a section's
    /// index and items, it returns their indexes in the new order (a permutation of the
    /// indexes; anything else leaves the section as it is). Recorded as `sortItems(by:)` is.
    public func reorderItems(by order: (_ section: Int, _ items: [Any]) throws -> [Int]) rethrows {
        checkThread()
        var newSections = sections
        var oldItems: [ItemPosition] = []
        var newItems: [ItemPosition] = []
        var starts = [0]
        for (index, section) in sections.enumerated() {
            let items = section.items
            let start = oldItems.count
            oldItems.append(contentsOf: (0..<items.count).map { ItemPosition(id: start + $0) })
            var permutation = try order(index, items)
            if !Self.isPermutation(permutation, count: items.count) { permutation = Array(items.indices) }
            newItems.append(contentsOf: permutation.map { ItemPosition(id: start + $0) })
            starts.append(oldItems.count)
            if permutation != Array(items.indices) {
                var sorted = SectionModel(items: permutation.map { items[$0] }, headerModel: section.headerModel, footerModel: section.footerModel)
                sorted.identifier = section.identifier
                newSections[index] = sorted
            }
        }
        guard newItems != oldItems else { return }
        let sectionIDs = Array(sections.indices)
        let diff = SectionedDiff(oldSectionIDs: sectionIDs.map { Optional($0) }, oldItems: oldItems, oldStarts: starts,
                                 newSectionIDs: sectionIDs, newItems: newItems, newStarts: starts)
        replaceContents(with: newSections, diff: diff,
                        supplementaries: sections.map { _ in SupplementaryChanges(header: nil, footer: nil) },
                        others: sections.map { _ in [] })
    }

    /// Whether `indexes` holds each of `0..<count` exactly once (a valid new order for
    /// `count` items).
    public static func isPermutation(_ indexes: [Int], count: Int) -> Bool {
        guard indexes.count == count else { return false }
        var seen = [Bool](repeating: false, count: count)
        for index in indexes {
            guard index >= 0, index < count, !seen[index] else { return false }
            seen[index] = true
        }
        return true
    }
}

/// An item's place before a reordering: its identity in the diff that records the moves.
private struct ItemPosition: Identifiable, Equatable {
    let id: Int
}
