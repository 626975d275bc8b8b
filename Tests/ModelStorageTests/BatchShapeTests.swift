import Foundation
import ModelStorage
import TestSupport
import Testing

/// `objectChanges` and `sectionChanges` follow UIKit's batch rule, as DTModelStorage's do:
/// a custom updater ported from DTTableViewManager replays them as one batch and ends with
/// what the storage holds.
@Suite("StorageUpdate: DTModelStorage's shape, UIKit's batch rule")
struct BatchShapeTests {
    @Test("removing items 1, 3 and 4 of [1, 2, 3, 4, 5] lists deletions at 0, 2 and 3, as DTModelStorage does")
    func removedItemsAtTheirIndexesBefore() {
        let fixture = StorageFixture()
        fixture.storage.addItems([1, 2, 3, 4, 5])
        _ = fixture.delivered
        fixture.storage.removeItems([1, 3, 4, 6])
        let update = fixture.delivered[0]
        #expect(update.objectChanges.map(\.0) == [.delete, .delete, .delete])
        #expect(update.objectChanges.map(\.1) == [[ip(0, 0)], [ip(0, 2)], [ip(0, 3)]])
        // The exact log still replays one change after another.
        #expect(update.changes == [.deleteItems(section: 0, items: 0..<1), .deleteItems(section: 0, items: 1..<3)])
    }

    @Test("adding items to sections made for them lists the sections and the items, as DTModelStorage does")
    func newSections() throws {
        let fixture = StorageFixture()
        fixture.storage.addItems([1, 2, 3], toSection: 1)
        let update = fixture.delivered[0]
        #expect(update.sectionChanges.map(\.1) == [[0], [1]])
        #expect(update.objectChanges.map(\.0) == [.insert, .insert, .insert])
        #expect(update.objectChanges.map(\.1) == [[ip(1, 0)], [ip(1, 1)], [ip(1, 2)]])
    }

    @Test("removeItems(fromSection:) lists its deletions first to last")
    func removedSection() {
        let fixture = StorageFixture()
        fixture.storage.addItems([1, 2, 3])
        _ = fixture.delivered
        fixture.storage.removeItems(fromSection: 0)
        #expect(fixture.delivered[0].objectChanges.map(\.1) == [[ip(0, 0)], [ip(0, 1)], [ip(0, 2)]])
    }

    @Test("a batch: inserts at their places after it, deletions and reloads at theirs before, moves from before to after")
    func mixedBatch() {
        let fixture = StorageFixture()
        fixture.storage.addItems(["a", "b", "c", "d"])
        fixture.storage.addItems(["e"], toSection: 1)
        _ = fixture.delivered
        fixture.storage.performUpdates {
            fixture.storage.addItem("x", toSection: 0)                             // [a b c d x]
            try? fixture.storage.removeItem("a")                                   // [b c d x]
            fixture.storage.moveItem(at: ip(0, 2), to: ip(1, 0))                   // d to section 1: [b c x], [d e]
            try? fixture.storage.replaceItem("c", with: "C")                       // [b C x]
            fixture.storage.insertSection(SectionModel(items: ["n"]), atIndex: 0)  // [n], [b C x], [d e]
        }
        let update = fixture.delivered[0]
        #expect(update.sectionChanges.map(\.0) == [.insert])
        #expect(update.sectionChanges.map(\.1) == [[0]])
        #expect(update.objectChanges.map(\.0) == [.delete, .insert, .insert, .move, .update])
        #expect(update.objectChanges.map(\.1) == [[ip(0, 0)], [ip(0, 0)], [ip(1, 2)], [ip(0, 3), ip(2, 0)], [ip(0, 2)]])
    }

    @Test("sections: deleted and reloaded at their indexes before, inserted at theirs after, moved from before to after")
    func sections() {
        let update = StorageUpdate([
            .insertSection(0), .insertItems(section: 0, items: 0..<2), .supplementary(.header, .insert, section: 2),
            .moveSection(from: 3, to: 1), .deleteSection(4),
        ])
        #expect(update.sectionChanges.map(\.0) == [.delete, .insert, .move, .update])
        #expect(update.sectionChanges.map(\.1) == [[3], [0], [2, 1], [1]])
        // The items of the inserted section are insertions too, as in DTModelStorage.
        #expect(update.objectChanges.map(\.0) == [.insert, .insert])
        #expect(update.objectChanges.map(\.1) == [[ip(0, 0)], [ip(0, 1)]])
    }

    @Test("an update built by hand that does not fit any storage lists what fits, and does not trap")
    func unfitting() {
        let update = StorageUpdate([.deleteItems(section: 0, items: 0..<2), .moveItem(from: ip(5, 0), to: ip(-1, 0)), .insertSection(40),
                                    .updateItem(IndexPath(index: 3)), .deleteSection(-2)])
        #expect(update.objectChanges.map(\.1) == [[ip(0, 0)], [ip(0, 1)], [ip(5, 0)]])
    }

