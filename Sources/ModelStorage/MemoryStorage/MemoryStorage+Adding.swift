import Foundation

extension MemoryStorage {
    /// Appends `item` to `section`, creating the sections up to it when needed.
    ///
    /// A nil optional is not stored: it is reported as `.nilItem`.
    /// - Parameters:
    ///   - item: the model; optionals are stored unwrapped.
    ///   - section: the section's index.
    public func addItem<T>(_ item: T, toSection section: Int = 0) {
        checkThread()
        addItems([item], toSection: section)
    }

    /// Appends `items` to `section`, creating the sections up to it when needed.
    ///
    /// When any of `items` is nil, nothing is added and `.nilItem` is reported.
    /// - Parameters:
    ///   - items: the models; optionals are stored unwrapped.
    ///   - section: the section's index.
    public func addItems<T>(_ items: [T], toSection section: Int = 0) {
        checkThread()
        guard checkSectionCanBeReached(section) else { return }
        guard let models = storedModelsReportingNil(items, operation: "addItems(_:toSection:)") else { return }
        record { update in
            ensureSection(section, &update)
            insertValidated(models, inSection: section, at: sections[section].models.count, &update)
        }
    }

    /// Inserts `item` at `indexPath`, creating the sections up to it when needed.
    /// - Parameters:
    ///   - item: the model; optionals are stored unwrapped.
    ///   - indexPath: where the item will be; its item index may equal the section's count.
    /// - Throws: `MemoryStorageError.insertionIndexPathTooBig` when the index is past the
    ///   end of the section, `.nilItem` for a nil optional. Nothing changes then.
    public func insertItem<T>(_ item: T, to indexPath: IndexPath) throws {
        checkThread()
        try insertItems([item], to: [indexPath])
    }

    /// Inserts `items` one after another, the first at `indexPath`, creating the sections up
    /// to it when needed; delivered as one `.insertItems` change.
    /// - Parameters:
    ///   - items: the models; optionals are stored unwrapped.
    ///   - indexPath: where the first item will be; its item index may equal the section's
    ///     count.
    /// - Throws: `MemoryStorageError.insertionIndexPathTooBig` when the index path is past
    ///   the end of its section, negative, malformed, or its section too far out to be
    ///   created (see `maximumNewSections`); `.nilItem` when any item is nil. Nothing
    ///   changes then.
    public func insertItems<T>(_ items: [T], at indexPath: IndexPath) throws {
        checkThread()
        guard let models = storedModelsReportingNil(items, operation: "insertItems(_:at:)") else {
            throw MemoryStorageError.nilItem
        }
        try validateInsertions(at: [indexPath])
        record { update in
            ensureSection(indexPath.section, &update)
            insertValidated(models, inSection: indexPath.section, at: indexPath.item, &update)
        }
    }

    /// Inserts `items[i]` at `indexPaths[i]`, in order (each index path counts the items
    /// inserted before it), creating sections when needed.
    /// - Throws: `.batchInsertionItemCountMismatch` when the counts differ,
    ///   `.insertionIndexPathTooBig` when an index path is past the end of its section,
    ///   `.nilItem` for a nil optional. Nothing changes then.
    public func insertItems<T>(_ items: [T], to indexPaths: [IndexPath]) throws {
        checkThread()
        guard items.count == indexPaths.count else {
            anomalyHandler.report(.batchInsertionItemCountMismatch(itemsCount: items.count, indexPathsCount: indexPaths.count))
            throw MemoryStorageError.batchInsertionItemCountMismatch(itemsCount: items.count, indexPathsCount: indexPaths.count)
        }
        guard let models = storedModelsReportingNil(items, operation: "insertItems(_:to:)") else {
            throw MemoryStorageError.nilItem
        }
        try validateInsertions(at: indexPaths)
        record { update in
            for (index, indexPath) in indexPaths.enumerated() {
                ensureSection(indexPath.section, &update)
                sections[indexPath.section].models.insert(index, of: models, at: indexPath.item)
                update.append(.insertItems(section: indexPath.section, items: indexPath.item..<(indexPath.item + 1)))
            }
        }
    }

    /// Puts `models` into the existing `section` from `position` (≤ its count) on, recording
    /// one change.
    private func insertValidated<T>(_ models: StoredModels<T>, inSection section: Int, at position: Int, _ update: inout StorageUpdate) {
        guard !models.isEmpty else { return }
        sections[section].models.insert(contentsOf: models, at: position)
        update.append(.insertItems(section: section, items: position..<(position + models.count)))
    }

    /// Throws unless inserting at each of `indexPaths` in turn is possible.
    private func validateInsertions(at indexPaths: [IndexPath]) throws {
        var counts: [Int: Int] = [:]
        for indexPath in indexPaths {
            let count = indexPath.isSectionAndItem ? counts[indexPath.section] ?? numberOfItems(inSection: indexPath.section) : 0
            guard indexPath.isSectionAndItem, canReach(section: indexPath.section), indexPath.item >= 0, indexPath.item <= count else {
                anomalyHandler.report(.insertionIndexPathTooBig(indexPath: indexPath, countOfElementsInSection: count))
                throw MemoryStorageError.insertionIndexPathTooBig(indexPath, countOfElementsInSection: count)
            }
            counts[indexPath.section] = count + 1
        }
    }

    /// Replaces the first item equal to `itemToReplace` with `replacingItem`, in place.
    ///
    /// Delivered as an `.updateItem`, with `replacingItem` in the update's `updatedObjects`:
    /// a view updates the row it shows there.
    /// - Throws: `.itemNotFound` when no item equals `itemToReplace`, `.nilItem` when
    ///   `replacingItem` is nil. Nothing changes then.
    public func replaceItem<T: Equatable>(_ itemToReplace: T, with replacingItem: Any) throws {
        checkThread()
        guard let model = unwrap(replacingItem) else {
            anomalyHandler.report(.nilItem(operation: "replaceItem(_:with:)"))
            throw MemoryStorageError.nilItem
        }
        guard let indexPath = indexPath(forItem: itemToReplace) else {
            anomalyHandler.report(.replaceItemFailedItemNotFound(itemDescription: describeItem(itemToReplace)))
            throw MemoryStorageError.itemNotFound(itemDescription: describeItem(itemToReplace))
        }
        record { update in
            sections[indexPath.section].models[indexPath.item] = model
            update.appendItemUpdate(at: indexPath, model: model)
        }
    }

    /// Tells the view that the first item equal to `item` changed its content.
    ///
    /// The stored model is replaced by `item` (they are equal, but a value type may carry
    /// new content), and an `.updateItem` is delivered, with `item` in the update's
    /// `updatedObjects`. A missing item is reported as
    /// `.reloadItemFailedItemNotFound`.
    public func reloadItem<T: Equatable>(_ item: T) {
        checkThread()
        guard let indexPath = indexPath(forItem: item), let model = unwrap(item) else {
            anomalyHandler.report(.reloadItemFailedItemNotFound(itemDescription: describeItem(item)))
            return
        }
        record { update in
            sections[indexPath.section].models[indexPath.item] = model
            update.appendItemUpdate(at: indexPath, model: model)
        }
    }
}
