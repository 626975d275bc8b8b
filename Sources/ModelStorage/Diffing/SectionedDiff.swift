/// Which sections and items of an old and a new sectioned list are the same ones, which of
/// those stay in place, and which changed content: the common ground of
/// `ListSnapshot.difference(from:)` and `MemoryStorage.apply(_:)`.
///
/// Items are numbered across sections ("global" indexes: section after section); every
/// per-item array is contiguous and holds 32-bit indexes.
///
/// The matching is Heckel's: one pass over the new items builds a hash table of their
/// identities (each identity keeps the chain of its occurrences, first to last), one pass
/// over the old items pairs each with the next unpaired new occurrence of its identity, so
/// repeated identities pair in order, as often as they can, and the ones left over are
/// deleted or inserted. Common leading and trailing runs are paired before, position by
/// position, without hashing (a repeated identity in the trailing run pairs from the end).
/// Then, within each section kept, the paired items that stay in place are a longest
/// increasing subsequence of their old positions in new order (patience sorting:
/// O(m log m), O(m) when nothing moved); every other paired item moves. Sections are
/// paired and ordered the same way. Expected time O(n) besides the subsequences; memory a
/// few 32-bit integers per item.
@usableFromInline
struct SectionedDiff {
    /// Where each old section's items start in global indexes, and the total at the end.
    @usableFromInline var oldStarts: [Int]
    /// Where each new section's items start in global indexes, and the total at the end.
    @usableFromInline var newStarts: [Int]
    /// For each old section, the new section it is paired with, or -1 (deleted).
    @usableFromInline var oldSectionMatch: [Int]
    /// For each new section, the old section it is paired with, or -1 (inserted).
    @usableFromInline var newSectionMatch: [Int]
    /// For each new section: paired, and in order with the other sections that stay.
    @usableFromInline var sectionStays: [Bool]
    /// For each old item, the new item it is paired with, or -1 (deleted).
    @usableFromInline var oldMatch: [Int32]
    /// For each new item, the old item it is paired with, or -1 (inserted).
    @usableFromInline var newMatch: [Int32]
    /// For each new item, `stays` and `changed` bits.
    @usableFromInline var newFlags: [UInt8]

    /// The new item is paired with an old one of the section paired with its own, and is
    /// in order with the others that stay: it does not move.
    @usableFromInline static let stays: UInt8 = 1
    /// The new item is paired with an old one whose content differs (`!=`).
    @usableFromInline static let changed: UInt8 = 2

    var oldSectionCount: Int { oldStarts.count - 1 }
    var newSectionCount: Int { newStarts.count - 1 }

    /// Pairs `oldItems` (section `s` holding `oldItems[oldStarts[s]..<oldStarts[s + 1]]`)
    /// with `newItems` the same way. A nil old section identity (a section the storage
    /// made without one) pairs, in order, with the new sections no identity paired.
    @inlinable
    init<SectionID: Hashable, Item: Identifiable & Equatable>(
        oldSectionIDs: [SectionID?], oldItems: [Item], oldStarts: [Int],
        newSectionIDs: [SectionID], newItems: [Item], newStarts: [Int]
    ) {
        precondition(oldItems.count < Int(Int32.max) && newItems.count < Int(Int32.max), "too many items to compare")
        let (oldSectionMatch, newSectionMatch) = Self.matchSections(old: oldSectionIDs, new: newSectionIDs)

        var oldMatch = [Int32](repeating: -1, count: oldItems.count)
        var newMatch = [Int32](repeating: -1, count: newItems.count)
        oldItems.withUnsafeBufferPointer { old in
            newItems.withUnsafeBufferPointer { new in
                oldMatch.withUnsafeMutableBufferPointer { oldMatch in
                    newMatch.withUnsafeMutableBufferPointer { newMatch in
                        matchIdentities(old: old, new: new, oldMatch: oldMatch, newMatch: newMatch)
                    }
                }
            }
        }

        var newFlags = [UInt8](repeating: 0, count: newItems.count)
        oldItems.withUnsafeBufferPointer { old in
            newItems.withUnsafeBufferPointer { new in
                newMatch.withUnsafeBufferPointer { newMatch in
                    newFlags.withUnsafeMutableBufferPointer { flags in
                        Self.classifyItems(old: old, new: new, newMatch: newMatch, flags: flags,
                                           oldStarts: oldStarts, newStarts: newStarts, newSectionMatch: newSectionMatch)
                    }
                }
            }
        }

        let sectionStays = Self.sectionsThatStay(newSectionMatch)
        self.oldStarts = oldStarts
        self.newStarts = newStarts
        self.oldSectionMatch = oldSectionMatch
        self.newSectionMatch = newSectionMatch
        self.sectionStays = sectionStays
        self.oldMatch = oldMatch
        self.newMatch = newMatch
        self.newFlags = newFlags
    }

