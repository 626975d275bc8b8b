/// A run of rows in the new list: rows new to the view, or old rows (by their position in
/// the list before the update) that were taken out and put back, e.g. by a move.
enum RowRun: Equatable {
    case fresh(count: Int)
    case old(start: Int, count: Int)

    var count: Int {
        switch self {
        case .fresh(let count), .old(_, let count): return count
        }
    }

    /// `count` rows of this run starting at `offset`.
    func slice(from offset: Int, count: Int) -> RowRun {
        switch self {
        case .fresh: return .fresh(count: count)
        case .old(let start, _): return .old(start: start + offset, count: count)
        }
    }
}

/// One region of the list that changed: `removed` old rows starting at old position
/// `oldStart` became the rows described by `runs`, now starting at `start`.
struct Edit {
    var start: Int
    var oldStart: Int
    var removed: Int
    var runs: [RowRun]
    var added: Int

    var end: Int { start + added }
    var oldEnd: Int { oldStart + removed }
}

/// Composes a sequence of row replacements into the shortest ordered list of splices.
///
/// Keeps the changed regions as sorted, disjoint edits in current positions; a replacement
/// that touches or borders edits merges with them, so contiguous changes become one splice.
/// Old rows put back where they were (a move undone, a header hidden and shown again) are
/// trimmed from the ends of each splice, so no splice has a no-op prefix or suffix (unless
/// more than `runLimit` runs gathered in it). Costs O(log edits + edits after the change +
/// runs touched) per replacement, with at most `editLimit` edits and `runLimit` runs each.
struct SpliceComposer {
    private(set) var edits: [Edit] = []
    private var updatedOldRows: Set<Int> = []
    /// Whether the composer keeps track of rows at all. An update too large to be worth
    /// splicing in detail (see `FlatLayout.detailedChangeLimit`) is shown as a reload: the
    /// composer then records nothing and each replacement costs O(1).
    private(set) var tracksRows: Bool
    /// Above this many separate edits (splices to emit), the update scatters too many
    /// changes to be worth splicing in detail: the composer stops tracking rows (and
    /// `tracksRows` turns false), so that the update is shown as a reload. Each
    /// replacement shifts the edits after it, so this also bounds that cost.
    let editLimit: Int

    /// The most runs an edit keeps (see `replace`).
    static let runLimit = 512

    init(tracksRows: Bool = true, editLimit: Int = .max) {
        self.tracksRows = tracksRows
        self.editLimit = editLimit
    }

    /// Replaces the `removing` rows at `position` with `inserting` and returns what the
    /// removed rows were.
    @discardableResult
    mutating func replace(at position: Int, removing: Int, inserting: [RowRun]) -> [RowRun] {
        let insertedCount = inserting.reduce(0) { $0 + $1.count }
        guard removing > 0 || insertedCount > 0 else { return [] }
        noteChange(at: position)
        guard tracksRows else { return removing > 0 ? [.fresh(count: removing)] : [] }
        let removedRuns = runs(in: position..<(position + removing))
        let lower = firstEdit(endingAtOrAfter: position)
        var upper = lower
        while upper < edits.count, edits[upper].start <= position + removing { upper += 1 }
        let touched = lower..<upper

        let regionStart = touched.isEmpty ? position : min(position, edits[lower].start)
        let regionEnd = touched.isEmpty ? position + removing : max(position + removing, edits[upper - 1].end)
        let oldStart = (!touched.isEmpty && edits[lower].start <= position)
            ? edits[lower].oldStart : oldPosition(ofUntouched: position, after: lower - 1)
        let oldEnd = (!touched.isEmpty && edits[upper - 1].end >= position + removing)
            ? edits[upper - 1].oldEnd : oldPosition(ofUntouched: position + removing, after: upper - 1)
        let newRuns = runs(in: regionStart..<position) + inserting + runs(in: (position + removing)..<regionEnd)

        let added = regionEnd - regionStart - removing + insertedCount
        var runs = normalized(newRuns)
        // An edit that has gathered many runs (many rows moved inside one region) is kept as
        // rows bound afresh: its splice then keeps its ends even where an old row came back
        // to its place, and reading or merging it stays cheap however many rows move there.
        if runs.count > Self.runLimit { runs = [.fresh(count: added)] }
        let merged = Edit(start: regionStart, oldStart: oldStart, removed: oldEnd - oldStart, runs: runs, added: added)
        let isEmpty = merged.removed == 0 && merged.added == 0
        edits.replaceSubrange(touched, with: isEmpty ? [] : [merged])
        let delta = insertedCount - removing
        for index in (lower + (isEmpty ? 0 : 1))..<edits.count {
            edits[index].start += delta
        }
        if edits.count > editLimit {
            tracksRows = false
            edits = []
            updatedOldRows = []
        }
        return removedRuns
    }

    /// The first position a replacement touched, or a section change that moved no row
    /// (`noteChange`), in the positions of its time: each row before it keeps its place,
    /// position and index path, through the whole update.
    private(set) var firstChange = Int.max

