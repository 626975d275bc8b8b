import Foundation
import ModelStorage
import TestSupport
import Testing

@Suite("MemoryStorage: sections, headers and footers")
struct MemoryStorageSectionTests {
    let fixture = StorageFixture()
    var storage: MemoryStorage { fixture.storage }

    @Test("insertSection inserts items, header and footer in one update")
    func insertSection() {
        storage.addItems([1])
        _ = fixture.delivered
        storage.insertSection(SectionModel(items: [7, 8], headerModel: "H", footerModel: "F"), atIndex: 0)
        #expect(fixture.delivered == [StorageUpdate([
            .insertSection(0), .supplementary(.header, .insert, section: 0),
            .supplementary(.footer, .insert, section: 0), .insertItems(section: 0, items: 0..<2),
        ])])
        #expect(storage.items(inSection: 0) as? [Int] == [7, 8])
        #expect(storage.headerModel(forSection: 0) as? String == "H")
        #expect(storage.footerModel(forSection: 0) as? String == "F")
        #expect(storage.items(inSection: 1) as? [Int] == [1])
    }

    @Test("insertSection past the end reports and changes nothing")
    func insertSectionTooFar() {
        storage.insertSection(SectionModel(items: [1]), atIndex: 1)
        #expect(fixture.anomalies == [.sectionIndexOutOfRange(section: 1, numberOfSections: 0)])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.numberOfSections() == 0)
    }

    @Test("deleteSections deletes from the last one down")
    func deleteSections() {
        storage.setItemsForAllSections([[1], [2], [3]])
        _ = fixture.recorder.take()
        storage.deleteSections(IndexSet([0, 2]))
        #expect(fixture.delivered == [StorageUpdate([.deleteSection(2), .deleteSection(0)])])
        #expect(storage.numberOfSections() == 1)
        #expect(storage.items(inSection: 0) as? [Int] == [2])
    }

    @Test("deleteSections with an index out of range deletes nothing")
    func deleteSectionsInvalid() {
        storage.addItem(1)
        _ = fixture.delivered
        storage.deleteSections(IndexSet([0, 3]))
        #expect(fixture.anomalies == [.sectionIndexOutOfRange(section: 3, numberOfSections: 1)])
        #expect(fixture.delivered.isEmpty)
        #expect(storage.numberOfSections() == 1)
    }

    @Test("moveSection moves the section with its items and header")
    func moveSection() {
        storage.setItemsForAllSections([[1], [2], [3]])
        storage.setSectionHeaderModels(["A", "B", "C"])
        _ = fixture.recorder.take()
        storage.moveSection(0, toSection: 2)
        #expect(fixture.delivered == [StorageUpdate([.moveSection(from: 0, to: 2)])])
        #expect(storage.sections.map { $0.items as? [Int] } == [[2], [3], [1]])
        #expect(storage.headerModel(forSection: 2) as? String == "A")
        storage.moveSection(0, toSection: 3)
        #expect(fixture.anomalies == [.sectionIndexOutOfRange(section: 3, numberOfSections: 3)])
        #expect(fixture.delivered.isEmpty)
    }

    @Test("setItems replaces one section's items and keeps its header")
    func setItems() {
        storage.addItems([1, 2])
        storage.setSectionHeaderModel("H", forSection: 0)
        _ = fixture.delivered
        storage.setItems([3, 4, 5])
        #expect(fixture.delivered == [StorageUpdate([.deleteItems(section: 0, items: 0..<2), .insertItems(section: 0, items: 0..<3)])])
        #expect(storage.items(inSection: 0) as? [Int] == [3, 4, 5])
        #expect(storage.headerModel(forSection: 0) as? String == "H")
    }

    @Test("setItemsForAllSections replaces every section and asks for a reload")
    func setItemsForAllSections() {
        storage.setItemsForAllSections([[1], [2, 3], [4]])
        storage.setSectionHeaderModels(["A", "B", "C"])
        _ = fixture.recorder.take()
        storage.setItemsForAllSections([["x"], ["y", "z"]])
        let delivered = fixture.recorder.take()
        #expect(delivered.updates.isEmpty && delivered.reloads == 1)
        #expect(storage.numberOfSections() == 2)
        #expect(storage.items(inSection: 1) as? [String] == ["y", "z"])
        #expect(storage.headerModel(forSection: 1) as? String == "B")
    }

    @Test("setSection replaces items, header and footer of one section")
    func setSection() {
        storage.addItems([1, 2])
        storage.setSectionHeaderModel("old", forSection: 0)
        _ = fixture.delivered
        storage.setSection(SectionModel(items: [9], headerModel: "new", footerModel: "F"), forSection: 0)
        #expect(fixture.delivered == [StorageUpdate([
            .deleteItems(section: 0, items: 0..<2), .supplementary(.header, .update, section: 0),
            .supplementary(.footer, .insert, section: 0), .insertItems(section: 0, items: 0..<1),
        ])])
        #expect(storage.headerModel(forSection: 0) as? String == "new")
    }

    @Test("setSectionHeaderModels creates sections, and sets, replaces or removes each header")
    func setHeaderModels() {
        storage.setSectionHeaderModels(["A", "B"])
        #expect(fixture.delivered == [StorageUpdate([
            .insertSection(0), .insertSection(1),
            .supplementary(.header, .insert, section: 0), .supplementary(.header, .insert, section: 1),
        ])])
        storage.setSectionHeaderModels(["A2", nil] as [String?])
        #expect(fixture.delivered == [StorageUpdate([.supplementary(.header, .update, section: 0), .supplementary(.header, .delete, section: 1)])])
        #expect(storage.headerModel(forSection: 0) as? String == "A2")
        #expect(storage.headerModel(forSection: 1) == nil)
        storage.setSectionHeaderModels([String]())
        #expect(fixture.delivered == [StorageUpdate([.supplementary(.header, .delete, section: 0)])])
    }

    @Test("Footers work as headers do, section by section")
    func footers() {
        storage.setSectionFooterModels(["end"])
        storage.setSectionFooterModel("end 2", forSection: 1)
        storage.setSectionFooterModel(nil as String?, forSection: 0)
        #expect(fixture.delivered == [
            StorageUpdate([.insertSection(0), .supplementary(.footer, .insert, section: 0)]),
            StorageUpdate([.insertSection(1), .supplementary(.footer, .insert, section: 1)]),
            StorageUpdate([.supplementary(.footer, .delete, section: 0)]),
        ])
        #expect(storage.footerModel(forSection: 1) as? String == "end 2")
        #expect(storage.supplementaryModel(.footer, forSection: 1) as? String == "end 2")
        #expect(storage.footerModel(forSection: 9) == nil)
    }

    @Test("Queries answer nil or zero out of range, never trap")
    func queriesOutOfRange() {
        storage.addItems([1])
        #expect(storage.item(at: ip(0, 1)) == nil)
        #expect(storage.item(at: ip(-1, 0)) == nil)
        #expect(storage.item(at: IndexPath(index: 0)) == nil)
        #expect(storage.items(inSection: 3) == nil)
        #expect(storage.section(atIndex: 3) == nil)
        #expect(storage.numberOfItems(inSection: -2) == 0)
        #expect(storage.headerModel(forSection: -1) == nil)
        #expect(storage.indexPath(forItem: 2) == nil)
        #expect(storage.section(atIndex: 0)?.numberOfItems == 1)
    }
}

