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
    /// `0...index` are emitted, where `sectionOf` gives the section of a final row: what GTK
    /// 4.12 asks a GtkSectionModel while the splices are emitted. A vanishing row counts as
    /// part of the section of the row before it (of the row after it at the start): it is
    /// gone before the next frame, and wherever it is counted, the sections of the rows that
    /// stay come out right once it goes. O(log rows × log splices).
    public func sectionRange(containing position: Int, afterSplice index: Int, sectionOf: (Int) -> Int) -> Range<Int> {
        let count = count(afterSplice: index)
        guard let section = self.section(at: position, afterSplice: index, count: count, sectionOf: sectionOf) else {
            return 0..<count
        }
        // Sections are in order along the list, vanishing rows taking a neighbour's.
        func firstPosition(where isPast: (Int) -> Bool) -> Int {
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                if isPast(self.section(at: middle, afterSplice: index, count: count, sectionOf: sectionOf) ?? section) {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            return low
        }
        return firstPosition { $0 >= section }..<firstPosition { $0 > section }
    }

    /// The section `position` counts in once splices `0...index` are emitted, or nil when
    /// every row vanishes.
    private func section(at position: Int, afterSplice index: Int, count: Int, sectionOf: (Int) -> Int) -> Int? {
        for direction in [-1, 1] {
            var candidate = position
            while candidate >= 0, candidate < count {
                switch row(at: candidate, afterSplice: index) {
                case .final(let final): return sectionOf(final)
                case .vanishing: candidate = edgeOfVanishingRun(at: candidate, afterSplice: index, direction: direction)
                }
            }
        }
        return nil
    }

    /// The position just outside the run of vanishing rows holding `position`, before it
    /// (`direction` -1) or after it (+1).
    private func edgeOfVanishingRun(at position: Int, afterSplice index: Int, direction: Int) -> Int {
        let oldPosition = position - shifts[index]
        let removing = lastSplice(startingAtOrBefore: oldPosition, after: index)
        let runStart = position - (oldPosition - oldStarts[removing])
        return direction < 0 ? runStart - 1 : runStart + splices[removing].removed
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
