import Foundation
import ModelStorage
import TestSupport
import Testing

@Suite("StorageUpdate.newIndexPath: following an item through an update")
struct NewIndexPathTests {
    @Test("Inserts and deletes before an item shift it; deleting it gives nil")
    func shifts() throws {
        let fixture = StorageFixture()
        fixture.storage.addItems(Array(0..<10))
        _ = fixture.delivered
        fixture.storage.performUpdates {
            try? fixture.storage.insertItems([100, 101], to: [ip(0, 0), ip(0, 1)])
            fixture.storage.removeItems(at: [ip(0, 5)])
        }
        let update = try #require(fixture.delivered.first)
        #expect(update.newIndexPath(for: ip(0, 0)) == ip(0, 2))
        #expect(update.newIndexPath(for: ip(0, 3)) == nil)
        #expect(update.newIndexPath(for: ip(0, 4)) == ip(0, 5))
    }

    @Test("A moved item and a moved section carry the item with them")
    func moves() throws {
        let fixture = StorageFixture()
        fixture.storage.addItems([0, 1, 2], toSection: 0)
        fixture.storage.addItems([10, 11], toSection: 1)
        _ = fixture.delivered
        fixture.storage.moveItem(at: ip(0, 0), to: ip(1, 1))
        let move = try #require(fixture.delivered.first)
        #expect(move.newIndexPath(for: ip(0, 0)) == ip(1, 1))
        #expect(move.newIndexPath(for: ip(0, 1)) == ip(0, 0))
        #expect(move.newIndexPath(for: ip(1, 1)) == ip(1, 2))
        fixture.storage.moveSection(0, toSection: 1)
        let sectionMove = try #require(fixture.delivered.first)
        #expect(sectionMove.newIndexPath(for: ip(1, 2)) == ip(0, 2))
        #expect(sectionMove.newIndexPath(for: ip(0, 0)) == ip(1, 0))
    }

    @Test("newSection follows a section through section inserts, deletes and moves; item changes leave it")
    func sections() throws {
        let fixture = StorageFixture()
        for section in 0..<4 { fixture.storage.addItems([section * 10], toSection: section) }
        _ = fixture.delivered
        fixture.storage.performUpdates {
            fixture.storage.removeItems(at: [ip(2, 0)])
            fixture.storage.insertSection(SectionModel(items: [99]), atIndex: 0)
            fixture.storage.deleteSections(IndexSet([2]))
            fixture.storage.moveSection(3, toSection: 0)
        }
        let update = try #require(fixture.delivered.first)
        // Sections 0 1 2 3 → [99] 0 1 2 3 → [99] 0 2 3 → 3 [99] 0 2.
        #expect(update.newSection(for: 0) == 2)
        #expect(update.newSection(for: 1) == nil)
        #expect(update.newSection(for: 2) == 3)
        #expect(update.newSection(for: 3) == 0)
    }

    @Test("Random updates: every surviving item is found where newIndexPath says, every removed one gives nil",
          arguments: 0..<40)
    func randomUpdates(seed: UInt64) {
        let fixture = StorageFixture()
        fixture.storage.anomalyHandler.anomalyAction = { _ in }
        let operations = RandomStorageOperations(storage: fixture.storage, seed: seed)
        for _ in 0..<200 {
            let before = locations(in: fixture.storage)
            let step = operations.next()
            let (updates, reloads) = fixture.recorder.take()
            guard reloads == 0, updates.count == 1, let update = updates.first else { continue }
            let after = locations(in: fixture.storage)
            for (uid, old) in before {
                #expect(update.newIndexPath(for: old) == after[uid], "seed \(seed), #\(uid) at \(old) after \(step.description)")
            }
        }
    }

    /// Where each item is, by its identity.
    private func locations(in storage: MemoryStorage) -> [Int: IndexPath] {
        var result: [Int: IndexPath] = [:]
        for section in 0..<storage.numberOfSections() {
            for case let (item, model as Tagged) in (storage.items(inSection: section) ?? []).enumerated() {
                result[model.uid] = ip(section, item)
            }
        }
        return result
    }
}
