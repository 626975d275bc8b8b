import Foundation
import ModelStorage
import TestSupport
import Testing

/// Applies `snapshot` to `fixture`'s storage and checks the storage holds it, and that the
/// update delivered, replayed on the old content, gives it. Returns the update's changes.
@discardableResult
func applyChecked(_ snapshot: EntrySnapshot, to fixture: StorageFixture, sourceLocation: SourceLocation = #_sourceLocation) -> [StorageChange] {
    let old = StoredState(fixture.storage)
    fixture.storage.apply(snapshot)
    let updates = fixture.delivered
    #expect(updates.count <= 1, sourceLocation: sourceLocation)
    let update = updates.first ?? StorageUpdate()
    #expect(mismatch(fixture.storage, snapshot) == nil, "\(mismatch(fixture.storage, snapshot) ?? "")", sourceLocation: sourceLocation)
    var replay = ChangeLogReplay(old)
    replay.replay(update)
    let failure = replay.mismatch(old: old, new: snapshot)
    #expect(failure == nil, "\(failure ?? "") replaying \(update)", sourceLocation: sourceLocation)
    return update.changes
}

/// A storage holding `snapshot`, with nothing left to deliver.
func storage(holding snapshot: EntrySnapshot) -> StorageFixture {
    let fixture = StorageFixture()
    fixture.storage.apply(snapshot)
    _ = fixture.delivered
    return fixture
}

func snapshot(_ sections: (String, [Entry])...) -> EntrySnapshot {
    EntrySnapshot(sections: sections.map { EntrySnapshot.Section(id: $0.0, items: $0.1) })
}

