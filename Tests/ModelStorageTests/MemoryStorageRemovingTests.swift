import Foundation
import ModelStorage
import TestSupport
import Testing

@Suite("MemoryStorage: removing")
struct MemoryStorageRemovingTests {
    let fixture = StorageFixture()
    var storage: MemoryStorage { fixture.storage }

    init() {
        fixture.storage.addItems([1, 2, 3, 4], toSection: 0)
        fixture.storage.addItems([5, 6], toSection: 1)
        _ = fixture.delivered
    }

    @Test("indexPathArray(forItems:) finds the items as removeItems does, in their order, missing ones left out")
    func indexPathArray() {
        storage.addItem(2, toSection: 1)
        #expect(storage.indexPathArray(forItems: [6, 9, 2, 1, 2]) == [ip(1, 1), ip(0, 1), ip(0, 0), ip(1, 2)])
        #expect(storage.indexPathArray(forItems: [String]()) == [])
    }

    @Test("sortedArrayOfIndexPaths sorts by section, then item, either way (DTModelStorage's cases)")
    func sortedIndexPaths() {
        #expect(MemoryStorage.sortedArrayOfIndexPaths([ip(0, 0), ip(0, 5), ip(0, 3)], ascending: false) == [ip(0, 5), ip(0, 3), ip(0, 0)])
        let mixed = [ip(0, 0), ip(0, 3), ip(2, 3), ip(2, 2), ip(1, 1)]
        #expect(MemoryStorage.sortedArrayOfIndexPaths(mixed, ascending: false) == [ip(2, 3), ip(2, 2), ip(1, 1), ip(0, 3), ip(0, 0)])
        #expect(MemoryStorage.sortedArrayOfIndexPaths(mixed, ascending: true) == [ip(0, 0), ip(0, 3), ip(1, 1), ip(2, 2), ip(2, 3)])
    }

    @Test("removeItem removes the first equal item")
    func removeItem() throws {
        try storage.removeItem(3)
        #expect(fixture.delivered == [StorageUpdate([.deleteItems(section: 0, items: 2..<3)])])
        #expect(storage.items(inSection: 0) as? [Int] == [1, 2, 4])
    }

    @Test("removeItem of a missing item throws, reports and changes nothing")
    func removeMissingItem() {
        #expect(throws: MemoryStorageError.itemNotFound(itemDescription: "9")) { try storage.removeItem(9) }
        #expect(fixture.anomalies == [.removeItemFailedItemNotFound(itemDescription: "9")])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.totalNumberOfItems == 6)
    }

    @Test("removeItems removes every listed item in one update, first to last, adjacent ones as one change")
    func removeItems() {
        storage.removeItems([2, 3, 6])
        #expect(fixture.delivered == [StorageUpdate([.deleteItems(section: 0, items: 1..<3), .deleteItems(section: 1, items: 1..<2)])])
        #expect(storage.items(inSection: 0) as? [Int] == [1, 4])
        #expect(storage.items(inSection: 1) as? [Int] == [5])
    }

    @Test("removeItems removes one stored item per listed value, so duplicates both go")
    func removeDuplicates() {
        storage.addItems([7, 7, 7], toSection: 1)
        _ = fixture.delivered
        storage.removeItems([7, 7])
        #expect(fixture.delivered == [StorageUpdate([.deleteItems(section: 1, items: 2..<4)])])
        #expect(storage.items(inSection: 1) as? [Int] == [5, 6, 7])
    }

