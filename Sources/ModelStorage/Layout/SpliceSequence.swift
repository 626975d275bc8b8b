/// The splices of one update, emitted one after another, and what the list holds between
/// them.
///
/// A view that emits several `items-changed` for one update must answer `get_n_items` and
/// `get_item` for the list as it is after each emitted splice, while its own state is
/// already the final one. After splice `k`, rows before the end of splice `k` are final
/// rows at the same position; later rows are old rows, which are final rows further on, or
/// rows that a later splice removes ("vanishing": the view shows them as nothing, since they
/// are gone before the next frame). Each lookup costs O(log splices).
public struct SpliceSequence {
    /// The splices, in emission order.
    public let splices: [Splice]
    private let oldCount: Int
    /// Sum of (added - removed) over splices 0...i.
    private let shifts: [Int]
    /// Where each splice's removed rows start, in positions of the list before the update.
    private let oldStarts: [Int]
    /// For each splice, the last splice at or before it that removes rows (-1 when none).
    private let previousRemoval: [Int]
    /// For each splice (and one past the last), the first splice at or after it that removes
    /// rows (the number of splices when none).
    private let nextRemoval: [Int]

    /// What a position of an intermediate list holds.
    public enum Row: Equatable, Sendable {
        /// The row that will be at this position of the final list.
        case final(Int)
        /// An old row a later splice removes.
        case vanishing
    }

    /// The sequence of `splices` applied to a list of `oldCount` rows.
    public init(splices: [Splice], oldCount: Int) {
        self.splices = splices
        self.oldCount = oldCount
        var shifts: [Int] = []
        var oldStarts: [Int] = []
        var shift = 0
        for splice in splices {
            oldStarts.append(splice.position - shift)
            shift += splice.added - splice.removed
            shifts.append(shift)
        }
        self.shifts = shifts
        self.oldStarts = oldStarts
        var previous: [Int] = []
        var last = -1
        for (index, splice) in splices.enumerated() {
            if splice.removed > 0 { last = index }
            previous.append(last)
        }
        var next = Array(repeating: splices.count, count: splices.count + 1)
        for index in splices.indices.reversed() {
            next[index] = splices[index].removed > 0 ? index : next[index + 1]
        }
        previousRemoval = previous
        nextRemoval = next
    }

    /// The number of rows once splices `0...index` are emitted.
    public func count(afterSplice index: Int) -> Int {
        oldCount + shifts[index]
    }

    /// What `position` holds once splices `0...index` are emitted.
    public func row(at position: Int, afterSplice index: Int) -> Row {
        let splice = splices[index]
        if position < splice.position + splice.added { return .final(position) }
        let oldPosition = position - shifts[index]
        let last = lastSplice(startingAtOrBefore: oldPosition, after: index)
        if last > index, oldPosition < oldStarts[last] + splices[last].removed { return .vanishing }
        return .final(oldPosition + shifts[last])
    }

    /// The positions of the rows of the section holding `position` once splices
    /// `0...index` are emitted: what GTK 4.12 asks a GtkSectionModel while the splices are
    /// emitted. `sectionOf` gives the section of a final row; `oldSectionRange` the positions
    /// of the old section holding an old position (in the list before the update).
    ///
    /// GTK keeps the section boundaries it was told of and looks again only next to an
    /// emitted splice, so an answer must agree with what it knows: final rows are in their
    /// final sections, and the old rows of one later splice are a section of their own (cut
    /// where their old sections end), since GTK does not merge the sections around them when
    /// they go. A view tells GTK that sections changed once the update is emitted
    /// (`sections-changed`), and GTK joins what belongs together. O(log rows × log splices).
    public func sectionRange(containing position: Int, afterSplice index: Int, sectionOf: (Int) -> Int,
                             oldSectionRange: (Int) -> Range<Int>) -> Range<Int> {
        let count = count(afterSplice: index)
        let splice = splices[index]
        let oldPosition = position - shifts[index]
        // Rows of the final list up to the end of the last emitted splice; old rows after it.
        let last = position < splice.position + splice.added ? index : lastSplice(startingAtOrBefore: oldPosition, after: index)
        if last > index, oldPosition < oldStarts[last] + splices[last].removed {
            let section = oldSectionRange(oldPosition)
            let run = oldStarts[last]..<(oldStarts[last] + splices[last].removed)
            return (max(run.lowerBound, section.lowerBound) + shifts[index])..<(min(run.upperBound, section.upperBound) + shifts[index])
        }
        // A final row: its section, within the rows between the vanishing runs around it.
        let previousRun = previousRemoval[last]
        let nextRun = nextRemoval[last + 1]
        let low = previousRun > index ? oldStarts[previousRun] + splices[previousRun].removed + shifts[index] : 0
        let high = nextRun < splices.count ? oldStarts[nextRun] + shifts[index] : count
        func sectionAt(_ position: Int) -> Int {
            guard case .final(let final) = row(at: position, afterSplice: index) else { preconditionFailure("a vanishing row between runs") }
            return sectionOf(final)
        }
        let section = sectionAt(position)
        func firstPosition(in range: Range<Int>, where isPast: (Int) -> Bool) -> Int {
            var low = range.lowerBound
            var high = range.upperBound
            while low < high {
                let middle = (low + high) / 2
                if isPast(sectionAt(middle)) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        return firstPosition(in: low..<position) { $0 >= section }..<firstPosition(in: (position + 1)..<high) { $0 > section }
    }

    /// The last splice after splice `index` whose removed rows start at or before
    /// `oldPosition` (a position of the list before the update), or `index` when none does.
    private func lastSplice(startingAtOrBefore oldPosition: Int, after index: Int) -> Int {
        var low = index + 1
        var high = splices.count
        while low < high {
            let middle = (low + high) / 2
            if oldStarts[middle] <= oldPosition { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }
}
