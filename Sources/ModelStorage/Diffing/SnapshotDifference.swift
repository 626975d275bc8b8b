import Foundation

/// What changed from one `ListSnapshot` to another, by index: the shape of a batch update
/// of a table or collection view.
///
/// Old indexes count the old snapshot, new indexes the new one. Items of a deleted section
/// are not listed as deleted, nor items of an inserted section as inserted (they go and
/// come with their section), except those that move: an item that moves is listed once, as
/// a move, wherever it goes. Lists are in ascending order of their old (deletions) or new
/// (everything else) indexes.
///
/// To change a `MemoryStorage` into a new snapshot and have its view follow, use
/// `MemoryStorage.apply(_:)`, which records these changes as one ordered `StorageUpdate`.
public struct SnapshotDifference: Hashable, Sendable, CustomStringConvertible {
    /// Something that was at `from` (old index) and is at `to` (new index).
    public struct Move<Index: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
        /// Where it was, in the old snapshot.
        public var from: Index
        /// Where it is, in the new snapshot.
        public var to: Index

        /// A move from `from` (old index) to `to` (new index).
        public init(from: Index, to: Index) {
            self.from = from
            self.to = to
        }

        public var description: String { "\(from)->\(to)" }
    }

    /// Old sections with no section of their identity in the new snapshot.
    public internal(set) var deletedSections: [Int] = []
    /// New sections with no section of their identity in the old snapshot.
    public internal(set) var insertedSections: [Int] = []
    /// Sections kept, out of order with the others kept: as few as possible.
    public internal(set) var movedSections: [Move<Int>] = []
    /// New indexes of kept sections whose header model appeared, went or changed.
    public internal(set) var changedHeaders: [Int] = []
    /// New indexes of kept sections whose footer model appeared, went or changed.
    public internal(set) var changedFooters: [Int] = []
    /// Old items with no item of their identity left for them in the new snapshot.
    public internal(set) var deletedItems: [IndexPath] = []
    /// New items with no item of their identity left for them in the old snapshot.
    public internal(set) var insertedItems: [IndexPath] = []
    /// Items kept that changed section, or are out of order with the items kept in their
    /// section: as few as possible.
    public internal(set) var movedItems: [Move<IndexPath>] = []
    /// Items kept whose content changed (`!=`), moved or not.
    public internal(set) var updatedItems: [Move<IndexPath>] = []

    /// An empty difference.
    public init() {}

    /// True when the two snapshots are equal.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty
            && changedHeaders.isEmpty && changedFooters.isEmpty && deletedItems.isEmpty
            && insertedItems.isEmpty && movedItems.isEmpty && updatedItems.isEmpty
    }

    public var description: String {
        var parts: [String] = []
        func add<T>(_ name: String, _ values: [T]) {
            if !values.isEmpty { parts.append("\(name) \(values.map { "\($0)" }.joined(separator: " "))") }
        }
        add("deleted sections", deletedSections)
        add("inserted sections", insertedSections)
        add("moved sections", movedSections)
        add("changed headers", changedHeaders)
        add("changed footers", changedFooters)
        add("deleted items", deletedItems.map(describe))
        add("inserted items", insertedItems.map(describe))
        add("moved items", movedItems.map { "\(describe($0.from))->\(describe($0.to))" })
        add("updated items", updatedItems.map { "\(describe($0.from))->\(describe($0.to))" })
        return "SnapshotDifference(" + (parts.isEmpty ? "empty" : parts.joined(separator: "; ")) + ")"
    }
}

extension ListSnapshot {
    /// What changed from `old` to this snapshot.
    ///
    /// Sections and items are paired by identity, in linear expected time (a hash table of
    /// identities; see `ListSnapshot` for repeated ones); the ones that stay in place are the
    /// most that can (a longest increasing subsequence, O(m log m) in the items kept in a
    /// section, O(m) when none moved), so that moves are as few as possible.
    @inlinable
    public func difference(from old: ListSnapshot) -> SnapshotDifference {
        let diff = SectionedDiff(old: old, new: self)
        var changedHeaders: [Int] = []
        var changedFooters: [Int] = []
        for (section, match) in diff.newSectionMatch.enumerated() where match >= 0 {
            if !supplementariesAreEqual(sections[section].header, old.sections[match].header) {
                changedHeaders.append(section)
            }
            if !supplementariesAreEqual(sections[section].footer, old.sections[match].footer) {
                changedFooters.append(section)
            }
        }
        return SnapshotDifference(diff, changedHeaders: changedHeaders, changedFooters: changedFooters)
    }
}

