import Foundation
@testable import ModelStorage
import Testing

@Suite("PackedKeys: a run's keys in a few bytes a row")
struct PackedKeysTests {
    /// Keys of the shapes a query gives: the table's own order, every 100th, an order of its
    /// own, and keys far apart (steps that wrap).
    static let shapes: [(name: String, keys: [Int64])] = {
        var random = SystemRandomNumberGenerator()
        let spread = (0..<5_000).map { _ in Int64.random(in: 1...10_000_000, using: &random) }
        return [
            ("none", []),
            ("one", [42]),
            ("a block", Array(1...64)),
            ("a block and one", Array(1...65)),
            ("rowids", Array(1...10_000)),
            ("every 100th", Array(stride(from: 7, to: 1_000_000, by: 100))),
            ("an order of its own", spread),
            ("descending", Array((1...300).reversed())),
            ("far apart", [Int64.min, Int64.max, 0, -1, Int64.max, Int64.min, 1, Int64.min + 1] + Array(repeating: 5, count: 70)),
        ]
    }()

    @Test("every key reads back, by offset and in order", arguments: shapes.indices)
    func everyKeyReadsBack(_ shape: Int) {
        let keys = Self.shapes[shape].keys
        let packed = PackedKeys(keys)
        #expect(packed.count == keys.count)
        #expect(Array(packed) == keys)
        for offset in keys.indices { #expect(packed[offset] == keys[offset], "offset \(offset)") }
        #expect(packed.first == keys.first)
        #expect(packed.last == keys.last)
        if let key = keys.last { #expect(packed.firstIndex(of: key) == keys.firstIndex(of: key)) }
        #expect(packed.firstIndex(of: 123_456_789_012) == nil)
    }

    @Test("keys inserted, removed and split as an array's are", arguments: shapes.indices)
    func changesAsAnArray(_ shape: Int) {
        var keys = Self.shapes[shape].keys
        var packed = PackedKeys(keys)
        var random = SystemRandomNumberGenerator()
        for step in 0..<40 {
            if step % 3 == 2, !keys.isEmpty {
                let offset = Int.random(in: 0..<keys.count, using: &random)
                #expect(packed.remove(at: offset) == keys.remove(at: offset))
            } else {
                let offset = Int.random(in: 0...keys.count, using: &random)
                let key = step % 2 == 0 ? Int64.random(in: Int64.min...Int64.max, using: &random) : (keys.first ?? 0) &+ 1
                packed.insert(key, at: offset)
                keys.insert(key, at: offset)
            }
            #expect(Array(packed) == keys, "step \(step)")
        }
        let middle = keys.count / 2
        let (head, tail) = packed.split(at: middle)
        #expect(Array(head) == Array(keys[..<middle]))
        #expect(Array(tail) == Array(keys[middle...]))
        #expect(packed == PackedKeys(keys))
    }

    @Test("keys in the table's order take under half a byte a row; keys in an order of their own, the bits of their spread")
    func theBytesTaken() {
        let rowids = PackedKeys(Array(1...10_000))
        #expect(Double(rowids.packedBytes) / 10_000 < 0.5)
        let everyHundredth = PackedKeys(Array(stride(from: 1, to: 1_000_000, by: 100)))
        #expect(Double(everyHundredth.packedBytes) / 10_000 < 0.5)
        // Keys spread over 10,000,000 rows in no order: 25 bits a step, and the blocks.
        var random = SystemRandomNumberGenerator()
        let spread = PackedKeys((0..<10_000).map { _ in Int64.random(in: 1...10_000_000, using: &random) })
        #expect(Double(spread.packedBytes) / 10_000 < 3.6)
        // A row from far away costs its block alone.
        var keys = Array(Int64(1)...10_000)
        keys.insert(9_000_000_000, at: 5_000)
        #expect(PackedKeys(keys).packedBytes < rowids.packedBytes + 64 * 8 + 16)
    }
}