    @Test("seeded random operations: replaying each update as one batch on the items before gives the items after", arguments: 0..<40)
    func randomBatches(seed: UInt64) throws {
        let fixture = StorageFixture()
        let operations = RandomStorageOperations(storage: fixture.storage, seed: seed)
        var replayed = 0
        for step in 0..<60 {
            let before = Contents(fixture.storage)
            let described = operations.next().description
            let (updates, reloads) = fixture.recorder.take()
            guard reloads == 0, updates.count == 1 else { continue }
            let after = Contents(fixture.storage)
            let batch = try #require(before.replaying(updates[0], taking: after), "seed \(seed) step \(step): \(described)")
            #expect(batch == after, "seed \(seed) step \(step): \(described), \(updates[0])")
            replayed += 1
        }
        // Most steps deliver one update (the rest: bad input, reloads).
        #expect(replayed >= 30)
    }
}

/// What a storage of `Tagged` models holds: each section's header, footer and items.
private struct Contents: Equatable {
    struct Section: Equatable {
        var header: Version?
        var footer: Version?
        var items: [Version]
    }

    /// A model with its content's version (`Tagged` compares by identity alone).
    struct Version: Equatable {
        let uid: Int
        let version: Int
        init?(_ model: Any?) {
            guard let tagged = model as? Tagged else { return nil }
            (uid, version) = (tagged.uid, tagged.version)
        }
    }

    var sections: [Section]

    init(sections: [Section]) {
        self.sections = sections
    }

    init(_ storage: MemoryStorage) {
        sections = (0..<storage.numberOfSections()).map { index in
            Section(header: Version(storage.headerModel(forSection: index)), footer: Version(storage.footerModel(forSection: index)),
                    items: (storage.items(inSection: index) ?? []).compactMap(Version.init))
        }
    }

    /// These contents with `update`'s `sectionChanges` and `objectChanges` applied as one
    /// UIKit batch; what an insertion or a reload brings is taken from `after` (as a data
    /// source gives it), everything else moves from here. Nil when the changes do not fit.
    func replaying(_ update: StorageUpdate, taking after: Contents) -> Contents? {
        let sectionChanges = update.sectionChanges, objectChanges = update.objectChanges
        let deleted = Set(sectionChanges.filter { $0.0 == .delete }.map { $0.1[0] })
        let inserted = Set(sectionChanges.filter { $0.0 == .insert }.map { $0.1[0] })
        let reloaded = Set(sectionChanges.filter { $0.0 == .update }.map { $0.1[0] })
        let moves = Dictionary(uniqueKeysWithValues: sectionChanges.filter { $0.0 == .move }.map { ($0.1[1], $0.1[0]) })
        guard sections.count - deleted.count + inserted.count == after.sections.count else { return nil }
        // Each section after: inserted, moved from its place before, or the next one left.
        var left = sections.indices.filter { !deleted.contains($0) && !moves.values.contains($0) }.makeIterator()
        var origins: [Int?] = []
        for index in after.sections.indices {
            if inserted.contains(index) { origins.append(nil) } else if let from = moves[index] { origins.append(from) } else {
                guard let next = left.next() else { return nil }
                origins.append(next)
            }
        }
        guard left.next() == nil else { return nil }
        let deletions = Set(objectChanges.filter { $0.0 == .delete }.map { $0.1[0] })
        let insertions = Set(objectChanges.filter { $0.0 == .insert }.map { $0.1[0] })
        let reloads = Set(objectChanges.filter { $0.0 == .update }.map { $0.1[0] })
        let itemMoves = Dictionary(uniqueKeysWithValues: objectChanges.filter { $0.0 == .move }.map { ($0.1[1], $0.1[0]) })
        let movedAway = Set(itemMoves.values)
        var result = Contents(sections: [])
        for (index, origin) in origins.enumerated() {
            // An inserted section: its header and footer from the data source, its items
            // inserted or moved in.
            let old = origin.map { sections[$0] } ?? Section(header: after.sections[index].header, footer: after.sections[index].footer, items: [])
            var section = Section(header: old.header, footer: old.footer, items: [])
            if let origin, reloaded.contains(origin) { (section.header, section.footer) = (after.sections[index].header, after.sections[index].footer) }
            // Items staying: neither deleted nor moved away; a reloaded one takes its new content.
            var staying = old.items.indices.filter { item in
                origin.map { !deletions.contains(ip($0, item)) && !movedAway.contains(ip($0, item)) } ?? false
            }.makeIterator()
            for item in after.sections[index].items.indices {
                let here = ip(index, item)
                if insertions.contains(here) {
                    section.items.append(after.sections[index].items[item])
                } else if let from = itemMoves[here] {
                    guard sections.indices.contains(from.section), sections[from.section].items.indices.contains(from.item) else { return nil }
                    section.items.append(reloads.contains(from) ? after.sections[index].items[item] : sections[from.section].items[from.item])
                } else {
                    guard let origin, let next = staying.next() else { return nil }
                    section.items.append(reloads.contains(ip(origin, next)) ? after.sections[index].items[item] : old.items[next])
                }
            }
            guard staying.next() == nil else { return nil }
            result.sections.append(section)
        }
        return result
    }
}
