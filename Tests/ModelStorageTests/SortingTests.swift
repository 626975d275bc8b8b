import Foundation
import ModelStorage
import TestSupport
import Testing

@Suite("Sorting a MemoryStorage's items")
struct SortingTests {
    /// Every item's old index path, followed through `update`, holds that item now.
    func expectFollowed(_ old: [[Int]], _ storage: MemoryStorage, _ update: StorageUpdate, sourceLocation: SourceLocation = #_sourceLocation) {
        for (section, items) in old.enumerated() {
            for (item, value) in items.enumerated() {
                let moved = update.newIndexPath(for: IndexPath(item: item, section: section))
                #expect(moved.flatMap { storage.item(at: $0) as? Int } == value, "\(value) from [\(section),\(item)]", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("Each section is sorted on its own, as the fewest moves, keeping headers")
    func sortsSectionsAsMoves() throws {
        let fixture = StorageFixture()
        fixture.storage.setSectionHeaderModels(["A", "B"])
        fixture.storage.addItems([5, 1, 2, 3, 4], toSection: 0)
        fixture.storage.addItems([9, 7, 8], toSection: 1)
        _ = fixture.delivered
        fixture.storage.sortItems { ($0 as! Int) < ($1 as! Int) }
        #expect(fixture.storage.items(inSection: 0) as? [Int] == [1, 2, 3, 4, 5])
        #expect(fixture.storage.items(inSection: 1) as? [Int] == [7, 8, 9])
        #expect(fixture.storage.headerModel(forSection: 1) as? String == "B")
        let updates = fixture.delivered
        #expect(updates.count == 1)
        let update = try #require(updates.first)
        #expect(update.changes.count == 2, "5 and 9 move; the rest are already in order: \(update.changes)")
        #expect(update.changes.allSatisfy { if case .moveItem = $0 { true } else { false } })
        expectFollowed([[5, 1, 2, 3, 4], [9, 7, 8]], fixture.storage, update)
    }

    @Test("Equal items keep their order, and a sorted storage delivers nothing")
    func stableAndIdle() throws {
        let fixture = StorageFixture()
        fixture.storage.addItems([31, 12, 22, 11, 32, 21])
        _ = fixture.delivered
        fixture.storage.sortItems { ($0 as! Int) / 10 < ($1 as! Int) / 10 }
        #expect(fixture.storage.items(inSection: 0) as? [Int] == [12, 11, 22, 21, 31, 32])
        let update = try #require(fixture.delivered.first)
        expectFollowed([[31, 12, 22, 11, 32, 21]], fixture.storage, update)
        fixture.storage.sortItems { ($0 as! Int) / 10 < ($1 as! Int) / 10 }
        #expect(fixture.delivered.isEmpty)
    }

    @Test("A reordering that is not a permutation leaves its section as it is")
    func badPermutation() {
        let fixture = StorageFixture()
        fixture.storage.addItems([3, 2, 1], toSection: 0)
        fixture.storage.addItems([6, 5], toSection: 1)
        _ = fixture.delivered
        fixture.storage.reorderItems { section, items in section == 0 ? [0, 0, 1] : Array(items.indices.reversed()) }
        #expect(fixture.storage.items(inSection: 0) as? [Int] == [3, 2, 1])
        #expect(fixture.storage.items(inSection: 1) as? [Int] == [5, 6])
    }

    @Test("Random sorts replay: every item is followed to its sorted place", arguments: 0..<50)
    func randomSorts(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        do {
            let fixture = StorageFixture()
            let sections = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int.random(in: 0..<30, using: &generator) }
            }
            for (index, items) in sections.enumerated() { fixture.storage.addItems(items, toSection: index) }
            _ = fixture.delivered
            fixture.storage.sortItems { ($0 as! Int) < ($1 as! Int) }
            for (index, items) in sections.enumerated() {
                #expect(fixture.storage.items(inSection: index) as? [Int] == items.sorted())
            }
            if let update = fixture.delivered.first { expectFollowed(sections, fixture.storage, update) }
        }
    }
}