@Suite("Applying a snapshot to a MemoryStorage")
struct SnapshotApplyTests {
    @Test("From empty: sections inserted with their header and items")
    func emptyToFull() {
        let fixture = StorageFixture()
        var new = EntrySnapshot()
        new.appendSection("a", items: entries(1, 2, 3), header: "A")
        new.appendSection("b", items: entries(4, 5), footer: Entry(uid: 9))
        #expect(applyChecked(new, to: fixture) == [
            .insertSection(0), .supplementary(.header, .insert, section: 0), .insertItems(section: 0, items: 0..<3),
            .insertSection(1), .supplementary(.footer, .insert, section: 1), .insertItems(section: 1, items: 0..<2),
        ])
        #expect(fixture.storage.section(atIndex: 0)?.identifier == AnyHashable("a"))
        #expect(fixture.storage.headerModel(forSection: 0) as? String == "A")
    }

    @Test("To empty: every section deleted")
    func fullToEmpty() {
        let fixture = storage(holding: snapshot(("a", entries(1, 2)), ("b", entries(3))))
        #expect(applyChecked(EntrySnapshot(), to: fixture) == [.deleteSection(0), .deleteSection(0)])
        #expect(fixture.storage.numberOfSections() == 0)
    }

    @Test("Deletions, insertions and content changes in one section; a changed item is updated in place")
    func deleteInsertUpdate() throws {
        let fixture = storage(holding: snapshot(("a", entries(1, 2, 3, 4))))
        let changed = [Entry(uid: 1), Entry(uid: 3, version: 1), Entry(uid: 5), Entry(uid: 4)]
        #expect(applyChecked(snapshot(("a", changed)), to: fixture) == [
            .deleteItems(section: 0, items: 1..<2), .updateItem(ip(0, 1)), .insertItems(section: 0, items: 2..<3),
        ])
    }

    @Test("Deleted runs are ranges, first to last, each counting the ones before it")
    func deletedRuns() {
        let fixture = storage(holding: snapshot(("a", entries(0, 1, 2, 3, 4, 5, 6, 7))))
        #expect(applyChecked(snapshot(("a", entries(0, 3, 7))), to: fixture) == [
            .deleteItems(section: 0, items: 1..<3), .deleteItems(section: 0, items: 2..<5),
        ])
    }

    @Test("The fewest moves within a section, each a moveItem that newIndexPath follows")
    func movesWithinSection() throws {
        let fixture = storage(holding: snapshot(("a", entries(1, 2, 3, 4))))
        fixture.storage.apply(snapshot(("a", entries(2, 3, 4, 1))))
        let update = try #require(fixture.delivered.first)
        #expect(update.changes == [.moveItem(from: ip(0, 0), to: ip(0, 3))])
        #expect(update.newIndexPath(for: ip(0, 0)) == ip(0, 3))
        #expect(update.newIndexPath(for: ip(0, 1)) == ip(0, 0))
        #expect(applyChecked(snapshot(("a", entries(1, 2, 3, 4))), to: fixture) == [.moveItem(from: ip(0, 3), to: ip(0, 0))])
        // Reversed: all but one move.
        #expect(applyChecked(snapshot(("a", entries(4, 3, 2, 1))), to: fixture).count == 3)
    }

    @Test("The update carries each changed item's new model, at its updateItem's index path")
    func updatedObjects() throws {
        let fixture = storage(holding: snapshot(("a", entries(1, 2, 3)), ("b", entries(4))))
        fixture.storage.apply(snapshot(("a", [Entry(uid: 2, version: 1), Entry(uid: 3)]), ("b", [Entry(uid: 4, version: 7), Entry(uid: 1)])))
        let update = try #require(fixture.delivered.first)
        let updated = update.changes.compactMap { change -> IndexPath? in
            if case .updateItem(let path) = change { return path } else { return nil }
        }
        #expect(updated.count == 2)
        #expect(Set(update.updatedObjects.keys) == Set(updated))
        let models = updated.compactMap { update.updatedObjects[$0] as? Entry }
        #expect(Set(models) == [Entry(uid: 2, version: 1), Entry(uid: 4, version: 7)])
    }

    @Test("An item moves to another section, changing content on the way")
    func moveAcrossSections() throws {
        let fixture = storage(holding: snapshot(("a", entries(1, 2)), ("b", entries(3))))
        fixture.storage.apply(snapshot(("a", entries(2)), ("b", [Entry(uid: 3), Entry(uid: 1, version: 2)])))
        let update = try #require(fixture.delivered.first)
        #expect(update.changes == [.moveItem(from: ip(0, 0), to: ip(1, 1)), .updateItem(ip(1, 1))])
        #expect(update.updatedObjects.mapValues { $0 as? Entry } == [ip(1, 1): Entry(uid: 1, version: 2)])
        #expect(update.newIndexPath(for: ip(0, 0)) == ip(1, 1))
        #expect(update.newIndexPath(for: ip(0, 1)) == ip(0, 0))
        #expect(update.newIndexPath(for: ip(1, 0)) == ip(1, 0))
    }

    @Test("Sections move (the fewest), carrying their items and headers")
    func sectionMoves() throws {
        var old = snapshot(("a", entries(1)), ("b", entries(2)), ("c", entries(3)))
        old.sections[2].header = "C"
        let fixture = storage(holding: old)
        var new = snapshot(("c", entries(3)), ("a", entries(1)), ("b", entries(2)))
        new.sections[0].header = "C"
        fixture.storage.apply(new)
        let update = try #require(fixture.delivered.first)
        #expect(update.changes == [.moveSection(from: 2, to: 0)])
        #expect(update.newIndexPath(for: ip(2, 0)) == ip(0, 0))
        #expect(update.newIndexPath(for: ip(0, 0)) == ip(1, 0))
        #expect(mismatch(fixture.storage, new) == nil)
    }

    @Test("A deleted section's kept items move out before it goes")
    func itemsLeaveADeletedSection() throws {
        let fixture = storage(holding: snapshot(("a", entries(1, 2)), ("b", entries(3))))
        fixture.storage.apply(snapshot(("b", entries(3, 1))))
        let update = try #require(fixture.delivered.first)
        #expect(update.changes == [.moveItem(from: ip(0, 0), to: ip(1, 1)), .deleteSection(0)])
        #expect(update.newIndexPath(for: ip(0, 0)) == ip(0, 1))
        #expect(update.newIndexPath(for: ip(0, 1)) == nil)
        #expect(update.newIndexPath(for: ip(1, 0)) == ip(0, 0))
    }

    @Test("An inserted section gets its header, then items moved in from another section")
    func itemsEnterAnInsertedSection() {
        let fixture = storage(holding: snapshot(("a", entries(1, 2, 3))))
        var new = snapshot(("a", entries(1, 3)), ("n", entries(2)))
        new.sections[1].header = "N"
        #expect(applyChecked(new, to: fixture) == [
            .insertSection(1), .supplementary(.header, .insert, section: 1), .moveItem(from: ip(0, 1), to: ip(1, 0)),
        ])
    }

    @Test("Sections inserted, deleted and moved while items cross between them")
    func sectionsAndItemsTogether() throws {
        let fixture = storage(holding: snapshot(("a", entries(1, 2, 3)), ("b", entries(4, 5)), ("c", entries(6)), ("d", entries(7, 8))))
        let new = snapshot(("d", entries(8, 1)), ("n", entries(5, 9)), ("a", entries(3, 2)), ("c", entries(6, 7)))
        applyChecked(new, to: fixture)
        let fixture2 = storage(holding: snapshot(("a", entries(1, 2, 3)), ("b", entries(4, 5)), ("c", entries(6)), ("d", entries(7, 8))))
        fixture2.storage.apply(new)
        let update = try #require(fixture2.delivered.first)
        let places: [(IndexPath, IndexPath?)] = [
            (ip(0, 0), ip(0, 1)), (ip(0, 1), ip(2, 1)), (ip(0, 2), ip(2, 0)), (ip(1, 0), nil), (ip(1, 1), ip(1, 0)),
            (ip(2, 0), ip(3, 0)), (ip(3, 0), ip(3, 1)), (ip(3, 1), ip(0, 0)),
        ]
        for (old, new) in places {
            #expect(update.newIndexPath(for: old) == new, "\(old) in \(update)")
        }
    }

    @Test("Repeated identities pair as often as they can; the extra ones are inserted or deleted")
    func repeatedIdentities() {
        let fixture = storage(holding: snapshot(("a", entries(1, 1, 2))))
        #expect(applyChecked(snapshot(("a", entries(1, 2, 1, 1))), to: fixture) == [
            .moveItem(from: ip(0, 2), to: ip(0, 1)), .insertItems(section: 0, items: 3..<4),
        ])
        #expect(applyChecked(snapshot(("a", entries(1))), to: fixture) == [.deleteItems(section: 0, items: 1..<4)])
        // Repeated section identities too.
        let sections = storage(holding: snapshot(("a", entries(1)), ("a", entries(2)), ("b", entries(3))))
        applyChecked(snapshot(("b", entries(3)), ("a", entries(2, 1)), ("a", []), ("a", entries(4))), to: sections)
        applyChecked(snapshot(("a", entries(5, 5, 5)), ("a", entries(5))), to: sections)
    }

    @Test("Header and footer models: inserted, deleted and updated; an equal one is left alone")
    func headersAndFooters() {
        var old = snapshot(("a", entries(1)), ("b", entries(2)))
        old.sections[0].header = "x"
        old.sections[0].footer = Entry(uid: 50)
        old.sections[1].header = 7
        let fixture = storage(holding: old)
        var new = old
        new.sections[0].header = "y"
        new.sections[0].footer = nil
        new.sections[1].header = 7
        new.sections[1].footer = "f"
        #expect(applyChecked(new, to: fixture) == [
            .supplementary(.header, .update, section: 0), .supplementary(.footer, .delete, section: 0),
            .supplementary(.footer, .insert, section: 1),
        ])
        // A model of another type is a change too.
        new.sections[1].header = "7"
        #expect(applyChecked(new, to: fixture) == [.supplementary(.header, .update, section: 1)])
    }

    @Test("An equal snapshot delivers nothing")
    func equalSnapshot() {
        let old = snapshot(("a", entries(1, 2)), ("b", []))
        let fixture = storage(holding: old)
        fixture.storage.apply(old)
        #expect(fixture.delivered.isEmpty)
        #expect(mismatch(fixture.storage, old) == nil)
    }

    @Test("Sections made without a snapshot pair by position with the sections no identity pairs")
    func sectionsWithoutIdentity() {
        let fixture = StorageFixture()
        fixture.storage.addItems(entries(1, 2, 3))
        fixture.storage.setSectionHeaderModel("H", forSection: 0)
        _ = fixture.delivered
        #expect(fixture.storage.section(atIndex: 0)?.identifier == nil)
        var new = snapshot(("main", entries(1, 3, 4)))
        new.sections[0].header = "H"
        #expect(applyChecked(new, to: fixture) == [.deleteItems(section: 0, items: 1..<2), .insertItems(section: 0, items: 2..<3)])
        #expect(fixture.storage.section(atIndex: 0)?.identifier == AnyHashable("main"))
    }

    @Test("Models of another type are deleted")
    func otherModelTypes() {
        let fixture = StorageFixture()
        fixture.storage.addItems(entries(1))
        fixture.storage.addItem("a note")
        fixture.storage.addItems([Entry(uid: 2), Entry(uid: 3)])
        fixture.storage.addItem(42, toSection: 1)
        _ = fixture.delivered
        #expect(applyChecked(snapshot(("main", entries(3, 1))), to: fixture) == [
            // The models that are not entries go first, first to last.
            .deleteItems(section: 0, items: 1..<2), .deleteItems(section: 1, items: 0..<1),
            // Section 0 pairs with "main" by position; the emptied section 1 goes.
            .deleteItems(section: 0, items: 1..<2), .deleteSection(1),
            .moveItem(from: ip(0, 1), to: ip(0, 0)),
        ])
    }

    @Test("Inside performUpdates an applied snapshot joins the batch; updateWithoutAnimations reloads")
    func batches() {
        let fixture = storage(holding: snapshot(("a", entries(1))))
        fixture.storage.performUpdates {
            fixture.storage.apply(snapshot(("a", entries(1, 2))))
            fixture.storage.addItem(Entry(uid: 3))
        }
        #expect(fixture.delivered == [StorageUpdate([.insertItems(section: 0, items: 1..<3)])])
        fixture.storage.updateWithoutAnimations {
            fixture.storage.apply(snapshot(("a", entries(4))))
        }
        #expect(fixture.recorder.take().reloads == 1)
        #expect(mismatch(fixture.storage, snapshot(("a", entries(4)))) == nil)
    }

    @Test("Items are kept in chunks of their own type")
    func typedStorage() {
        let fixture = storage(holding: snapshot(("a", entries(1, 2, 3))))
        #expect(fixture.storage.item(at: ip(0, 1)) as? Entry == Entry(uid: 2))
        #expect(fixture.storage.indexPath(forItem: Entry(uid: 3)) == ip(0, 2))
    }

    @Test("A thousand items: a run deleted, a run inserted, the first hundred shuffled")
    func largeShuffle() throws {
        var random = SeededGenerator(seed: 7)
        let old = (0..<1_000).map { Entry(uid: $0) }
        var new = old
        new.removeSubrange(400..<600)
        new.insert(contentsOf: (1_000..<1_200).map { Entry(uid: $0) }, at: 600)
        new[0..<100].shuffle(using: &random)
        new[900] = new[900].bumped
        let fixture = storage(holding: snapshot(("a", old)))
        fixture.storage.apply(snapshot(("a", new)))
        let update = try #require(fixture.delivered.first)
        for (position, entry) in old.enumerated() {
            #expect(update.newIndexPath(for: ip(0, position)) == new.firstIndex { $0.uid == entry.uid }.map { ip(0, $0) })
        }
        let difference = snapshot(("a", new)).difference(from: snapshot(("a", old)))
        #expect(differenceMismatch(difference, old: snapshot(("a", old)), new: snapshot(("a", new))) == nil)
        let moves = update.changes.filter { if case .moveItem = $0 { true } else { false } }.count
        #expect(moves == difference.movedItems.count)
        #expect(update.changes.count == moves + 3)
    }
}

