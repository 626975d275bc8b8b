import Foundation

extension MemoryStorage {
    /// Makes the storage hold exactly `snapshot` (its sections, their identities, header
    /// and footer models, and items), recording only what changed as one `StorageUpdate`.
    ///
    /// Sections and items are paired by identity with what the storage holds (see
    /// `ListSnapshot.difference(from:)`): a kept item that moves, within its section or to
    /// another, is recorded as a `moveItem`, so `StorageUpdate.newIndexPath(for:)` follows
    /// it (and a view keeps it selected); a kept item whose content changed (`!=`) is an
    /// `updateItem`, shown in place; the others are deleted or inserted. Header and footer
    /// models that appear, go or differ are `supplementary` changes. Applying an equal
    /// snapshot delivers nothing.
    ///
    /// A section keeps its identity (`SectionModel.identifier`) until another snapshot or
    /// `setSection(_:forSection:)` replaces it. Sections made otherwise have none: they are
    /// paired, in order, with the snapshot's sections that no identity pairs. Models that
    /// are not `Item`s are deleted.
    ///
    /// The update's changes are in order (see `StorageChange`): deletions first to last,
    /// then each section in its new order, placed and filled item by item, then old
    /// sections whose items all moved elsewhere. Expected time O(n + changes × log n).
    @inlinable
    public func apply<SectionID, Item>(_ snapshot: ListSnapshot<SectionID, Item>) {
        checkThread()
        let old = storedContents(SectionID.self, Item.self)
        let (newItems, newStarts) = SectionedDiff.flatten(snapshot.sections)
        let diff = SectionedDiff(oldSectionIDs: old.sectionIDs, oldItems: old.items, oldStarts: old.starts,
                                 newSectionIDs: snapshot.sections.map(\.id), newItems: newItems, newStarts: newStarts)
        var supplementaries: [SupplementaryChanges] = []
        supplementaries.reserveCapacity(snapshot.sections.count)
        for (index, section) in snapshot.sections.enumerated() {
            let match = diff.newSectionMatch[index]
            supplementaries.append(SupplementaryChanges(
                header: Self.change(from: match >= 0 ? old.headers[match] : nil, to: section.header),
                footer: Self.change(from: match >= 0 ? old.footers[match] : nil, to: section.footer)))
        }
        replaceContents(with: Self.sectionModels(of: snapshot), diff: diff, supplementaries: supplementaries, others: old.others)
    }

    /// What the storage holds, for a diff with `Item`s: the models that are `Item`s, section
    /// after section, and where each section's start; the positions of the other models in
    /// each section; the sections' identities, header and footer models.
    @usableFromInline
    func storedContents<SectionID, Item>(_: SectionID.Type, _: Item.Type) -> StoredContents<SectionID, Item> {
        var contents = StoredContents<SectionID, Item>()
        contents.items.reserveCapacity(totalNumberOfItems)
        for section in sections {
            var others: [Int] = []
            section.models.appendModels(as: Item.self, to: &contents.items, others: &others)
            contents.starts.append(contents.items.count)
            contents.others.append(others)
            contents.sectionIDs.append(section.identifier?.base as? SectionID)
            contents.headers.append(section.headerModel)
            contents.footers.append(section.footerModel)
        }
        return contents
    }

    /// `snapshot`'s sections as the storage keeps them: items in chunks of their own type.
    @usableFromInline
    static func sectionModels<SectionID, Item>(of snapshot: ListSnapshot<SectionID, Item>) -> [SectionModel] {
        snapshot.sections.map { section in
            var model = SectionModel(items: section.items, headerModel: section.header, footerModel: section.footer)
            model.identifier = AnyHashable(section.id)
            return model
        }
    }

    /// Records the deletion of the models that are not `Item`s (`others`: their positions
    /// in each section), then the changes `diff` describes, and replaces the sections; a
    /// new section paired with an old one stays that section for `sectionIndex(for:)`.
    @usableFromInline
    func replaceContents(with newSections: [SectionModel], diff: SectionedDiff, supplementaries: [SupplementaryChanges], others: [[Int]]) {
        var newSections = newSections
        for (index, match) in diff.newSectionMatch.enumerated() where match >= 0 {
            newSections[index].instance = sections[match].instance
        }
        record { update in
            for (section, positions) in others.enumerated() {
                for (deleted, position) in positions.enumerated() {
                    update.append(.deleteItems(section: section, items: (position - deleted)..<(position - deleted + 1)))
                }
            }
            SnapshotChangeLog.record(diff, supplementaries: supplementaries, into: &update) { newSections[$0].models[$1] }
            sections = newSections
        }
    }

    /// The change from a stored header or footer model to a snapshot's.
    @usableFromInline
    static func change(from old: Any?, to new: (any Equatable & Sendable)?) -> ChangeType? {
        let newModel = new.flatMap { unwrap($0) }
        switch (old, newModel) {
        case (nil, nil): return nil
        case (nil, _): return .insert
        case (_, nil): return .delete
        default: return supplementariesAreEqual(new, old) ? nil : .update
        }
    }
}

/// A storage's content, read for a diff with a snapshot of `Item`s.
@usableFromInline
struct StoredContents<SectionID: Hashable, Item> {
    /// The models that are `Item`s, section after section.
    @usableFromInline var items: [Item] = []
    /// Where each section's `Item`s start in `items`, and their total at the end.
    @usableFromInline var starts: [Int] = [0]
    /// The positions of the other models, for each section.
    @usableFromInline var others: [[Int]] = []
    /// Each section's identity, when it has one of type `SectionID`.
    @usableFromInline var sectionIDs: [SectionID?] = []
    @usableFromInline var headers: [Any?] = []
    @usableFromInline var footers: [Any?] = []

    @usableFromInline
    init() {}
}
