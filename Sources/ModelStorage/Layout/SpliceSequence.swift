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
        // The last splice whose removed rows start at or before the old row.
        var low = index + 1
        var high = splices.count
        while low < high {
            let middle = (low + high) / 2
            if oldStarts[middle] <= oldPosition { low = middle + 1 } else { high = middle }
        }
        let last = low - 1
        if last > index, oldPosition < oldStarts[last] + splices[last].removed { return .vanishing }
        return .final(oldPosition + shifts[last])
    }
}