    @Test("removeItems skips missing items, reporting each, and removes the others (as DTModelStorage)")
    func removeItemsWithMissing() {
        storage.removeItems([1, 99, 6, 98])
        #expect(fixture.anomalies == [
            .removeItemFailedItemNotFound(itemDescription: "99"),
            .removeItemFailedItemNotFound(itemDescription: "98"),
        ])
        #expect(fixture.delivered == [StorageUpdate([.deleteItems(section: 0, items: 0..<1), .deleteItems(section: 1, items: 1..<2)])])
        #expect(storage.items(inSection: 0) as? [Int] == [2, 3, 4])
        #expect(storage.items(inSection: 1) as? [Int] == [5])
    }

    @Test("removeItems with only missing items reports each and delivers nothing")
    func removeItemsAllMissing() {
        storage.removeItems([99, 99])
        #expect(fixture.anomalies == [
            .removeItemFailedItemNotFound(itemDescription: "99"),
            .removeItemFailedItemNotFound(itemDescription: "99"),
        ])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.totalNumberOfItems == 6)
    }

    @Test("removeItems of more equal values than stored removes the stored ones and reports the rest")
    func removeItemsMoreDuplicatesThanStored() {
        storage.removeItems([2, 2])
        #expect(fixture.anomalies == [.removeItemFailedItemNotFound(itemDescription: "2")])
        #expect(fixture.delivered == [StorageUpdate([.deleteItems(section: 0, items: 1..<2)])])
        #expect(storage.items(inSection: 0) as? [Int] == [1, 3, 4])
    }

    @Test("removeItems(at:) counts every index path in the storage as it is")
    func removeItemsAtIndexPaths() {
        storage.removeItems(at: [ip(0, 0), ip(0, 3), ip(1, 1), ip(0, 0)])
        // Each index counts the deletions recorded before it: [0, 3] become 0, then 2.
        #expect(fixture.delivered == [StorageUpdate([.deleteItems(section: 0, items: 0..<1), .deleteItems(section: 0, items: 2..<3), .deleteItems(section: 1, items: 1..<2)])])
        #expect(storage.items(inSection: 0) as? [Int] == [2, 3])
        #expect(storage.items(inSection: 1) as? [Int] == [5])
    }

    @Test("removeItems(at:) with an index path out of range removes nothing and reports")
    func removeItemsAtInvalidIndexPaths() {
        storage.removeItems(at: [ip(0, 0), ip(1, 2)])
        storage.removeItems(at: [ip(7, 0)])
        #expect(fixture.anomalies == [
            .removeItemFailedIndexPathNotFound(indexPath: ip(1, 2), countOfElementsInSection: 2),
            .removeItemFailedIndexPathNotFound(indexPath: ip(7, 0), countOfElementsInSection: 0),
        ])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.totalNumberOfItems == 6)
    }

    @Test("removeItems(fromSection:) empties the section and keeps it")
    func removeItemsFromSection() {
        storage.removeItems(fromSection: 0)
        #expect(fixture.delivered == [StorageUpdate([.deleteItems(section: 0, items: 0..<4)])])
        #expect(storage.numberOfSections() == 2)
        #expect(storage.items(inSection: 0)?.isEmpty == true)
        storage.removeItems(fromSection: 5)
        #expect(fixture.anomalies == [.sectionIndexOutOfRange(section: 5, numberOfSections: 2)])
        #expect(fixture.delivered.isEmpty)
    }

    @Test("removeAllItems empties every section and keeps sections and headers")
    func removeAllItems() {
        storage.setSectionHeaderModels(["A", "B"])
        _ = fixture.delivered
        storage.removeAllItems()
        #expect(fixture.delivered == [StorageUpdate([.deleteItems(section: 0, items: 0..<4), .deleteItems(section: 1, items: 0..<2)])])
        #expect(storage.numberOfSections() == 2)
        #expect(storage.totalNumberOfItems == 0)
        #expect(storage.headerModel(forSection: 1) as? String == "B")
        storage.removeAllItems()
        #expect(fixture.delivered.isEmpty)
    }
}

@Suite("MemoryStorage: moving")
struct MemoryStorageMovingTests {
    let fixture = StorageFixture()
    var storage: MemoryStorage { fixture.storage }

    init() {
        fixture.storage.addItems(["a", "b", "c"], toSection: 0)
        fixture.storage.addItems(["d"], toSection: 1)
        _ = fixture.delivered
    }

    @Test("moveItem inside a section")
    func moveInsideSection() {
        storage.moveItem(at: ip(0, 0), to: ip(0, 2))
        #expect(fixture.delivered == [StorageUpdate([.moveItem(from: ip(0, 0), to: ip(0, 2))])])
        #expect(storage.items(inSection: 0) as? [String] == ["b", "c", "a"])
    }

