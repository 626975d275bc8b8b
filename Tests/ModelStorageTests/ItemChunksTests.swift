@testable import ModelStorage
import TestSupport
import Testing

@Suite("ItemChunks: a section's models in chunks")
struct ItemChunksTests {
    @Test("Random inserts, removals, replacements and appends match a plain array, across chunk splits")
    func matchesAnArray() {
        var random = SeededGenerator(seed: 11)
        var chunks = ItemChunks((0..<3000).map { $0 as Any })
        var shadow = Array(0..<3000)
        var next = 3000
        for step in 0..<20_000 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                let position = Int.random(in: 0...shadow.count, using: &random)
                chunks.insert(next, at: position)
                shadow.insert(next, at: position)
                next += 1
            case 4...6 where !shadow.isEmpty:
                let position = Int.random(in: 0..<shadow.count, using: &random)
                #expect(chunks.remove(at: position) as? Int == shadow.remove(at: position))
            case 7 where !shadow.isEmpty:
                let position = Int.random(in: 0..<shadow.count, using: &random)
                chunks[position] = -step
                shadow[position] = -step
            case 8:
                let extra = (0..<Int.random(in: 0..<50, using: &random)).map { next + $0 }
                chunks.append(contentsOf: extra.map { $0 as Any })
                shadow += extra
                next += extra.count
            default:
                if !shadow.isEmpty {
                    let position = Int.random(in: 0..<shadow.count, using: &random)
                    #expect(chunks[position] as? Int == shadow[position])
                }
            }
            #expect(chunks.count == shadow.count)
            if step % 2000 == 0 {
                #expect(chunks.map { $0 as! Int } == shadow, "step \(step)")
            }
        }
        #expect(chunks.map { $0 as! Int } == shadow)
        chunks.removeAll()
        #expect(chunks.isEmpty)
    }
}