@Suite("MemoryStorage: batches")
struct MemoryStorageBatchTests {
    let fixture = StorageFixture()
    var storage: MemoryStorage { fixture.storage }

    @Test("performUpdates delivers one update with every change in order")
    func performUpdates() {
        storage.performUpdates {
            storage.addItem(1)
            storage.addItem(2, toSection: 1)
            storage.moveItem(at: ip(1, 0), to: ip(0, 0))
            storage.setSectionHeaderModel("H", forSection: 0)
        }
        #expect(fixture.delivered == [StorageUpdate([
            .insertSection(0), .insertItems(section: 0, items: 0..<1), .insertSection(1),
            .insertItems(section: 1, items: 0..<1), .moveItem(from: ip(1, 0), to: ip(0, 0)),
            .supplementary(.header, .insert, section: 0),
        ])])
    }

    @Test("Nested batches join the outermost one")
    func nestedBatches() {
        storage.performUpdates {
            storage.addItem(1)
            storage.performUpdates { storage.addItem(2) }
            #expect(fixture.recorder.updates.isEmpty)
        }
        #expect(fixture.delivered == [StorageUpdate([.insertSection(0), .insertItems(section: 0, items: 0..<2)])])
    }

    @Test("A batch that changes nothing delivers nothing, and a failed operation keeps the rest")
    func emptyAndFailingBatches() {
        storage.performUpdates {}
        storage.performUpdates { storage.removeItems(at: [ip(0, 0)]) }
        #expect(fixture.delivered.isEmpty)
        storage.performUpdates {
            storage.addItem(1)
            try? storage.insertItem(2, to: ip(0, 5))
            storage.addItem(3)
        }
        #expect(fixture.delivered == [StorageUpdate([.insertSection(0), .insertItems(section: 0, items: 0..<2)])])
        #expect(storage.items(inSection: 0) as? [Int] == [1, 3])
    }

    @Test("An error thrown out of a batch still delivers what was changed")
    func throwingBatch() {
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try storage.performUpdates {
                storage.addItem(1)
                throw Stop()
            }
        }
        #expect(fixture.delivered == [StorageUpdate([.insertSection(0), .insertItems(section: 0, items: 0..<1)])])
    }

    @Test("updateWithoutAnimations applies the changes and asks for one reload")
    func updateWithoutAnimations() {
        storage.updateWithoutAnimations {
            storage.addItems([1, 2])
            storage.addItem(3, toSection: 1)
        }
        let delivered = fixture.recorder.take()
        #expect(delivered.updates.isEmpty && delivered.reloads == 1)
        #expect(storage.totalNumberOfItems == 3)
        storage.updateWithoutAnimations {}
        #expect(fixture.recorder.take().reloads == 0)
    }
}