    @Test("moveItem across sections, to the end of the destination")
    func moveAcrossSections() {
        storage.moveItem(at: ip(0, 1), to: ip(1, 1))
        #expect(fixture.delivered == [StorageUpdate([.moveItem(from: ip(0, 1), to: ip(1, 1))])])
        #expect(storage.items(inSection: 0) as? [String] == ["a", "c"])
        #expect(storage.items(inSection: 1) as? [String] == ["d", "b"])
    }

    @Test("moveItem to its own place changes nothing and delivers nothing")
    func moveInPlace() {
        storage.moveItem(at: ip(0, 1), to: ip(0, 1))
        #expect(fixture.delivered.isEmpty)
        #expect(fixture.anomalies.isEmpty)
    }

    @Test("moveItem with invalid index paths reports the reason and changes nothing")
    func invalidMoves() {
        storage.moveItem(at: ip(0, 3), to: ip(0, 0))
        storage.moveItem(at: ip(0, 0), to: ip(4, 0))
        storage.moveItem(at: ip(0, 0), to: ip(0, 3))
        storage.moveItem(at: ip(0, 0), to: ip(1, 2))
        #expect(fixture.anomalies == [
            .moveItemFailedItemNotFound(indexPath: ip(0, 3)),
            .moveItemFailedInvalidIndexPaths(sourceIndexPath: ip(0, 0), destinationIndexPath: ip(4, 0), sourceElementsInSection: 3, destinationElementsInSection: 0),
            .moveItemFailedIndexPathTooBig(indexPath: ip(0, 3), countOfElementsInSection: 2),
            .moveItemFailedIndexPathTooBig(indexPath: ip(1, 2), countOfElementsInSection: 1),
        ])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.items(inSection: 0) as? [String] == ["a", "b", "c"])
    }

    @Test("moveItemWithoutAnimation checks its index paths as DTModelStorage does: each bad one is an invalid pair, with both counts")
    func invalidMovesWithoutAnimation() {
        storage.moveItemWithoutAnimation(from: ip(0, 0), to: ip(1, 3))
        storage.moveItemWithoutAnimation(from: ip(0, 9), to: ip(0, 0))
        storage.moveItemWithoutAnimation(from: ip(0, 0), to: ip(2, 0))
        storage.moveItemWithoutAnimation(from: ip(0, 0), to: ip(0, 3))
        #expect(fixture.anomalies == [
            .moveItemFailedInvalidIndexPaths(sourceIndexPath: ip(0, 0), destinationIndexPath: ip(1, 3), sourceElementsInSection: 3, destinationElementsInSection: 1),
            .moveItemFailedInvalidIndexPaths(sourceIndexPath: ip(0, 9), destinationIndexPath: ip(0, 0), sourceElementsInSection: 3, destinationElementsInSection: 2),
            .moveItemFailedInvalidIndexPaths(sourceIndexPath: ip(0, 0), destinationIndexPath: ip(2, 0), sourceElementsInSection: 3, destinationElementsInSection: 0),
            .moveItemFailedInvalidIndexPaths(sourceIndexPath: ip(0, 0), destinationIndexPath: ip(0, 3), sourceElementsInSection: 3, destinationElementsInSection: 2),
        ])
        #expect(fixture.anomalies.first?.debugDescription == "⚠️ [MemoryStorage] Failed to move item, sourceIndexPath: [0, 0], destination indexPath: [1, 3], "
            + "number of items in source section: 3, number of items in destination section after removing source item: 1")
        #expect(fixture.delivered.isEmpty)
        #expect(storage.items(inSection: 0) as? [String] == ["a", "b", "c"])
        // To the end of its own section (counted without it) is a move.
        storage.moveItemWithoutAnimation(from: ip(0, 0), to: ip(0, 2))
        #expect(storage.items(inSection: 0) as? [String] == ["b", "c", "a"])
    }

    @Test("moveItemWithoutAnimation still tells the view, which GTK needs to stay in step")
    func moveWithoutAnimation() {
        storage.moveItemWithoutAnimation(from: ip(1, 0), to: ip(0, 0))
        #expect(fixture.delivered == [StorageUpdate([.moveItem(from: ip(1, 0), to: ip(0, 0))])])
        #expect(storage.items(inSection: 0) as? [String] == ["d", "a", "b", "c"])
    }
}
