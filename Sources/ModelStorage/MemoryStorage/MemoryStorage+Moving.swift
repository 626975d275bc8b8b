import Foundation

extension MemoryStorage {
    /// Moves the item at `source` so that it ends up at `destination`, within a section or
    /// across sections.
    ///
    /// Invalid index paths change nothing and are reported (`.moveItemFailedItemNotFound`,
    /// `.moveItemFailedInvalidIndexPaths`, `.moveItemFailedIndexPathTooBig`).
    /// - Parameters:
    ///   - source: where the item is now.
    ///   - destination: where it will be; its item index counts the destination section
    ///     without the moved item, so it may equal that count.
    public func moveItem(at source: IndexPath, to destination: IndexPath) {
        checkThread()
        guard let model = item(at: source) else {
            anomalyHandler.report(.moveItemFailedItemNotFound(indexPath: source))
            return
        }
        guard destination.isSectionAndItem, sections.indices.contains(destination.section), destination.item >= 0 else {
            anomalyHandler.report(.moveItemFailedInvalidIndexPaths(
                sourceIndexPath: source, destinationIndexPath: destination,
                sourceElementsInSection: numberOfItems(inSection: source.section),
                destinationElementsInSection: destination.isSectionAndItem ? numberOfItems(inSection: destination.section) : 0))
            return
        }
        let destinationCount = numberOfItems(inSection: destination.section) - (source.section == destination.section ? 1 : 0)
        guard destination.item <= destinationCount else {
            anomalyHandler.report(.moveItemFailedIndexPathTooBig(indexPath: destination, countOfElementsInSection: destinationCount))
            return
        }
        guard source != destination else { return }
        record { update in
            sections[source.section].models.remove(at: source.item)
            sections[destination.section].models.insert(model, at: destination.item)
            update.append(.moveItem(from: source, to: destination))
        }
    }

    /// Moves the item at `source` to `destination`, as DTModelStorage does after a drag
    /// has reordered rows.
    ///
    /// GTK list views neither animate nor move rows themselves, so the view must still be
    /// told: the move is delivered as `moveItem(at:to:)`'s is. Index paths are checked as
    /// DTModelStorage checks them: a source with no item, or a destination past the end of
    /// its section (counted without the moved item), changes nothing and is reported as
    /// `.moveItemFailedInvalidIndexPaths`, with both sections' counts; so is a missing
    /// section (which DTModelStorage passes over silently).
    public func moveItemWithoutAnimation(from source: IndexPath, to destination: IndexPath) {
        checkThread()
        let sourceCount = source.isSectionAndItem ? numberOfItems(inSection: source.section) : 0
        let destinationCount = destination.isSectionAndItem
            ? numberOfItems(inSection: destination.section) - (source.isSectionAndItem && source.section == destination.section ? 1 : 0) : 0
        guard item(at: source) != nil, destination.isSectionAndItem, sections.indices.contains(destination.section),
              destination.item >= 0, destination.item <= destinationCount else {
            anomalyHandler.report(.moveItemFailedInvalidIndexPaths(sourceIndexPath: source, destinationIndexPath: destination,
                                                                    sourceElementsInSection: sourceCount,
                                                                    destinationElementsInSection: max(0, destinationCount)))
            return
        }
        moveItem(at: source, to: destination)
    }
}
