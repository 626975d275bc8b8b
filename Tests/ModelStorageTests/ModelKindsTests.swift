import Foundation
import ModelStorage
import TestSupport
import Testing

protocol Shape {
    var name: String { get }
}

struct Circle: Shape, Equatable {
    let name: String
}

enum Weather: Equatable {
    case sunny, rain(millimetres: Int)
}

class Animal: Equatable {
    let name: String
    init(name: String) { self.name = name }
    static func == (lhs: Animal, rhs: Animal) -> Bool { lhs.name == rhs.name }
}

final class Dog: Animal {}

@Suite("MemoryStorage keeps models of every Swift kind")
struct ModelKindsTests {
    let fixture = StorageFixture()
    var storage: MemoryStorage { fixture.storage }

    @Test("Structs, enums, classes and subclasses are stored as themselves and found by equality")
    func valueAndReferenceModels() throws {
        let dog = Dog(name: "Rex")
        storage.addItems([Circle(name: "c")] as [Any] + [Weather.rain(millimetres: 3), Animal(name: "cat"), dog])
        #expect(storage.item(at: ip(0, 0)) as? Circle == Circle(name: "c"))
        #expect(storage.item(at: ip(0, 1)) as? Weather == .rain(millimetres: 3))
        #expect(storage.item(at: ip(0, 3)) is Dog)
        #expect(storage.item(at: ip(0, 3)) as? Animal === dog)
        #expect(storage.indexPath(forItem: Weather.rain(millimetres: 3)) == ip(0, 1))
        #expect(storage.indexPath(forItem: Weather.sunny) == nil)
        #expect(storage.indexPath(forItem: Animal(name: "Rex")) == ip(0, 3))
        try storage.removeItem(Animal(name: "cat"))
        #expect(storage.totalNumberOfItems == 3)
    }

    @Test("Values typed as a protocol keep their concrete type")
    func protocolTypedValues() {
        let shapes: [any Shape] = [Circle(name: "a"), Circle(name: "b")]
        storage.addItems(shapes)
        #expect(storage.item(at: ip(0, 1)) is Circle)
        #expect((storage.item(at: ip(0, 1)) as? any Shape)?.name == "b")
        #expect(storage.indexPath(forItem: Circle(name: "b")) == ip(0, 1))
    }

    @Test("Optionals are stored unwrapped, at any depth, and found through optionals")
    func optionalsUnwrapped() {
        let maybe: Circle? = Circle(name: "x")
        let nested: Int?? = 5
        storage.addItem(maybe)
        storage.addItem(nested)
        storage.addItem(Optional<Any>.some(Optional<Int>.some(6) as Any))
        #expect(storage.item(at: ip(0, 0)) is Circle)
        #expect(storage.item(at: ip(0, 1)) as? Int == 5)
        #expect(storage.item(at: ip(0, 2)) as? Int == 6)
        #expect(storage.indexPath(forItem: maybe) == ip(0, 0))
        #expect(storage.indexPath(forItem: Optional<Int>.some(5)) == ip(0, 1))
        #expect(storage.indexPath(forItem: Optional<Int>.none) == nil)
    }

    @Test("A nil model is reported and not stored")
    func nilModels() {
        storage.addItem(nil as Circle?)
        storage.addItems([1, nil, 3] as [Int?])
        storage.setItems([nil] as [Int?])
        #expect(throws: MemoryStorageError.nilItem) { try storage.insertItem(nil as Int?, to: ip(0, 0)) }
        storage.addItem(1)
        #expect(throws: MemoryStorageError.nilItem) { try storage.replaceItem(1, with: Optional<Int>.none as Any) }
        #expect(fixture.anomalies.map(\.kind) == [.nilItem, .nilItem, .nilItem, .nilItem, .nilItem])
        #expect(storage.items(inSection: 0) as? [Int] == [1])
    }

    @Test("Header models may be optionals; nil means no header")
    func optionalHeaders() {
        storage.setSectionHeaderModels(["A", nil, "C"] as [String?])
        #expect(storage.headerModel(forSection: 0) as? String == "A")
        #expect(storage.headerModel(forSection: 1) == nil)
        #expect(storage.numberOfSections() == 3)
    }
}

