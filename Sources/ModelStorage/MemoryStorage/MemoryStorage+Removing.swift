import Foundation

extension MemoryStorage {
    /// Removes the first item equal to `item`.
    /// - Throws: `MemoryStorageError.itemNotFound` when there is none; nothing changes then.
    public func removeItem<T: Equatable>(_ item: T) throws {
        checkThread()
        guard let indexPath = indexPath(forItem: item) else {
            anomalyHandler.report(.removeItemFailedItemNotFound(itemDescription: describeItem(item)))
            throw MemoryStorageError.itemNotFound(itemDescription: describeItem(item))
        }
        removeValidatedItems(at: [indexPath])
    }

    /// Removes one stored item equal to each of `items` (a value listed twice removes two
    /// equal items), in one update.
    ///
    /// As in DTModelStorage, a missing item is skipped and the items found are removed;
    /// each missing one is also reported as `.removeItemFailedItemNotFound` (DTModelStorage
    /// skips it silently). This differs from the single `removeItem(_:)`, which throws
    /// and removes nothing.
    public func removeItems<T: Equatable>(_ items: [T]) {
        checkThread()
        var found = Set<IndexPath>()
        for item in items {
            guard let indexPath = firstIndexPath(of: item, skipping: found) else {
                anomalyHandler.report(.removeItemFailedItemNotFound(itemDescription: describeItem(item)))
                continue
            }
            found.insert(indexPath)
        }
        removeValidatedItems(at: found)
    }

    /// Removes the items at `indexPaths` (all counted in the storage as it is now; an index
    /// path listed twice removes one item).
    ///
    /// When any index path holds no item, nothing is removed and
    /// `.removeItemFailedIndexPathNotFound` is reported.
    public func removeItems(at indexPaths: [IndexPath]) {
        checkThread()
        for indexPath in indexPaths where item(at: indexPath) == nil {
            let count = indexPath.isSectionAndItem ? numberOfItems(inSection: indexPath.section) : 0
            anomalyHandler.report(.removeItemFailedIndexPathNotFound(indexPath: indexPath, countOfElementsInSection: count))
            return
        }
        removeValidatedItems(at: indexPaths.count == 1 ? [indexPaths[0]] : Set(indexPaths))
    }

    /// Removes every item of `section`; the section and its header and footer stay.
    /// A missing section is reported as `.sectionIndexOutOfRange`.
    public func removeItems(fromSection section: Int) {
        checkThread()
        guard sections.indices.contains(section) else {
            anomalyHandler.report(.sectionIndexOutOfRange(section: section, numberOfSections: sections.count))
            return
        }
        record { update in removeAllItems(ofSection: section, &update) }
    }

    /// Removes every item of every section; sections and their headers and footers stay.
    public func removeAllItems() {
        checkThread()
        record { update in
            for section in sections.indices {
                removeAllItems(ofSection: section, &update)
            }
        }
    }

    /// Removes the items at `indexPaths`, which all exist; each chunk of a section slides its
    /// kept models down once, and runs of adjacent items are recorded as one change.
    ///
    /// Deletions are recorded first to last, each index counting the ones before it, so that
    /// a view translating the update appends each change after the previous ones.
    func removeValidatedItems(at indexPaths: Set<IndexPath>) {
        guard !indexPaths.isEmpty else { return }
        if indexPaths.count == 1, let only = indexPaths.first {
            // The common case, without grouping and sorting.
            record { update in
                sections[only.section].models.remove(at: only.item)
                update.append(.deleteItems(section: only.section, items: only.item..<(only.item + 1)))
            }
            return
        }
        let bySection = Dictionary(grouping: indexPaths, by: \.section)
        record { update in
            for section in bySection.keys.sorted() {
                let doomed = bySection[section, default: []].map(\.item).sorted()
                for (removedBefore, index) in doomed.enumerated() {
                    let position = index - removedBefore
                    update.append(.deleteItems(section: section, items: position..<(position + 1)))
                }
                sections[section].models.remove(atSorted: doomed)
            }
        }
    }

    /// Empties `section`, recording one change.
    func removeAllItems(ofSection section: Int, _ update: inout StorageUpdate) {
        let count = sections[section].models.count
        guard count > 0 else { return }
        sections[section].models.removeAll()
        update.append(.deleteItems(section: section, items: 0..<count))
    }
}
