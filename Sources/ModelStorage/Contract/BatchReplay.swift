import Foundation

/// Replays an ordered log of changes (`StorageUpdate.changes`) to find what it did under
/// UIKit's batch rule, which DTModelStorage's `objectChanges` and `sectionChanges` follow:
/// deletions and reloads at their index paths before the batch, insertions at theirs after
/// it, moves from before to after.
///
/// It follows the items and sections that changed, never the storage's contents: the
/// sections and items the log does not touch stand for themselves as runs with no end, so
/// the cost is the log's, whatever the storage holds. A change that does not fit (an index
/// the log never made) is passed over: an update built by hand cannot trap here.
struct BatchReplay {
    /// Items of a section, in order.
    private enum Piece {
        /// Items that were at `items` of the section before the batch, not moved since (the
        /// section's last piece has no end).
        case unmoved(Range<Int>)
        /// An item the batch moved, which was at this index path before it.
        case moved(IndexPath)
        /// Items the batch inserted.
        case inserted(Int)

        var count: Int {
            switch self {
            case .unmoved(let items): items.count
            case .moved: 1
            case .inserted(let count): count
            }
        }
    }

    /// A section: one that was at `old` before the batch (nil: inserted by it), and its items.
    private struct Section {
        var old: Int?
        var pieces: [Piece]
        var moved = false
    }

    /// Far past any real count: the end of a section's untouched items.
    private static let endless = Int.max / 4

    private var sections: [Section]
    private var deletedSections: Set<Int> = []
    private var reloadedSections: Set<Int> = []
    /// Items gone from where they were before the batch (their section perhaps gone too).
    private var deletedItems: Set<IndexPath> = []
    private var reloadedItems: Set<IndexPath> = []

    /// Replays `changes`.
    init(_ changes: [StorageChange]) {
        // Enough sections before the batch for every index the log names, each deletion
        // bringing one more into reach.
        var reach = 0
        for change in changes {
            switch change {
            case .insertSection(let index): reach = max(reach, index + 1)
            case .deleteSection(let index): reach = max(reach, index + 1)
            case .moveSection(let from, let to): reach = max(reach, from + 1, to + 1)
            case .insertItems(let section, _), .deleteItems(let section, _), .supplementary(_, _, let section): reach = max(reach, section + 1)
            case .moveItem(let from, let to): reach = max(reach, from.section + 1, to.section + 1)
            case .updateItem(let indexPath): reach = max(reach, indexPath.section + 1)
            }
        }
        reach += changes.reduce(0) { count, change in if case .deleteSection = change { count + 1 } else { count } }
        sections = (0..<reach).map { Section(old: $0, pieces: [.unmoved(0..<Self.endless)]) }
        for change in changes { replay(change) }
    }

    // MARK: Replaying

    private mutating func replay(_ change: StorageChange) {
        switch change {
        case .insertSection(let index):
            guard index >= 0, index <= sections.count else { return }
            sections.insert(Section(old: nil, pieces: []), at: index)
        case .deleteSection(let index):
            guard sections.indices.contains(index) else { return }
            let gone = sections.remove(at: index)
            if let old = gone.old { deletedSections.insert(old) }
            for case .moved(let old) in gone.pieces { deletedItems.insert(old) }
        case .moveSection(let from, let to):
            guard sections.indices.contains(from), sections.indices.contains(to) else { return }
            var moving = sections.remove(at: from)
            moving.moved = true
            sections.insert(moving, at: to)
        case .insertItems(let section, let items):
            guard sections.indices.contains(section), let at = split(section, at: items.lowerBound) else { return }
            sections[section].pieces.insert(.inserted(items.count), at: at)
        case .deleteItems(let section, let items):
            guard let removed = take(section, items) else { return }
            forget(removed, of: section)
        case .moveItem(let from, let to):
            guard let removed = take(from.section, from.item..<(from.item + 1)), let item = removed.first else { return }
            let piece: Piece = if case .unmoved(let items) = item, let old = sections[from.section].old {
                .moved(IndexPath(item: items.lowerBound, section: old))
            } else {
                item
            }
            guard sections.indices.contains(to.section), let at = split(to.section, at: to.item) else {
                // Nowhere to go: the item is gone.
                forget(removed, of: from.section)
                return
            }
            sections[to.section].pieces.insert(piece, at: at)
        case .updateItem(let indexPath):
            guard let old = oldIndexPath(at: indexPath) else { return }
            reloadedItems.insert(old)
        case .supplementary(_, _, let section):
            guard sections.indices.contains(section), let old = sections[section].old else { return }
            reloadedSections.insert(old)
        }
    }

