import Foundation

/// The header and footer changes of one new section (nil: unchanged, or absent in both).
@usableFromInline
struct SupplementaryChanges {
    @usableFromInline var header: ChangeType?
    @usableFromInline var footer: ChangeType?

    @inlinable
    init(header: ChangeType?, footer: ChangeType?) {
        self.header = header
        self.footer = footer
    }
}

/// Writes a `SectionedDiff` as an ordered log of `StorageChange`s that, replayed in order,
/// turns the old sections into the new ones, with each kept item carried by its own
/// `moveItem` (or left in place) so that `StorageUpdate.newIndexPath(for:)` follows it.
///
/// The log, front to back:
/// 1. Deletions, first to last, each index counting the ones before it: old sections with
///    nothing kept, and the items not kept of the sections kept. An old section whose
///    identity is gone but some of whose items are kept elsewhere (a "husk") stays until
///    they have left.
/// 2. For each new section in order: the section is inserted, moved into place, or left
///    where it is (the sections kept in place are a longest increasing subsequence);
///    its header and footer changes; then its items in order: each inserted, moved in
///    (from wherever it is now, in this section or another), or left in place (updated
///    in place when its content changed; a moved item whose content changed is updated
///    after its move).
/// 3. The husks are deleted.
///
/// Indexes of the intermediate states come from a simulation: every section, and every
/// item of a section, has a slot in a fixed order that merges its old order with its new
/// one (the kept-in-place ones are common to both; between two of them, the new arrivals
/// come first, then the old ones still to leave), and a Fenwick tree counts the occupied
/// slots before any slot. So an index costs O(log n), and the log O(n + changes × log n).
/// Items and sections are placed in ascending new order, so a view translating the log
/// (`FlatLayout`) mostly works at the end of what it has already changed.
enum SnapshotChangeLog {
    /// Writes `diff` into `update`; `newModel(section, item)` is the model of item `item`
    /// of new section `section`, kept in `updatedObjects` for each item updated.
    static func record(_ diff: SectionedDiff, supplementaries: [SupplementaryChanges], into update: inout StorageUpdate,
                       newModel: (_ section: Int, _ item: Int) -> Any) {
        diff.oldMatch.withUnsafeBufferPointer { oldMatch in
            diff.newMatch.withUnsafeBufferPointer { newMatch in
                diff.newFlags.withUnsafeBufferPointer { flags in
                    var writer = Writer(diff: diff, oldMatch: oldMatch, newMatch: newMatch, flags: flags)
                    writer.write(supplementaries, into: &update, newModel: newModel)
                }
            }
        }
    }

    private struct Writer {
        let diff: SectionedDiff
        let oldMatch: UnsafeBufferPointer<Int32>
        let newMatch: UnsafeBufferPointer<Int32>
        let flags: UnsafeBufferPointer<UInt8>
        let oldStarts: [Int]
        let newStarts: [Int]

        /// Section "entities": new section `t` is entity `t`, with the old section paired
        /// with it; husk `k` is entity `newSectionCount + k`.
        var entityOfOldSection: [Int] = []
        var husks: [Int] = []
        /// Each entity's section slot now, and the slot it ends in.
        var sectionSlot: [Int] = []
        var sectionTarget: [Int] = []
        var sectionCounts = SlotCounts()
        /// Each item's slot in its entity's block: kept old items, and new items.
        var oldSlot: [Int32] = []
        var newSlot: [Int32] = []
        var itemCounts = SlotCounts()

        init(diff: SectionedDiff, oldMatch: UnsafeBufferPointer<Int32>, newMatch: UnsafeBufferPointer<Int32>, flags: UnsafeBufferPointer<UInt8>) {
            self.diff = diff
            self.oldMatch = oldMatch
            self.newMatch = newMatch
            self.flags = flags
            oldStarts = diff.oldStarts
            newStarts = diff.newStarts
        }

        mutating func write(_ supplementaries: [SupplementaryChanges], into update: inout StorageUpdate,
                            newModel: (_ section: Int, _ item: Int) -> Any) {
            let hasKeptItems = findHusks()
            writeDeletions(hasKeptItems, into: &update)
            layOutSectionSlots()
            layOutItemSlots()
            for section in 0..<diff.newSectionCount {
                let index = placeSection(section, into: &update)
                if let change = supplementaries[section].header { update.append(.supplementary(.header, change, section: index)) }
                if let change = supplementaries[section].footer { update.append(.supplementary(.footer, change, section: index)) }
                placeItems(of: section, at: index, into: &update, newModel: newModel)
            }
            for husk in husks.indices {
                let entity = diff.newSectionCount + husk
                let index = sectionCounts.prefix(0, sectionSlot[entity])
                sectionCounts.add(0, sectionSlot[entity], -1)
                update.append(.deleteSection(index))
            }
        }