@Suite("Anomaly handlers")
struct AnomalyHandlerTests {
    @Test("Anomalies read as DTModelStorage's: a long prefixed sentence and a short form")
    func descriptions() {
        let anomaly = MemoryStorageAnomaly.insertionIndexPathTooBig(indexPath: ip(1, 5), countOfElementsInSection: 2)
        #expect(anomaly.debugDescription == "⚠️ [MemoryStorage] Failed to insert item into IndexPath: [1, 5], count of elements in the section: 2")
        #expect(anomaly.description == "MemoryStorageAnomaly.insertionIndexPathTooBig([1, 5], 2)")
        #expect(MemoryStorageAnomaly.sectionIndexOutOfRange(section: 4, numberOfSections: 2).debugDescription.hasPrefix("⚠️ [MemoryStorage] "))
    }

    @Test("A kind can be silenced whatever its values, and so can anomalies matching a condition")
    func silencing() {
        let fixture = StorageFixture()
        fixture.storage.anomalyHandler.silence(.removeItemFailedItemNotFound)
        fixture.storage.anomalyHandler.silence { anomaly in
            if case .sectionIndexOutOfRange(let section, _) = anomaly { return section > 10 }
            return false
        }
        try? fixture.storage.removeItem(1)
        fixture.storage.removeItems(fromSection: 11)
        fixture.storage.removeItems(fromSection: 2)
        #expect(fixture.anomalies == [.sectionIndexOutOfRange(section: 2, numberOfSections: 0)])
    }

    @Test("Handlers without their own action use the global default as it is when reporting")
    func globalDefaultAction() {
        let original = MemoryStorageAnomaly.defaultAction
        defer { MemoryStorageAnomaly.defaultAction = original }
        let seen = Seen()
        let storage = MemoryStorage()
        MemoryStorageAnomaly.defaultAction = { anomaly in seen.append(anomaly) }
        storage.moveSection(0, toSection: 1)
        #expect(seen.values == [.sectionIndexOutOfRange(section: 0, numberOfSections: 0)])
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [MemoryStorageAnomaly] = []
        func append(_ anomaly: MemoryStorageAnomaly) { lock.withLock { stored.append(anomaly) } }
        var values: [MemoryStorageAnomaly] { lock.withLock { stored } }
    }
}

@Suite("StorageUpdate")
struct StorageUpdateTests {
    @Test("It is empty when nothing changed")
    func isEmpty() {
        #expect(!StorageUpdate([.insertSection(0)]).isEmpty)
        #expect(StorageUpdate().isEmpty)
    }

    @Test("It prints readably")
    func description() {
        let update = StorageUpdate([.insertSection(0), .insertItems(section: 0, items: 0..<3), .supplementary(.footer, .delete, section: 2)])
        #expect(update.description == "StorageUpdate(insert section 0; insert items 0..<3 in section 0; delete footer of section 2)")
        #expect(StorageUpdate().description == "StorageUpdate(empty)")
    }

    @Test("updatedObjects keeps each updated item's model; merged updates keep the later one; equality ignores it")
    func updatedObjects() {
        var first = StorageUpdate()
        first.appendItemUpdate(at: ip(0, 1), model: "old")
        first.appendItemUpdate(at: ip(0, 2), model: "b")
        var second = StorageUpdate([.insertItems(section: 0, items: 0..<1)])
        second.appendItemUpdate(at: ip(0, 1), model: "new")
        first.append(contentsOf: second)
        #expect(first.changes == [.updateItem(ip(0, 1)), .updateItem(ip(0, 2)), .insertItems(section: 0, items: 0..<1), .updateItem(ip(0, 1))])
        #expect(first.updatedObjects.mapValues { $0 as! String } == [ip(0, 1): "new", ip(0, 2): "b"])
        #expect(first.changes.allSatisfy { if case .updateItem(let indexPath) = $0 { first.updatedObjects[indexPath] != nil } else { true } })
        // Equal changes make equal updates, whatever their models; the description shows changes only.
        let bare = StorageUpdate(first.changes)
        #expect(bare.updatedObjects.isEmpty)
        #expect(bare == first)
        #expect(bare.hashValue == first.hashValue)
        #expect(bare.description == first.description)
    }

    @Test("Adjacent inserts and deletes in a section merge into ranges as they are recorded")
    func merging() {
        var update = StorageUpdate()
        update.append(.insertItems(section: 0, items: 5..<6))
        update.append(.insertItems(section: 0, items: 5..<7))
        update.append(.insertItems(section: 0, items: 8..<9))
        update.append(.deleteItems(section: 1, items: 3..<4))
        update.append(.deleteItems(section: 1, items: 2..<3))
        update.append(.deleteItems(section: 1, items: 2..<4))
        update.append(.insertItems(section: 1, items: 0..<1))
        #expect(update.changes == [.insertItems(section: 0, items: 5..<9), .deleteItems(section: 1, items: 2..<6), .insertItems(section: 1, items: 0..<1)])
    }
}
