import Foundation
import ModelStorage
import TestSupport
import Testing

@Suite("MemoryStorage: adding, inserting, replacing and reloading")
struct MemoryStorageAddingTests {
    let fixture = StorageFixture()
    var storage: MemoryStorage { fixture.storage }

    @Test("addItem creates the section and delivers one insert")
    func addItem() {
        storage.addItem(1)
        #expect(fixture.delivered == [StorageUpdate([.insertSection(0), .insertItems(section: 0, items: 0..<1)])])
        #expect(storage.items(inSection: 0) as? [Int] == [1])
    }

    @Test("addItem to a later section creates every section before it")
    func addItemCreatesSections() {
        storage.addItem("a", toSection: 2)
        #expect(fixture.delivered == [StorageUpdate([.insertSection(0), .insertSection(1), .insertSection(2), .insertItems(section: 2, items: 0..<1)])])
        #expect(storage.numberOfSections() == 3)
        #expect(storage.item(at: ip(2, 0)) as? String == "a")
    }

    @Test("addItems appends a run, delivered as one change")
    func addItems() {
        storage.addItems([1, 2])
        storage.addItems([3, 4, 5])
        #expect(fixture.delivered == [
            StorageUpdate([.insertSection(0), .insertItems(section: 0, items: 0..<2)]),
            StorageUpdate([.insertItems(section: 0, items: 2..<5)]),
        ])
        #expect(storage.items(inSection: 0) as? [Int] == [1, 2, 3, 4, 5])
        #expect(storage.totalNumberOfItems == 5)
    }

    @Test("addItems with no items delivers only the sections it created")
    func addNoItems() {
        storage.addItems([Int](), toSection: 1)
        #expect(fixture.delivered == [StorageUpdate([.insertSection(0), .insertSection(1)])])
        storage.addItems([Int](), toSection: 1)
        #expect(fixture.delivered.isEmpty)
    }

    @Test("insertItem puts the item at its index path")
    func insertItem() throws {
        storage.addItems([1, 3])
        _ = fixture.delivered
        try storage.insertItem(2, to: ip(0, 1))
        #expect(fixture.delivered == [StorageUpdate([.insertItems(section: 0, items: 1..<2)])])
        #expect(storage.items(inSection: 0) as? [Int] == [1, 2, 3])
    }

    @Test("insertItem at the end of a new section creates it")
    func insertItemIntoNewSection() throws {
        try storage.insertItem(1, to: ip(1, 0))
        #expect(fixture.delivered == [StorageUpdate([.insertSection(0), .insertSection(1), .insertItems(section: 1, items: 0..<1)])])
    }

    @Test("insertItem past the end throws, reports, and changes nothing")
    func insertItemTooFar() {
        storage.addItems([1])
        _ = fixture.delivered
        #expect(throws: MemoryStorageError.insertionIndexPathTooBig(ip(0, 2), countOfElementsInSection: 1)) {
            try storage.insertItem(9, to: ip(0, 2))
        }
        #expect(throws: MemoryStorageError.insertionIndexPathTooBig(ip(3, 1), countOfElementsInSection: 0)) {
            try storage.insertItem(9, to: ip(3, 1))
        }
        #expect(fixture.anomalies == [
            .insertionIndexPathTooBig(indexPath: ip(0, 2), countOfElementsInSection: 1),
            .insertionIndexPathTooBig(indexPath: ip(3, 1), countOfElementsInSection: 0),
        ])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.numberOfSections() == 1)
        #expect(storage.items(inSection: 0) as? [Int] == [1])
    }

    @Test("insertItems inserts in order, each index path counting the ones before")
    func insertItems() throws {
        storage.addItems([10, 20])
        _ = fixture.delivered
        try storage.insertItems([1, 2, 3], to: [ip(0, 0), ip(0, 1), ip(1, 0)])
        #expect(fixture.delivered == [StorageUpdate([.insertItems(section: 0, items: 0..<2), .insertSection(1), .insertItems(section: 1, items: 0..<1)])])
        #expect(storage.items(inSection: 0) as? [Int] == [1, 2, 10, 20])
        #expect(storage.items(inSection: 1) as? [Int] == [3])
    }

    @Test("insertItems with a bad index path or a count mismatch throws and changes nothing")
    func insertItemsInvalid() {
        storage.addItems([10])
        _ = fixture.delivered
        #expect(throws: MemoryStorageError.insertionIndexPathTooBig(ip(0, 3), countOfElementsInSection: 2)) {
            try storage.insertItems([1, 2], to: [ip(0, 0), ip(0, 3)])
        }
        #expect(throws: MemoryStorageError.batchInsertionItemCountMismatch(itemsCount: 2, indexPathsCount: 1)) {
            try storage.insertItems([1, 2], to: [ip(0, 0)])
        }
        #expect(fixture.anomalies.map(\.kind) == [.insertionIndexPathTooBig, .batchInsertionItemCountMismatch])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.items(inSection: 0) as? [Int] == [10])
    }

    @Test("insertItems(_:at:) inserts the items one after another in one change")
    func insertItemsContiguously() throws {
        storage.addItems([10, 20])
        _ = fixture.delivered
        try storage.insertItems([1, 2, 3], at: ip(0, 1))
        #expect(fixture.delivered == [StorageUpdate([.insertItems(section: 0, items: 1..<4)])])
        #expect(storage.items(inSection: 0) as? [Int] == [10, 1, 2, 3, 20])
        try storage.insertItems([4, 5], at: ip(0, 5))
        #expect(storage.items(inSection: 0) as? [Int] == [10, 1, 2, 3, 20, 4, 5])
        #expect(fixture.anomalies.isEmpty)
    }

    @Test("insertItems(_:at:) creates the sections up to a new one, as insertItem does")
    func insertItemsContiguouslyIntoNewSection() throws {
        try storage.insertItems(["a", "b"], at: ip(1, 0))
        #expect(fixture.delivered == [StorageUpdate([.insertSection(0), .insertSection(1), .insertItems(section: 1, items: 0..<2)])])
        #expect(storage.items(inSection: 1) as? [String] == ["a", "b"])
        try storage.insertItems([String](), at: ip(2, 0))
        #expect(fixture.delivered == [StorageUpdate([.insertSection(2)])])
    }

    @Test("insertItems(_:at:) past the end, or with a nil item, throws, reports and changes nothing")
    func insertItemsContiguouslyInvalid() {
        storage.addItems([10])
        _ = fixture.delivered
        #expect(throws: MemoryStorageError.insertionIndexPathTooBig(ip(0, 2), countOfElementsInSection: 1)) {
            try storage.insertItems([1, 2], at: ip(0, 2))
        }
        #expect(throws: MemoryStorageError.insertionIndexPathTooBig(ip(0, -1), countOfElementsInSection: 1)) {
            try storage.insertItems([1, 2], at: ip(0, -1))
        }
        #expect(throws: MemoryStorageError.insertionIndexPathTooBig(ip(2, 1), countOfElementsInSection: 0)) {
            try storage.insertItems([1, 2], at: ip(2, 1))
        }
        #expect(throws: MemoryStorageError.nilItem) {
            try storage.insertItems([1, nil], at: ip(0, 0))
        }
        #expect(fixture.anomalies.map(\.kind) == [.insertionIndexPathTooBig, .insertionIndexPathTooBig, .insertionIndexPathTooBig, .nilItem])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.numberOfSections() == 1)
        #expect(storage.items(inSection: 0) as? [Int] == [10])
    }

    @Test("insertItems(_:at:) of a long run into the middle of a large section keeps every model in order")
    func insertLongRunContiguously() throws {
        storage.addItems(Array(0..<5000))
        _ = fixture.delivered
        try storage.insertItems(Array(-3000..<0), at: ip(0, 2500))
        #expect(fixture.delivered == [StorageUpdate([.insertItems(section: 0, items: 2500..<5500)])])
        #expect(storage.items(inSection: 0) as? [Int] == Array(0..<2500) + Array(-3000..<0) + Array(2500..<5000))
    }

    @Test("replaceItem swaps the model in place and delivers an update")
    func replaceItem() throws {
        storage.addItems(["a", "b"])
        _ = fixture.delivered
        try storage.replaceItem("b", with: 42)
        let delivered = fixture.delivered
        #expect(delivered == [StorageUpdate([.updateItem(ip(0, 1))])])
        #expect(delivered.first?.updatedObjects.mapValues { $0 as! Int } == [ip(0, 1): 42])
        #expect(storage.item(at: ip(0, 1)) as? Int == 42)
    }

    @Test("A batch of replacements and reloads delivers each item's new model, at its update's index path")
    func updatedObjectsInBatch() {
        storage.addItems([Tagged(uid: 1, version: 0), Tagged(uid: 2, version: 0)])
        _ = fixture.delivered
        storage.performUpdates {
            storage.reloadItem(Tagged(uid: 1, version: 1))
            try? storage.replaceItem(Tagged(uid: 2, version: 0), with: Tagged(uid: 3, version: 0))
            try? storage.insertItem(Tagged(uid: 4, version: 0), to: ip(0, 0))
            storage.reloadItem(Tagged(uid: 3, version: 2))
        }
        let delivered = fixture.delivered
        #expect(delivered == [StorageUpdate([.updateItem(ip(0, 0)), .updateItem(ip(0, 1)), .insertItems(section: 0, items: 0..<1), .updateItem(ip(0, 2))])])
        // Described, since tagged models are equal whatever their version.
        #expect(delivered.first?.updatedObjects.mapValues { "\($0)" } == [ip(0, 0): "#1.v1", ip(0, 1): "#3.v0", ip(0, 2): "#3.v2"])
    }

    @Test("replaceItem of a missing item throws and reports")
    func replaceMissingItem() {
        storage.addItems(["a"])
        _ = fixture.delivered
        #expect(throws: MemoryStorageError.itemNotFound(itemDescription: "z")) {
            try storage.replaceItem("z", with: "y")
        }
        #expect(fixture.anomalies == [.replaceItemFailedItemNotFound(itemDescription: "z")])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.items(inSection: 0) as? [String] == ["a"])
    }

    @Test("reloadItem stores the new content of an equal model and delivers an update")
    func reloadItem() {
        storage.addItems([Tagged(uid: 1, version: 0), Tagged(uid: 2, version: 0)])
        _ = fixture.delivered
        storage.reloadItem(Tagged(uid: 2, version: 5))
        let delivered = fixture.delivered
        #expect(delivered == [StorageUpdate([.updateItem(ip(0, 1))])])
        #expect((delivered.first?.updatedObjects[ip(0, 1)] as? Tagged)?.version == 5)
        #expect((storage.item(at: ip(0, 1)) as? Tagged)?.version == 5)
        storage.reloadItem(Tagged(uid: 3, version: 0))
        #expect(fixture.anomalies == [.reloadItemFailedItemNotFound(itemDescription: "#3.v0")])
        #expect(fixture.delivered.isEmpty)
    }
}