    // MARK: Sections

    /// For each new section: paired, and in a longest increasing subsequence of the paired
    /// sections' old indexes in new order.
    @usableFromInline
    static func sectionsThatStay(_ newSectionMatch: [Int]) -> [Bool] {
        var stays = [Bool](repeating: false, count: newSectionMatch.count)
        var order: [Int32] = []
        var orderSections: [Int] = []
        for (section, match) in newSectionMatch.enumerated() where match >= 0 {
            order.append(Int32(match))
            orderSections.append(section)
        }
        var members = [Bool](repeating: false, count: order.count)
        var scratch = LongestIncreasingSubsequence(capacity: order.count)
        order.withUnsafeBufferPointer { values in
            members.withUnsafeMutableBufferPointer { members in
                scratch.mark(values, members)
            }
        }
        for (index, section) in orderSections.enumerated() where members[index] {
            stays[section] = true
        }
        return stays
    }

    /// Pairs sections by identity (repeated identities in order), then sections without
    /// identity with the new ones left, in order.
    @inlinable
    static func matchSections<SectionID: Hashable>(old: [SectionID?], new: [SectionID]) -> ([Int], [Int]) {
        var oldMatch = [Int](repeating: -1, count: old.count)
        var newMatch = [Int](repeating: -1, count: new.count)
        // The first unpaired new section of each identity; `next` chains the later ones.
        var first: [SectionID: Int] = [:]
        first.reserveCapacity(new.count)
        var next = [Int](repeating: -1, count: new.count)
        for index in new.indices.reversed() {
            next[index] = first[new[index]] ?? -1
            first[new[index]] = index
        }
        for (index, id) in old.enumerated() {
            guard let id, let match = first[id] else { continue }
            oldMatch[index] = match
            newMatch[match] = index
            first[id] = next[match] >= 0 ? next[match] : nil
        }
        var free = 0
        for index in old.indices where old[index] == nil {
            while free < new.count, newMatch[free] >= 0 { free += 1 }
            guard free < new.count else { break }
            oldMatch[index] = free
            newMatch[free] = index
            free += 1
        }
        return (oldMatch, newMatch)
    }

    // MARK: Items

    /// Marks, in each new section, the paired items that stay and the ones whose content
    /// changed.
    @inlinable
    static func classifyItems<Item: Equatable>(
        old: UnsafeBufferPointer<Item>, new: UnsafeBufferPointer<Item>,
        newMatch: UnsafeBufferPointer<Int32>, flags: UnsafeMutableBufferPointer<UInt8>,
        oldStarts: [Int], newStarts: [Int], newSectionMatch: [Int]
    ) {
        // The old positions of the items paired within the section, in new order, and
        // where each is in the section.
        var largestSection = 0
        for section in newSectionMatch.indices {
            largestSection = max(largestSection, newStarts[section + 1] - newStarts[section])
        }
        let values = UnsafeMutableBufferPointer<Int32>.allocate(capacity: largestSection)
        let positions = UnsafeMutableBufferPointer<Int32>.allocate(capacity: largestSection)
        let members = UnsafeMutableBufferPointer<Bool>.allocate(capacity: largestSection)
        defer {
            values.deallocate()
            positions.deallocate()
            members.deallocate()
        }
        var scratch = LongestIncreasingSubsequence(capacity: largestSection)

        for section in newSectionMatch.indices {
            let oldSection = newSectionMatch[section]
            let oldRange = oldSection >= 0 ? oldStarts[oldSection]..<oldStarts[oldSection + 1] : 0..<0
            var count = 0
            for index in newStarts[section]..<newStarts[section + 1] {
                let match = Int(newMatch[index])
                guard match >= 0 else { continue }
                if old[match] != new[index] { flags[index] = changed }
                if oldRange.contains(match) {
                    values[count] = Int32(match)
                    positions[count] = Int32(index)
                    count += 1
                }
            }
            guard count > 0 else { continue }
            scratch.mark(UnsafeBufferPointer(rebasing: values[0..<count]), UnsafeMutableBufferPointer(rebasing: members[0..<count]))
            for index in 0..<count where members[index] {
                flags[Int(positions[index])] |= stays
            }
        }
    }

    /// The old section holding old item `item`.
    func oldSection(ofItem item: Int) -> Int {
        Self.section(of: item, starts: oldStarts)
    }

    /// The last section whose items start at or before `item` (empty sections before it
    /// start there too).
    private static func section(of item: Int, starts: [Int]) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= item { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