@Suite("ListSnapshot and its difference")
struct SnapshotDifferenceTests {
    @Test("Sections from a flat list: in order of their first item, with their headers")
    func sectionedBy() {
        let items = [Entry(uid: 10), Entry(uid: 21), Entry(uid: 12), Entry(uid: 33), Entry(uid: 24)]
        let snapshot = ListSnapshot(items: items, sectionedBy: { "\($0.uid / 10)" }, header: { "Group \($0)" })
        #expect(snapshot.sectionIDs == ["1", "2", "3"])
        #expect(snapshot.sections.map { $0.items.map(\.uid) } == [[10, 12], [21, 24], [33]])
        #expect(snapshot.sections.map { $0.header as? String } == ["Group 1", "Group 2", "Group 3"])
        #expect(snapshot.sections.allSatisfy { $0.footer == nil })
        #expect(snapshot.numberOfItems == 5)
        #expect(snapshot.indexPath(ofItemWithID: 24) == ip(1, 1))
        #expect(snapshot.item(at: ip(2, 0)) == Entry(uid: 33))
        #expect(snapshot.items(inSection: "2") == [Entry(uid: 21), Entry(uid: 24)])
    }

    @Test("Building a snapshot step by step")
    func building() {
        var snapshot = EntrySnapshot()
        snapshot.appendSection("a", header: "A")
        snapshot.appendItems(entries(1, 2), toSection: "a")
        snapshot.appendItems(entries(3), toSection: "b")
        snapshot.appendItems(entries(4), toSection: "a")
        #expect(snapshot.sections.map(\.id) == ["a", "b"])
        #expect(snapshot.allItems.map(\.uid) == [1, 2, 4, 3])
        snapshot.removeItems { $0.uid.isMultiple(of: 2) }
        #expect(snapshot.allItems.map(\.uid) == [1, 3])
        snapshot.removeSections { $0.id == "a" }
        #expect(snapshot == ListSnapshot(sections: [.init(id: "b", items: entries(3))]))
        let sendable: any Sendable = snapshot
        #expect(sendable is EntrySnapshot)
    }

