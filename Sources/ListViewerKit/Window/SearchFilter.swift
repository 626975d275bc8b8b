import Foundation
import ListViewManager

/// Keeps every item of a sectioned list and puts into a storage only those matching the
/// search, changing the storage (not rebuilding the view) when the search or the items
/// change: each update is the removals and insertions that turn what is shown into what
/// matches.
@MainActor
public final class SearchFilter {
    /// Where the matching items go.
    public let storage: MemoryStorage
    /// Every item of each section, with its lowercased search text.
    private var all: [[(model: Any, text: String)]] = []
    /// For each section, the indexes (into `all`) of the items the storage holds, ascending.
    private var shown: [[Int]] = []
    /// The search, as typed.
    public private(set) var query = ""
    private var terms: [String] = []

    /// Above this many changes in one section, the section's items are set at once.
    private let fineGrainedLimit = 200

    public init(storage: MemoryStorage) {
        self.storage = storage
    }

    /// The number of items shown.
    public var shownCount: Int { shown.reduce(0) { $0 + $1.count } }

    /// The number of items in all.
    public var totalCount: Int { all.reduce(0) { $0 + $1.count } }

    /// Removes the shown items at `indexPaths` (index paths of the storage) for good: from
    /// the storage and from the items searched. Index paths that show nothing are ignored.
    public func removeShownItems(at indexPaths: [IndexPath]) {
        let valid = indexPaths.filter { shown.indices.contains($0.section) && shown[$0.section].indices.contains($0.item) }
        guard !valid.isEmpty else { return }
        for section in Set(valid.map(\.section)) {
            let doomedShown = Set(valid.filter { $0.section == section }.map(\.item))
            let doomed = Set(doomedShown.map { shown[section][$0] })
            all[section] = all[section].enumerated().filter { !doomed.contains($0.offset) }.map(\.element)
            shown[section] = shown[section].enumerated().filter { !doomedShown.contains($0.offset) }.map { entry in
                entry.element - doomed.count { $0 < entry.element }
            }
        }
        storage.removeItems(at: valid)
    }

    /// Replaces everything: sections with their header and footer models and items.
    public func setSections(_ sections: [(header: Any?, footer: Any?, items: [(model: Any, text: String)])]) {
        all = sections.map { $0.items.map { ($0.model, $0.text.lowercased()) } }
        shown = all.map { matchingIndexes(in: $0) }
        storage.performUpdates {
            storage.setItemsForAllSections(shown.enumerated().map { section, indexes in indexes.map { all[section][$0].model } })
            storage.setSectionHeaderModels(sections.map(\.header))
            storage.setSectionFooterModels(sections.map(\.footer))
        }
    }

    /// Adds `items` at the end of `section`; those matching the search are shown.
    public func append(_ items: [(model: Any, text: String)], toSection section: Int) {
        let start = all[section].count
        all[section] += items.map { ($0.model, $0.text.lowercased()) }
        let matching = (start..<all[section].count).filter { matches(all[section][$0].text) }
        shown[section] += matching
        storage.addItems(matching.map { all[section][$0].model }, toSection: section)
    }

    /// Moves the shown item at `source` to `destination` (its index path once moved), for
    /// good. Only while no search hides items (the storage then holds every item, in order);
    /// returns whether it moved.
    @discardableResult
    public func moveShownItem(from source: IndexPath, to destination: IndexPath) -> Bool {
        guard query.isEmpty, all.indices.contains(source.section), all.indices.contains(destination.section),
              all[source.section].indices.contains(source.item),
              destination.item >= 0, destination.item <= all[destination.section].count - (source.section == destination.section ? 1 : 0)
        else { return false }
        let item = all[source.section].remove(at: source.item)
        all[destination.section].insert(item, at: destination.item)
        for section in Set([source.section, destination.section]) { shown[section] = Array(all[section].indices) }
        storage.moveItem(at: source, to: destination)
        return true
    }

    /// Reorders the items of `section` by a sort key (after a batched load).
    public func sortSection(_ section: Int, by key: (Any) -> String) {
        let keys = all[section].map { key($0.model) }
        all[section] = all[section].indices.sorted { keys[$0] < keys[$1] }.map { all[section][$0] }
        shown[section] = matchingIndexes(in: all[section])
        storage.setItems(shown[section].map { all[section][$0].model }, forSection: section)
    }

    /// Puts every section's items, shown or hidden, in the order `order` gives them (their
    /// indexes, from the models in their current order; nil keeps a section as it is); the
    /// storage's items follow as moves, so the selection stays on its items.
    public func reorder(by order: ([Any]) -> [Int]?) {
        var newPlace: [[Int]] = []
        for section in all.indices {
            guard let permutation = order(all[section].map(\.model)),
                  MemoryStorage.isPermutation(permutation, count: all[section].count) else {
                newPlace.append(Array(all[section].indices))
                continue
            }
            var place = [Int](repeating: 0, count: permutation.count)
            for (new, old) in permutation.enumerated() { place[old] = new }
            newPlace.append(place)
            all[section] = permutation.map { all[section][$0] }
        }
        // The storage holds the shown items in the old order: each goes where its item went.
        storage.reorderItems { section, items in
            guard shown.indices.contains(section), shown[section].count == items.count else { return Array(items.indices) }
            return items.indices.sorted { newPlace[section][shown[section][$0]] < newPlace[section][shown[section][$1]] }
        }
        shown = all.map { matchingIndexes(in: $0) }
    }

    /// Shows the items matching `query` (every whitespace-separated term, ignoring case).
    public func setQuery(_ query: String) {
        self.query = query
        terms = query.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        storage.performUpdates {
            for section in all.indices {
                update(section)
            }
        }
    }

    private func update(_ section: Int) {
        let old = shown[section]
        let new = matchingIndexes(in: all[section])
        guard old != new else { return }
        shown[section] = new
        var removed: [IndexPath] = []
        var inserted: [(model: Any, indexPath: IndexPath)] = []
        var oldPosition = 0
        var newPosition = 0
        while oldPosition < old.count || newPosition < new.count {
            if newPosition == new.count || (oldPosition < old.count && old[oldPosition] < new[newPosition]) {
                removed.append(IndexPath(item: oldPosition, section: section))
                oldPosition += 1
            } else if oldPosition == old.count || new[newPosition] < old[oldPosition] {
                inserted.append((all[section][new[newPosition]].model, IndexPath(item: newPosition, section: section)))
                newPosition += 1
            } else {
                oldPosition += 1
                newPosition += 1
            }
        }
        if removed.count + inserted.count > fineGrainedLimit {
            storage.setItems(new.map { all[section][$0].model }, forSection: section)
            return
        }
        storage.removeItems(at: removed)
        try? storage.insertItems(inserted.map(\.model), to: inserted.map(\.indexPath))
    }

    private func matchingIndexes(in items: [(model: Any, text: String)]) -> [Int] {
        terms.isEmpty ? Array(items.indices) : items.indices.filter { matches(items[$0].text) }
    }

    private func matches(_ text: String) -> Bool {
        terms.allSatisfy { text.contains($0) }
    }
}
