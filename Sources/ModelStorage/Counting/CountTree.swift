/// Counts in a row (the rows of each section, the keys of each run), with their prefix sums
/// in a Fenwick tree: the sum before an entry, and the entry holding a position, cost
/// O(log entries); changing a count costs O(log entries); inserting or removing an entry
/// means building the tree again, in O(entries).
struct CountTree: Sendable {
    /// 1-based Fenwick tree over the counts.
    private var tree: [Int] = [0]
    /// The sum of the counts.
    private(set) var total = 0

    /// A tree of `counts`, in O(counts).
    init(_ counts: some Sequence<Int> = []) {
        tree = [0]
        for count in counts {
            tree.append(count)
            total += count
        }
        for node in 1..<tree.count {
            let parent = node + (node & -node)
            if parent < tree.count { tree[parent] += tree[node] }
        }
    }

    /// The number of counts.
    var count: Int { tree.count - 1 }

    /// The sum of the counts before the one at `index` (the total for `index == count`).
    func prefix(_ index: Int) -> Int {
        var sum = 0
        var node = index
        while node > 0 {
            sum += tree[node]
            node &= node - 1
        }
        return sum
    }

    /// Adds `delta` to the count at `index`.
    mutating func add(_ delta: Int, at index: Int) {
        guard delta != 0 else { return }
        total += delta
        var node = index + 1
        while node < tree.count {
            tree[node] += delta
            node += node & -node
        }
    }

    /// The entry whose count covers `position` (entries of count 0 cover nothing) and the
    /// position's offset inside it, or nil when the position is not below the total.
    func locate(_ position: Int) -> (index: Int, offset: Int)? {
        guard position >= 0, position < total else { return nil }
        var node = 0
        var remaining = position
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = node + step
            if next < tree.count, tree[next] <= remaining {
                node = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return (node, remaining)
    }
}
