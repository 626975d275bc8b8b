import Foundation
import ModelStorage
import TestSupport
import Testing

/// A section index far past the last section is refused, where creating the sections up
/// to it would take all memory; one within `maximumNewSections` creates them, as
/// DTModelStorage does.
@Suite("Section indexes far past the end")
struct AbsurdSectionIndexTests {
    @Test("Every section-creating call refuses them, reports them and changes nothing",
          arguments: [Int.max, 1 << 40, MemoryStorage.maximumNewSections + 3])
    func refused(_ section: Int) {
        let fixture = StorageFixture()
        let storage = fixture.storage
        storage.addItems([1, 2], toSection: 0)
        _ = fixture.delivered

        storage.addItem(5, toSection: section)
        storage.addItems([5, 6], toSection: section)
        #expect(throws: MemoryStorageError.self) { try storage.insertItem(5, to: IndexPath(item: 0, section: section)) }
        #expect(throws: MemoryStorageError.self) { try storage.insertItems([5], to: [IndexPath(item: 0, section: section)]) }
        #expect(throws: MemoryStorageError.self) { try storage.insertItems([5, 6], at: IndexPath(item: 0, section: section)) }
        storage.setItems([5], forSection: section)
        storage.setSection(SectionModel(items: [5]), forSection: section)
        storage.setSectionHeaderModel("H", forSection: section)
        storage.setSectionFooterModel("F", forSection: section)

        #expect(fixture.delivered.isEmpty)
        #expect(storage.numberOfSections() == 1)
        #expect(storage.items(inSection: 0) as? [Int] == [1, 2])
        #expect(fixture.anomalies.map(\.kind) == [.sectionIndexOutOfRange, .sectionIndexOutOfRange, .insertionIndexPathTooBig,
                                                   .insertionIndexPathTooBig, .insertionIndexPathTooBig, .sectionIndexOutOfRange,
                                                   .sectionIndexOutOfRange, .sectionIndexOutOfRange, .sectionIndexOutOfRange])
    }

    @Test("Within the limit, the missing sections are created")
    func created() throws {
        let fixture = StorageFixture()
        let last = MemoryStorage.maximumNewSections - 1
        fixture.storage.addItem(5, toSection: last)
        try fixture.storage.insertItem(6, to: IndexPath(item: 0, section: last + MemoryStorage.maximumNewSections - 1))
        #expect(fixture.storage.numberOfSections() == last + MemoryStorage.maximumNewSections)
        #expect(fixture.anomalies.isEmpty)
    }
}