        /// Finds the old sections deleted whose items are partly kept (the husks), and
        /// numbers the entities. Returns whether each old section has a kept item.
        private mutating func findHusks() -> [Bool] {
            let oldSectionCount = diff.oldSectionCount
            var hasKeptItems = [Bool](repeating: false, count: oldSectionCount)
            entityOfOldSection = [Int](repeating: -1, count: oldSectionCount)
            for section in 0..<oldSectionCount {
                let match = diff.oldSectionMatch[section]
                if match >= 0 {
                    entityOfOldSection[section] = match
                    continue
                }
                for index in oldStarts[section]..<oldStarts[section + 1] where oldMatch[index] >= 0 {
                    hasKeptItems[section] = true
                    break
                }
                if hasKeptItems[section] {
                    entityOfOldSection[section] = diff.newSectionCount + husks.count
                    husks.append(section)
                }
            }
            return hasKeptItems
        }

        /// Step 1: old sections with nothing kept, and the items not kept of the kept
        /// sections, first to last.
        private func writeDeletions(_ hasKeptItems: [Bool], into update: inout StorageUpdate) {
            var deletedSections = 0
            for section in 0..<diff.oldSectionCount {
                if diff.oldSectionMatch[section] < 0 {
                    if !hasKeptItems[section] {
                        update.append(.deleteSection(section - deletedSections))
                        deletedSections += 1
                    }
                    continue
                }
                let start = oldStarts[section]
                let end = oldStarts[section + 1]
                var deleted = 0
                var index = start
                while index < end {
                    guard oldMatch[index] < 0 else {
                        index += 1
                        continue
                    }
                    var runEnd = index + 1
                    while runEnd < end, oldMatch[runEnd] < 0 { runEnd += 1 }
                    let at = index - start - deleted
                    update.append(.deleteItems(section: section - deletedSections, items: at..<(at + runEnd - index)))
                    deleted += runEnd - index
                    index = runEnd
                }
            }
        }

        /// The section slots: the sections left after step 1 in their order, merged with
        /// the new sections in theirs.
        private mutating func layOutSectionSlots() {
            let entityCount = diff.newSectionCount + husks.count
            sectionSlot = [Int](repeating: -1, count: entityCount)
            sectionTarget = [Int](repeating: -1, count: entityCount)
            var occupied: [Int32] = []
            var old = 0
            func takeOld(upTo bound: Int) {
                while old < bound {
                    let entity = entityOfOldSection[old]
                    if entity >= 0 {
                        sectionSlot[entity] = occupied.count
                        occupied.append(1)
                    }
                    old += 1
                }
            }
            for section in 0..<diff.newSectionCount {
                if diff.sectionStays[section] {
                    let match = diff.newSectionMatch[section]
                    takeOld(upTo: match)
                    sectionSlot[section] = occupied.count
                    sectionTarget[section] = occupied.count
                    occupied.append(1)
                    old = match + 1
                } else {
                    sectionTarget[section] = occupied.count
                    occupied.append(0)
                }
            }
            takeOld(upTo: diff.oldSectionCount)
            sectionCounts = SlotCounts(blockStarts: [0, occupied.count], occupancy: occupied)
        }

        /// The item slots of each entity, in one block each.
        private mutating func layOutItemSlots() {
            oldSlot = [Int32](repeating: -1, count: oldMatch.count)
            newSlot = [Int32](repeating: -1, count: newMatch.count)
            var occupied: [Int32] = []
            occupied.reserveCapacity(oldMatch.count + newMatch.count)
            var blockStarts: [Int] = [0]
            blockStarts.reserveCapacity(diff.newSectionCount + husks.count + 1)
            for section in 0..<diff.newSectionCount {
                let blockStart = occupied.count
                let match = diff.newSectionMatch[section]
                var old = match >= 0 ? oldStarts[match] : 0
                let oldEnd = match >= 0 ? oldStarts[match + 1] : 0
                for index in newStarts[section]..<newStarts[section + 1] {
                    if flags[index] & SectionedDiff.stays != 0 {
                        let kept = Int(newMatch[index])
                        while old < kept {
                            if oldMatch[old] >= 0 {
                                oldSlot[old] = Int32(occupied.count - blockStart)
                                occupied.append(1)
                            }
                            old += 1
                        }
                        oldSlot[kept] = Int32(occupied.count - blockStart)
                        newSlot[index] = oldSlot[kept]
                        occupied.append(1)
                        old = kept + 1
                    } else {
                        newSlot[index] = Int32(occupied.count - blockStart)
                        occupied.append(0)
                    }
                }
                while old < oldEnd {
                    if oldMatch[old] >= 0 {
                        oldSlot[old] = Int32(occupied.count - blockStart)
                        occupied.append(1)
                    }
                    old += 1
                }
                blockStarts.append(occupied.count)
            }
            for section in husks {
                let blockStart = occupied.count
                for index in oldStarts[section]..<oldStarts[section + 1] {
                    oldSlot[index] = Int32(occupied.count - blockStart)
                    occupied.append(1)
                }
                blockStarts.append(occupied.count)
            }
            itemCounts = SlotCounts(blockStarts: blockStarts, occupancy: occupied)
        }