    @Test("Every kind of change, by index")
    func everyKind() {
        var old = snapshot(("a", entries(1, 2, 3)), ("b", entries(4, 5)), ("c", entries(7, 8)))
        old.sections[1].header = "B"
        var new = snapshot(("b", [Entry(uid: 5), Entry(uid: 4, version: 1), Entry(uid: 6)]), ("n", entries(1)), ("c", entries(8)))
        new.sections[0].header = "B2"
        new.sections[2].footer = "C"
        let difference = new.difference(from: old)
        #expect(difference.deletedSections == [0])
        #expect(difference.insertedSections == [1])
        #expect(difference.movedSections == [])
        #expect(difference.changedHeaders == [0])
        #expect(difference.changedFooters == [2])
        #expect(difference.deletedItems == [ip(2, 0)])
        #expect(difference.insertedItems == [ip(0, 2)])
        #expect(difference.movedItems == [.init(from: ip(1, 1), to: ip(0, 0)), .init(from: ip(0, 0), to: ip(1, 0))])
        #expect(difference.updatedItems == [.init(from: ip(1, 0), to: ip(0, 1))])
        #expect(differenceMismatch(difference, old: old, new: new) == nil)
        #expect(!difference.isEmpty)
        #expect(new.difference(from: new).isEmpty)
    }

