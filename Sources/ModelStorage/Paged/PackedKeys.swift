import Foundation

/// A run's keys in the query's order, packed: blocks of 64 keys, each its first key and the
/// steps from one key to the next, stored as their excess over the block's smallest step in
/// as few bits as the largest excess needs.
///
/// What lets a storage hold every key of a large query in a few bytes a row instead of 8:
/// keys that follow the table's own order (rowids 1, 2, 3…, or every 100th in a section)
/// take under half a byte a row; keys in an order of their own (by title, say) take the bits
/// of the table's spread of keys (about 3 bytes a row at 10,000,000 rows). The key at an
/// offset costs the steps before it in its block (at most 63); reading them in order costs
/// one step each; inserting or removing a key packs the run again, O(run), as moving an
/// array's keys did.
package struct PackedKeys: Sendable, Equatable {
    /// A block's first key, its smallest step, where its steps start in `words` (a word and
    /// a bit in it) and how wide each is.
    private struct Block: Sendable, Equatable {
        var first: Int64
        var step: Int64
        var word: UInt32
        var shift: UInt8
        var width: UInt8
    }

    /// The number of keys a block holds (the last may hold fewer).
    private static let blockSize = 64

    private var blocks: [Block] = []
    private var words: [UInt64] = []
    /// The number of keys.
    package private(set) var count = 0

    /// No key.
    package init() {}

    /// `keys`, packed.
    package init(_ keys: some Collection<Int64>) {
        let keys = Array(keys)
        count = keys.count
        blocks.reserveCapacity((keys.count + Self.blockSize - 1) / Self.blockSize)
        var writer = BitWriter()
        for start in stride(from: 0, to: keys.count, by: Self.blockSize) {
            let end = Swift.min(start + Self.blockSize, keys.count)
            // Steps wrap (keys far apart still pack, in 64 bits); only their size is at stake.
            var step = end - start > 1 ? Int64.max : 0
            for index in (start + 1)..<end { step = Swift.min(step, keys[index] &- keys[index - 1]) }
            var widest: UInt64 = 0
            for index in (start + 1)..<end { widest |= UInt64(bitPattern: keys[index] &- keys[index - 1] &- step) }
            let width = UInt64.bitWidth - widest.leadingZeroBitCount
            let (word, shift) = writer.bitCount.quotientAndRemainder(dividingBy: UInt64.bitWidth)
            blocks.append(Block(first: keys[start], step: step, word: UInt32(word), shift: UInt8(shift), width: UInt8(width)))
            for index in (start + 1)..<end {
                writer.append(UInt64(bitPattern: keys[index] &- keys[index - 1] &- step), width: width)
            }
        }
        words = writer.words
    }

    /// Whether there is no key.
    package var isEmpty: Bool { count == 0 }

    /// The first key, if any.
    package var first: Int64? { isEmpty ? nil : blocks[0].first }

    /// The last key, if any.
    package var last: Int64? { isEmpty ? nil : self[count - 1] }

    /// The key at `offset` (0 ≤ offset < count): O(the steps before it in its block).
    package subscript(offset: Int) -> Int64 {
        precondition(offset >= 0 && offset < count, "offset out of the keys")
        let block = blocks[offset / Self.blockSize]
        let steps = offset % Self.blockSize
        var key = block.first &+ Int64(steps) &* block.step
        guard block.width > 0 else { return key }
        for index in 0..<steps { key = key &+ Int64(bitPattern: excess(block, index)) }
        return key
    }

    /// The offset of `key`, if held: O(count).
    package func firstIndex(of key: Int64) -> Int? {
        var offset = 0
        for held in self {
            if held == key { return offset }
            offset += 1
        }
        return nil
    }

    /// The keys before `offset`, and those from `offset` on (0 ≤ offset ≤ count), each
    /// packed: the keys are unpacked once.
    package func split(at offset: Int) -> (head: PackedKeys, tail: PackedKeys) {
        precondition(offset >= 0 && offset <= count, "offset out of the keys")
        let keys = Array(self)
        return (PackedKeys(keys[..<offset]), PackedKeys(keys[offset...]))
    }

    /// Inserts `key` at `offset` (0 ≤ offset ≤ count): O(count).
    package mutating func insert(_ key: Int64, at offset: Int) {
        precondition(offset >= 0 && offset <= count, "offset out of the keys")
        var keys = Array(self)
        keys.insert(key, at: offset)
        self = PackedKeys(keys)
    }

    /// Removes the key at `offset` and returns it: O(count).
    @discardableResult
    package mutating func remove(at offset: Int) -> Int64 {
        precondition(offset >= 0 && offset < count, "offset out of the keys")
        var keys = Array(self)
        let key = keys.remove(at: offset)
        self = PackedKeys(keys)
        return key
    }

    /// The bytes the keys take (their blocks and words, without the arrays' headers).
    package var packedBytes: Int {
        blocks.count * MemoryLayout<Block>.stride + words.count * MemoryLayout<UInt64>.stride
    }

    /// The excess over its block's smallest step of the step before key `index + 1` of `block`.
    @inline(__always)
    private func excess(_ block: Block, _ index: Int) -> UInt64 {
        let width = Int(block.width)
        let bit = Int(block.word) * UInt64.bitWidth + Int(block.shift) + index * width
        let word = bit / UInt64.bitWidth, shift = bit % UInt64.bitWidth
        var value = words[word] >> UInt64(shift)
        if shift + width > UInt64.bitWidth { value |= words[word + 1] << UInt64(UInt64.bitWidth - shift) }
        return width == UInt64.bitWidth ? value : value & ((1 << UInt64(width)) - 1)
    }
}

extension PackedKeys: Sequence {
    /// The keys in order, one step each.
    package struct Iterator: IteratorProtocol {
        fileprivate let keys: PackedKeys
        /// The block being read, and the index in it of the next key.
        fileprivate var block = 0
        fileprivate var index = 0
        fileprivate var left: Int
        fileprivate var key: Int64 = 0

        package mutating func next() -> Int64? {
            guard left > 0 else { return nil }
            left -= 1
            let block = keys.blocks[self.block]
            if index == 0 {
                key = block.first
            } else {
                key = key &+ block.step
                if block.width > 0 { key = key &+ Int64(bitPattern: keys.excess(block, index - 1)) }
            }
            index += 1
            if index == PackedKeys.blockSize { (self.block, index) = (self.block + 1, 0) }
            return key
        }
    }

    package func makeIterator() -> Iterator { Iterator(keys: self, left: count) }

    package var underestimatedCount: Int { count }
}

extension PackedKeys: ExpressibleByArrayLiteral {
    package init(arrayLiteral keys: Int64...) { self.init(keys) }
}

/// Bits written one value after another into 64-bit words.
private struct BitWriter {
    var words: [UInt64] = []
    var bitCount = 0

    mutating func append(_ value: UInt64, width: Int) {
        guard width > 0 else { return }
        let shift = bitCount % UInt64.bitWidth
        if shift == 0 {
            precondition(words.count < UInt32.max, "too many keys to pack together")
            words.append(0)
        }
        words[words.count - 1] |= value << UInt64(shift)
        if shift + width > UInt64.bitWidth { words.append(value >> UInt64(UInt64.bitWidth - shift)) }
        bitCount += width
    }
}