        /// Step 2 for new section `section`: inserts it or moves it into place; returns
        /// its index now.
        private mutating func placeSection(_ section: Int, into update: inout StorageUpdate) -> Int {
            let target = sectionTarget[section]
            if diff.newSectionMatch[section] < 0 {
                sectionCounts.add(0, target, 1)
                sectionSlot[section] = target
                let index = sectionCounts.prefix(0, target)
                update.append(.insertSection(index))
                return index
            }
            let slot = sectionSlot[section]
            if slot != target {
                let from = sectionCounts.prefix(0, slot)
                sectionCounts.add(0, slot, -1)
                sectionCounts.add(0, target, 1)
                sectionSlot[section] = target
                let to = sectionCounts.prefix(0, target)
                if from != to { update.append(.moveSection(from: from, to: to)) }
                return to
            }
            return sectionCounts.prefix(0, slot)
        }

        /// Step 2 for the items of new section `section`, now at `sectionIndex`.
        private mutating func placeItems(of section: Int, at sectionIndex: Int, into update: inout StorageUpdate,
                                         newModel: (_ section: Int, _ item: Int) -> Any) {
            for index in newStarts[section]..<newStarts[section + 1] {
                let slot = Int(newSlot[index])
                let flag = flags[index]
                if flag & SectionedDiff.stays != 0 {
                    if flag & SectionedDiff.changed != 0 {
                        let at = IndexPath(item: itemCounts.prefix(section, slot), section: sectionIndex)
                        update.appendItemUpdate(at: at, model: newModel(section, index - newStarts[section]))
                    }
                    continue
                }
                let match = Int(newMatch[index])
                if match < 0 {
                    itemCounts.add(section, slot, 1)
                    let at = itemCounts.prefix(section, slot)
                    update.append(.insertItems(section: sectionIndex, items: at..<(at + 1)))
                    continue
                }
                let entity = entityOfOldSection[diff.oldSection(ofItem: match)]
                let fromSlot = Int(oldSlot[match])
                let from = IndexPath(item: itemCounts.prefix(entity, fromSlot), section: sectionCounts.prefix(0, sectionSlot[entity]))
                itemCounts.add(entity, fromSlot, -1)
                itemCounts.add(section, slot, 1)
                let to = IndexPath(item: itemCounts.prefix(section, slot), section: sectionIndex)
                if from != to { update.append(.moveItem(from: from, to: to)) }
                if flag & SectionedDiff.changed != 0 { update.appendItemUpdate(at: to, model: newModel(section, index - newStarts[section])) }
            }
        }
    }
}

/// Occupied slots in blocks of slots, counted by one Fenwick tree per block, all in one
/// buffer: `prefix` and `add` cost O(log block size).
struct SlotCounts {
    private var tree: [Int32] = []
    private var blockStarts: [Int] = [0]

    init() {}

    /// Block `b` holds slots `0..<(blockStarts[b + 1] - blockStarts[b])`; `occupancy` gives
    /// each slot's starting count (0 or 1), block after block.
    init(blockStarts: [Int], occupancy: [Int32]) {
        self.blockStarts = blockStarts
        tree = occupancy
        tree.withUnsafeMutableBufferPointer { tree in
            for block in 0..<(blockStarts.count - 1) {
                let base = blockStarts[block]
                let size = blockStarts[block + 1] - base
                var position = 1
                while position <= size {
                    let parent = position + (position & -position)
                    if parent <= size { tree[base + parent - 1] += tree[base + position - 1] }
                    position += 1
                }
            }
        }
    }

    /// The number of occupied slots of `block` before `slot`.
    func prefix(_ block: Int, _ slot: Int) -> Int {
        let base = blockStarts[block]
        var sum: Int32 = 0
        var position = slot
        while position > 0 {
            sum += tree[base + position - 1]
            position &= position - 1
        }
        return Int(sum)
    }

    /// Adds `delta` to the count of `slot` in `block`.
    mutating func add(_ block: Int, _ slot: Int, _ delta: Int32) {
        let base = blockStarts[block]
        let size = blockStarts[block + 1] - base
        var position = slot + 1
        while position <= size {
            tree[base + position - 1] += delta
            position += position & -position
        }
    }
}