extension SnapshotDifference {
    /// The difference `diff` describes, by index.
    @usableFromInline
    init(_ diff: SectionedDiff, changedHeaders: [Int], changedFooters: [Int]) {
        self.changedHeaders = changedHeaders
        self.changedFooters = changedFooters
        let oldStarts = diff.oldStarts
        let newStarts = diff.newStarts
        for (section, match) in diff.oldSectionMatch.enumerated() where match < 0 {
            deletedSections.append(section)
        }
        for (section, match) in diff.newSectionMatch.enumerated() {
            if match < 0 {
                insertedSections.append(section)
            } else if !diff.sectionStays[section] {
                movedSections.append(.init(from: match, to: section))
            }
        }
        var deletedItems: [IndexPath] = []
        diff.oldMatch.withUnsafeBufferPointer { oldMatch in
            for (section, match) in diff.oldSectionMatch.enumerated() where match >= 0 {
                let start = oldStarts[section]
                for index in start..<oldStarts[section + 1] where oldMatch[index] < 0 {
                    deletedItems.append(IndexPath(item: index - start, section: section))
                }
            }
        }
        var insertedItems: [IndexPath] = []
        var movedItems: [Move<IndexPath>] = []
        var updatedItems: [Move<IndexPath>] = []
        diff.newMatch.withUnsafeBufferPointer { newMatch in
            diff.newFlags.withUnsafeBufferPointer { flags in
                for section in diff.newSectionMatch.indices {
                    let start = newStarts[section]
                    let isInserted = diff.newSectionMatch[section] < 0
                    for index in start..<newStarts[section + 1] {
                        let match = Int(newMatch[index])
                        guard match >= 0 else {
                            if !isInserted { insertedItems.append(IndexPath(item: index - start, section: section)) }
                            continue
                        }
                        let flag = flags[index]
                        guard flag != SectionedDiff.stays else { continue }
                        let oldSection = diff.oldSection(ofItem: match)
                        let from = IndexPath(item: match - oldStarts[oldSection], section: oldSection)
                        let to = IndexPath(item: index - start, section: section)
                        if flag & SectionedDiff.stays == 0 { movedItems.append(.init(from: from, to: to)) }
                        if flag & SectionedDiff.changed != 0 { updatedItems.append(.init(from: from, to: to)) }
                    }
                }
            }
        }
        self.deletedItems = deletedItems
        self.insertedItems = insertedItems
        self.movedItems = movedItems
        self.updatedItems = updatedItems
    }
}

extension SectionedDiff {
    /// The pairing of two snapshots.
    @inlinable
    init<SectionID, Item>(old: ListSnapshot<SectionID, Item>, new: ListSnapshot<SectionID, Item>) {
        let (oldItems, oldStarts) = Self.flatten(old.sections)
        let (newItems, newStarts) = Self.flatten(new.sections)
        self.init(oldSectionIDs: old.sections.map { Optional($0.id) }, oldItems: oldItems, oldStarts: oldStarts,
                  newSectionIDs: new.sections.map(\.id), newItems: newItems, newStarts: newStarts)
    }

    /// The items of all `sections` in one array (the section's own when there is one), and
    /// where each section's items start.
    @inlinable
    static func flatten<SectionID, Item>(_ sections: [ListSnapshot<SectionID, Item>.Section]) -> ([Item], [Int]) {
        var starts = [0]
        starts.reserveCapacity(sections.count + 1)
        var total = 0
        for section in sections {
            total += section.items.count
            starts.append(total)
        }
        if sections.count == 1 { return (sections[0].items, starts) }
        var items: [Item] = []
        items.reserveCapacity(total)
        for section in sections { items.append(contentsOf: section.items) }
        return (items, starts)
    }
}