    @Test("Moved sections: the fewest")
    func movedSections() {
        let old = snapshot(("a", []), ("b", []), ("c", []), ("d", []))
        let new = snapshot(("d", []), ("a", []), ("c", []), ("b", []))
        let difference = new.difference(from: old)
        #expect(difference.movedSections.count == 2)
        #expect(differenceMismatch(difference, old: old, new: new) == nil)
    }

    @Test("From and to empty")
    func empty() {
        let full = snapshot(("a", entries(1, 2)), ("b", entries(3)))
        let inserted = full.difference(from: EntrySnapshot())
        #expect(inserted.insertedSections == [0, 1])
        #expect(inserted.insertedItems.isEmpty && inserted.movedItems.isEmpty)
        let deleted = EntrySnapshot().difference(from: full)
        #expect(deleted.deletedSections == [0, 1])
        #expect(deleted.deletedItems.isEmpty)
        #expect(EntrySnapshot().difference(from: EntrySnapshot()).isEmpty)
    }

    @Test("Repeated identities pair in order, but from the end in a common trailing run")
    func repeated() {
        let old = snapshot(("a", entries(1, 1, 2, 1, 3)))
        let new = snapshot(("a", entries(2, 1, 1, 4)))
        let difference = new.difference(from: old)
        #expect(difference.deletedItems == [ip(0, 3), ip(0, 4)])
        #expect(difference.insertedItems == [ip(0, 3)])
        #expect(difference.movedItems == [.init(from: ip(0, 2), to: ip(0, 0))])
        #expect(differenceMismatch(difference, old: old, new: new) == nil)
        let trailing = snapshot(("a", entries(2, 1, 1)))
        let fromEnd = trailing.difference(from: snapshot(("a", entries(1, 1, 2, 1))))
        #expect(fromEnd.deletedItems == [ip(0, 1)])
        #expect(fromEnd.movedItems.count == 1)
        #expect(differenceMismatch(fromEnd, old: snapshot(("a", entries(1, 1, 2, 1))), new: trailing) == nil)
    }
}
