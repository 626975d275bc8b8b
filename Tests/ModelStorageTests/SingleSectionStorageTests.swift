import Foundation
import ModelStorage
import TestSupport
import Testing

/// DTModelStorage's single-section storages: whole arrays in, the changes out.
@Suite("SingleSectionStorage")
struct SingleSectionStorageTests {
    struct Note: Identifiable, Equatable {
        let id: Int
        var text: String
        init(_ id: Int, _ text: String) {
            self.id = id
            self.text = text
        }
    }

    let recorder = UpdateRecorder()

    private func storage(_ items: [Note]) -> SingleSectionStorage<Note> {
        let storage = SingleSectionStorage(items: items)
        storage.delegate = recorder
        return storage
    }

    /// The one update delivered since the last call.
    private func delivered() throws -> StorageUpdate {
        let (updates, reloads) = recorder.take()
        #expect(reloads == 0)
        return try #require(updates.count == 1 ? updates[0] : nil, "\(updates.count) updates")
    }

    @Test("setItems tells the fewest changes: two items swapped are one move, no deletion")
    func swapped() throws {
        let storage = storage([Note(1, "foo"), Note(2, "bar")])
        storage.setItems([Note(2, "bar"), Note(1, "foo")])
        let update = try delivered()
        #expect(update.objectChanges.map(\.0) == [.move])
        #expect(storage.items == [Note(2, "bar"), Note(1, "foo")])
        storage.setItems(storage.items)
        #expect(recorder.take().updates.isEmpty)
    }

    @Test("addItems appends by default, an identity held again making a second item")
    func additive() throws {
        let storage = storage([Note(1, "foo"), Note(2, "bar")])
        storage.addItems([Note(1, "bar"), Note(3, "xyz")])
        #expect(try delivered().objectChanges.map(\.1) == [[ip(0, 2)], [ip(0, 3)]])
        #expect(storage.items == [Note(1, "foo"), Note(2, "bar"), Note(1, "bar"), Note(3, "xyz")])
    }

    @Test("addItems updating old values: the item held is updated where it is, the new one appended")
    func updateOldValues() throws {
        let storage = storage([Note(1, "foo"), Note(2, "bar")])
        storage.addItems([Note(1, "bar"), Note(3, "xyz")], .updateOldValues)
        let update = try delivered()
        #expect(update.objectChanges.map(\.0) == [.insert, .update])
        #expect(update.objectChanges.map(\.1) == [[ip(0, 2)], [ip(0, 0)]])
        #expect(storage.items == [Note(1, "bar"), Note(2, "bar"), Note(3, "xyz")])
    }

    @Test("addItems deleting old values: the item held moves to its new place with its new content, kept as the same row")
    func deleteOldValues() throws {
        let storage = storage([Note(1, "foo"), Note(2, "bar")])
        storage.addItems([Note(1, "bar"), Note(3, "xyz")], .deleteOldValues)
        let update = try delivered()
        #expect(update.objectChanges.filter { $0.0 == .delete }.isEmpty)
        #expect(update.objectChanges.filter { $0.0 == .move }.count == 1)
        #expect(update.objectChanges.filter { $0.0 == .insert }.map(\.1) == [[ip(0, 2)]])
        #expect(update.objectChanges.filter { $0.0 == .update }.map(\.1) == [[ip(0, 0)]])
        #expect(storage.items == [Note(2, "bar"), Note(1, "bar"), Note(3, "xyz")])
    }

    @Test("the strategies on their own, with identities repeated among the new items")
    func strategies() {
        let old = [Note(1, "a"), Note(2, "b")]
        let new = [Note(3, "c"), Note(1, "A"), Note(3, "C")]
        #expect(AdditiveAccumulationStrategy().accumulate(oldItems: old, newItems: new) == old + new)
        #expect(UpdateOldValuesAccumulationStrategy().accumulate(oldItems: old, newItems: new) == [Note(1, "A"), Note(2, "b"), Note(3, "C")])
        #expect(DeleteOldValuesAccumulationStrategy().accumulate(oldItems: old, newItems: new) == [Note(2, "b")] + new)
    }

    @Test("one section, read as any storage; a header or footer changed is an update of its section")
    func readsAndSupplementaries() throws {
        let storage = storage([Note(1, "a"), Note(2, "b"), Note(3, "c")])
        #expect(storage.numberOfSections() == 1)
        #expect(storage.numberOfItems(inSection: 0) == 3)
        #expect(storage.numberOfItems(inSection: 1) == 0)
        #expect((storage.item(at: ip(0, 2)) as? Note) == Note(3, "c"))
        #expect(storage.item(at: ip(0, 3)) == nil)
        #expect(storage.item(at: ip(1, 0)) == nil)
        storage.headerModel = "Notes"
        #expect(try delivered().sectionChanges.map(\.0) == [.update])
        #expect(storage.headerModel(forSection: 0) as? String == "Notes")
        #expect(storage.footerModel(forSection: 0) == nil)
        #expect(storage.snapshot().numberOfItems(inSection: 0) == 3)
    }
}
