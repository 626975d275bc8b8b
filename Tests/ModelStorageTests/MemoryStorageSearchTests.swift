import Foundation
import ModelStorage
import TestSupport
import Testing

/// A model type of its own, for searches by type.
private struct Note: Equatable {
    let text: String
}

@Suite("MemoryStorage: finding items and sections")
struct MemoryStorageSearchTests {
    let fixture = StorageFixture()
    var storage: MemoryStorage { fixture.storage }

    @Test("items(ofType:) lists every item of that type, section after section, in order")
    func itemsOfType() {
        storage.addItems([1, 2] as [Any], toSection: 0)
        storage.addItems(["a", 3, Note(text: "n")] as [Any], toSection: 1)
        storage.addItems(articles(0, count: 3), toSection: 2)
        #expect(storage.items(ofType: Int.self) == [1, 2, 3])
        #expect(storage.items(ofType: String.self) == ["a"])
        #expect(storage.items(ofType: Note.self) == [Note(text: "n")])
        #expect(storage.items(ofType: Article.self) == articles(0, count: 3))
        #expect(storage.items(ofType: Double.self).isEmpty)
        // Every model but the note: a protocol type finds the models that conform to it.
        #expect(storage.items(ofType: (any CustomStringConvertible).self).count == 7)
        #expect(MemoryStorage().items(ofType: Int.self).isEmpty)
    }

    @Test("A section model lists its own items of a type, and says whether it has items")
    func sectionItemsOfType() {
        let section = SectionModel(items: [1, "b", 2] as [Any], headerModel: "H")
        #expect(section.items(ofType: Int.self) == [1, 2])
        #expect(section.items(ofType: String.self) == ["b"])
        #expect(!section.isEmpty)
        #expect(SectionModel(headerModel: "H").isEmpty)
    }

    @Test("sectionIndex(for:) finds the section a copy came from, wherever it moved")
    func sectionIndexOfCopy() throws {
        storage.addItems([1], toSection: 0)
        storage.addItems([2], toSection: 1)
        storage.addItems([3], toSection: 2)
        let second = try #require(storage.section(atIndex: 1))
        #expect(storage.sectionIndex(for: second) == 1)
        storage.moveSection(1, toSection: 2)
        #expect(storage.sectionIndex(for: second) == 2)
        storage.insertSection(SectionModel(items: [0]), atIndex: 0)
        storage.addItem(4, toSection: 3)
        storage.setSectionHeaderModel("H", forSection: 3)
        #expect(storage.sectionIndex(for: second) == 3)
        storage.deleteSections([3])
        #expect(storage.sectionIndex(for: second) == nil)
    }

    @Test("sectionIndex(for:) finds a section stored from a model, not one with equal content")
    func sectionIndexOfStoredModel() {
        let section = SectionModel(items: [7])
        let twin = SectionModel(items: [7])
        storage.addItems([1], toSection: 0)
        storage.insertSection(section, atIndex: 1)
        #expect(storage.sectionIndex(for: section) == 1)
        #expect(storage.sectionIndex(for: twin) == nil)
        storage.setSection(twin, forSection: 1)
        #expect(storage.sectionIndex(for: section) == nil)
        #expect(storage.sectionIndex(for: twin) == 1)
        #expect(storage.sectionIndex(for: SectionModel()) == nil)
    }

    @Test("sectionIndex(for:) follows a section through sorting and through snapshots that keep it")
    func sectionIndexThroughSortingAndSnapshots() throws {
        var first = EntrySnapshot()
        first.appendSection("a", items: entries(3, 1))
        first.appendSection("b", items: entries(2))
        storage.apply(first)
        let a = try #require(storage.section(atIndex: 0))
        let b = try #require(storage.section(atIndex: 1))
        storage.sortItems { ($0 as! Entry).uid < ($1 as! Entry).uid }
        #expect(storage.sectionIndex(for: a) == 0)
        var second = EntrySnapshot()
        second.appendSection("c", items: entries(4))
        second.appendSection("b", items: entries(2, 5))
        second.appendSection("a", items: entries(1))
        storage.apply(second)
        #expect(storage.sectionIndex(for: a) == 2)
        #expect(storage.sectionIndex(for: b) == 1)
        var third = EntrySnapshot()
        third.appendSection("b", items: entries(2))
        storage.apply(third)
        #expect(storage.sectionIndex(for: a) == nil)
        #expect(storage.sectionIndex(for: b) == 0)
    }
}