    /// Notes that rows from `position` on may have changed place (their index paths, say,
    /// when an empty section before them goes).
    mutating func noteChange(at position: Int) {
        firstChange = min(firstChange, position)
    }

    /// Notes that the content of the row now at `position` changed.
    mutating func markUpdated(at position: Int) {
        guard tracksRows else { return }
        if case .old(let start, _)? = runs(in: position..<(position + 1)).first {
            updatedOldRows.insert(start)
        }
    }

    /// Notes that the content of `run`'s rows changed (for rows out of the list just now).
    mutating func markUpdated(_ run: RowRun) {
        guard tracksRows else { return }
        if case .old(let start, let count) = run {
            updatedOldRows.formUnion(start..<(start + count))
        }
    }

    /// The splices to emit and the rows to update in place.
    func finish() -> FlatChanges {
        let trimmed = edits.compactMap(Self.trimmed)
        var updated: [Int] = []
        for oldRow in updatedOldRows {
            // Rows inside a splice are bound afresh; only rows left in place are updated.
            let before = Self.partitionIndex(trimmed) { $0.oldEnd <= oldRow }
            if before < trimmed.count, trimmed[before].oldStart <= oldRow { continue }
            let shift = before > 0 ? trimmed[before - 1].end - trimmed[before - 1].oldEnd : 0
            updated.append(oldRow + shift)
        }
        return FlatChanges(
            splices: trimmed.map { Splice(position: $0.start, removed: $0.removed, added: $0.added) },
            updatedPositions: updated.sorted())
    }

    // MARK: Reading the current rows

    /// What the current rows in `range` are.
    func runs(in range: Range<Int>) -> [RowRun] {
        var result: [RowRun] = []
        var position = range.lowerBound
        var index = firstEdit(endingAfter: position)
        while position < range.upperBound {
            while index < edits.count, edits[index].end <= position { index += 1 }
            if index < edits.count, edits[index].start <= position {
                let edit = edits[index]
                let take = min(edit.end, range.upperBound) - position
                result += Self.slice(edit.runs, from: position - edit.start, count: take)
                position += take
            } else {
                let next = index < edits.count ? min(edits[index].start, range.upperBound) : range.upperBound
                result.append(.old(start: oldPosition(ofUntouched: position, after: index - 1), count: next - position))
                position = next
            }
        }
        return result
    }

    /// The old position of the untouched current row at `position`, given that `edit` is
    /// the last edit before it (-1 for none).
    private func oldPosition(ofUntouched position: Int, after edit: Int) -> Int {
        guard edit >= 0 else { return position }
        return edits[edit].oldEnd + (position - edits[edit].end)
    }

    /// The first edit that ends at or after `position` (it touches or follows it).
    private func firstEdit(endingAtOrAfter position: Int) -> Int {
        Self.partitionIndex(edits) { $0.end < position }
    }

    /// The first edit that ends after `position`.
    private func firstEdit(endingAfter position: Int) -> Int {
        Self.partitionIndex(edits) { $0.end <= position }
    }

    /// The number of leading edits for which `isBefore` holds (it must hold for a prefix).
    private static func partitionIndex(_ edits: [Edit], _ isBefore: (Edit) -> Bool) -> Int {
        var low = 0
        var high = edits.count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(edits[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: Runs

    private static func slice(_ runs: [RowRun], from offset: Int, count: Int) -> [RowRun] {
        var result: [RowRun] = []
        var skip = offset
        var remaining = count
        for run in runs where remaining > 0 {
            if skip >= run.count {
                skip -= run.count
                continue
            }
            let take = min(run.count - skip, remaining)
            result.append(run.slice(from: skip, count: take))
            remaining -= take
            skip = 0
        }
        return result
    }

    /// `runs` with empty runs dropped and neighbours that continue each other joined.
    private func normalized(_ runs: [RowRun]) -> [RowRun] {
        var result: [RowRun] = []
        for run in runs where run.count > 0 {
            switch (result.last, run) {
            case let (.fresh(a)?, .fresh(b)):
                result[result.count - 1] = .fresh(count: a + b)
            case let (.old(start, a)?, .old(next, b)) where start + a == next:
                result[result.count - 1] = .old(start: start, count: a + b)
            default:
                result.append(run)
            }
        }
        return result
    }

    /// `edit` without old rows put back in their own place at either end; nil when nothing
    /// is left.
    private static func trimmed(_ edit: Edit) -> Edit? {
        var edit = edit
        var changed = true
        while changed, edit.removed > 0, edit.added > 0 {
            changed = false
            if case .old(let start, let count)? = edit.runs.first, start == edit.oldStart {
                let same = min(count, edit.removed)
                edit.runs = slice(edit.runs, from: same, count: edit.added - same)
                edit.start += same
                edit.oldStart += same
                edit.removed -= same
                edit.added -= same
                changed = true
            } else if case .old(let start, let count)? = edit.runs.last, start + count == edit.oldEnd {
                let same = min(count, edit.removed)
                edit.runs = slice(edit.runs, from: 0, count: edit.added - same)
                edit.removed -= same
                edit.added -= same
                changed = true
            }
        }
        return edit.removed == 0 && edit.added == 0 ? nil : edit
    }
}