    /// Where the piece starting at `position` of `section` is in its pieces, splitting the
    /// piece holding it; nil past the section's end.
    private mutating func split(_ section: Int, at position: Int) -> Int? {
        guard position >= 0 else { return nil }
        var start = 0
        for (index, piece) in sections[section].pieces.enumerated() {
            if position == start { return index }
            if position < start + piece.count {
                let (head, tail): (Piece, Piece) = switch piece {
                case .unmoved(let items): (.unmoved(items.lowerBound..<(items.lowerBound + position - start)), .unmoved((items.lowerBound + position - start)..<items.upperBound))
                case .inserted(let count): (.inserted(position - start), .inserted(count - position + start))
                case .moved: preconditionFailure("a moved item is one item")
                }
                sections[section].pieces.replaceSubrange(index...index, with: [head, tail])
                return index + 1
            }
            start += piece.count
        }
        return position == start ? sections[section].pieces.count : nil
    }

    /// Takes the pieces at `items` of `section` out (nil, taking nothing, when they are not
    /// all there).
    private mutating func take(_ section: Int, _ items: Range<Int>) -> [Piece]? {
        guard sections.indices.contains(section), !items.isEmpty, let start = split(section, at: items.lowerBound),
              let end = split(section, at: items.upperBound) else { return nil }
        let removed = Array(sections[section].pieces[start..<end])
        sections[section].pieces.removeSubrange(start..<end)
        return removed
    }

    /// Notes that the items of `pieces`, taken out of `section`, are gone.
    private mutating func forget(_ pieces: [Piece], of section: Int) {
        for piece in pieces {
            switch piece {
            case .unmoved(let items):
                guard let old = sections[section].old else { continue }
                for item in items { deletedItems.insert(IndexPath(item: item, section: old)) }
            case .moved(let old):
                deletedItems.insert(old)
            case .inserted:
                break
            }
        }
    }

    /// The index path before the batch of the item now at `indexPath`, if it was there then.
    private func oldIndexPath(at indexPath: IndexPath) -> IndexPath? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section) else { return nil }
        var start = 0
        for piece in sections[indexPath.section].pieces {
            if indexPath.item < start + piece.count, indexPath.item >= start {
                switch piece {
                case .unmoved(let items): return sections[indexPath.section].old.map { IndexPath(item: items.lowerBound + indexPath.item - start, section: $0) }
                case .moved(let old): return old
                case .inserted: return nil
                }
            }
            start += piece.count
        }
        return nil
    }

    // MARK: The batch

    /// The section changes under the batch rule: deletions and reloads (a header or footer
    /// changed) at their indexes before, insertions at theirs after, moves from before to
    /// after; each kind in ascending order.
    var sectionChanges: [(ChangeType, [Int])] {
        var changes: [(ChangeType, [Int])] = deletedSections.sorted().map { (.delete, [$0]) }
        changes += sections.indices.filter { sections[$0].old == nil }.map { (.insert, [$0]) }
        changes += sections.indices.compactMap { index in sections[index].moved ? sections[index].old.map { (.move, [$0, index]) } : nil }
        changes += reloadedSections.subtracting(deletedSections).sorted().map { (.update, [$0]) }
        return changes
    }

    /// The item changes under the batch rule: deletions and reloads at their index paths
    /// before, insertions at theirs after (the items of a section inserted too, as
    /// DTModelStorage lists them; not the items of a section deleted, which go with it),
    /// moves from before to after; each kind in ascending order. An item moved out of a
    /// section deleted is inserted. An item moved and reloaded is listed both ways (UIKit
    /// itself refuses that pair in one batch: reload it after).
    var objectChanges: [(ChangeType, [IndexPath])] {
        var inserted: [IndexPath] = []
        var moves: [(IndexPath, IndexPath)] = []
        let deleted = deletedItems
        for (index, section) in sections.enumerated() {
            var position = 0
            for piece in section.pieces {
                defer { position += piece.count }
                switch piece {
                case .unmoved:
                    break
                case .moved(let old):
                    if deletedSections.contains(old.section) {
                        inserted.append(IndexPath(item: position, section: index))
                    } else {
                        moves.append((old, IndexPath(item: position, section: index)))
                    }
                case .inserted(let count):
                    inserted += (position..<(position + count)).map { IndexPath(item: $0, section: index) }
                }
            }
        }
        let stays = { (old: IndexPath) in !self.deletedSections.contains(old.section) }
        var changes: [(ChangeType, [IndexPath])] = deleted.filter(stays).sorted().map { (.delete, [$0]) }
        changes += inserted.sorted().map { (.insert, [$0]) }
        changes += moves.sorted { $0.1 < $1.1 }.map { (.move, [$0.0, $0.1]) }
        changes += reloadedItems.filter { stays($0) && !deleted.contains($0) }.sorted().map { (.update, [$0]) }
        return changes
    }
}
