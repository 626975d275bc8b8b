/// Finds a longest strictly increasing subsequence by patience sorting, reusing its
/// buffers from one call to the next.
@usableFromInline
struct LongestIncreasingSubsequence {
    /// For each pile, the index of the value on top (the smallest that ends a subsequence
    /// of that length).
    private var tops: [Int32]
    /// For each value, the index of the value before it in its subsequence, or -1.
    private var previous: [Int32]

    @usableFromInline
    init(capacity: Int) {
        tops = [Int32](repeating: 0, count: capacity)
        previous = [Int32](repeating: 0, count: capacity)
    }

    /// Sets `members[i]` to whether `values[i]` is in the subsequence found. `members`
    /// has `values.count` elements; values are distinct. O(n) when `values` ascend, else
    /// O(n log n).
    @usableFromInline
    mutating func mark(_ values: UnsafeBufferPointer<Int32>, _ members: UnsafeMutableBufferPointer<Bool>) {
        let count = values.count
        guard count > 0 else { return }
        var ascending = true
        for index in 1..<count where values[index - 1] >= values[index] {
            ascending = false
            break
        }
        if ascending {
            members.update(repeating: true)
            return
        }
        members.update(repeating: false)
        if tops.count < count {
            tops = [Int32](repeating: 0, count: count)
            previous = [Int32](repeating: 0, count: count)
        }
        tops.withUnsafeMutableBufferPointer { tops in
            previous.withUnsafeMutableBufferPointer { previous in
                var piles = 0
                for index in 0..<count {
                    let value = values[index]
                    // The first pile whose top is not below `value`: most often a new
                    // pile, when the values mostly ascend.
                    var low = 0
                    var high = piles
                    if piles > 0, values[Int(tops[piles - 1])] < value { low = piles }
                    while low < high {
                        let middle = (low + high) >> 1
                        if values[Int(tops[middle])] < value { low = middle + 1 } else { high = middle }
                    }
                    previous[index] = low > 0 ? tops[low - 1] : -1
                    tops[low] = Int32(index)
                    if low == piles { piles += 1 }
                }
                var member = Int(tops[piles - 1])
                while member >= 0 {
                    members[member] = true
                    member = Int(previous[member])
                }
            }
        }
    }
}
