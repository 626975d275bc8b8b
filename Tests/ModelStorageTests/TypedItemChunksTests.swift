@testable import ModelStorage
import TestSupport
import Testing

/// The element type of each of `chunks`' chunks, by name.
private func typeNames(_ chunks: ItemChunks) -> [String] {
    chunks.chunkElementTypes.map { String(describing: $0) }
}

/// `chunks`' models as hashable values, to compare with a plain array.
private func values(_ chunks: ItemChunks) -> [AnyHashable] {
    chunks.map { $0 as! AnyHashable }
}

@Suite("ItemChunks: chunks of the models' own type")
struct TypedItemChunksTests {
    @Test("An array of one struct type fills chunks of that type, and its models come back as themselves")
    func typedRoundTrip() {
        #expect(MemoryLayout<Article>.size == 48)
        let models = articles(0, count: 5000)
        let chunks = ItemChunks(StoredModels.values(models))
        #expect(chunks.chunkCounts == [2048, 2048, 904])
        #expect(typeNames(chunks) == ["Article", "Article", "Article"])
        #expect(chunks.map { $0 as! Article } == models)
        #expect(chunks[4999] as? Article == Article(4999))
        #expect(chunks[2048] is Article)
    }

    @Test("Models given as Any, as a protocol type or as a superclass of the first go into chunks of Any")
    func untypedArrays() throws {
        let mixed: [Any] = [1, "two", Article(3)]
        let mixedChunks = ItemChunks(try #require(storedModels(mixed)))
        #expect(typeNames(mixedChunks) == ["Any"])
        #expect(values(mixedChunks) == [1, "two", Article(3)])
        let articlesAsAny: [Any] = [Article(1), Article(2)]
        #expect(typeNames(ItemChunks(try #require(storedModels(articlesAsAny)))) == ["Any"])
        let shapes: [any Shape] = [Circle(name: "a"), Circle(name: "b")]
        let shapeChunks = ItemChunks(try #require(storedModels(shapes)))
        #expect(typeNames(shapeChunks) == ["Any"])
        #expect(shapeChunks[1] as? Circle == Circle(name: "b"))
        let dog = Dog(name: "Rex")
        let animals: [Animal] = [dog, Animal(name: "cat")]
        let animalChunks = ItemChunks(try #require(storedModels(animals)))
        #expect(typeNames(animalChunks) == ["Any"])
        #expect(animalChunks[0] as? Dog === dog)
        let optionals: [Article?] = [Article(1), Article(2)]
        #expect(ItemChunks(try #require(storedModels(optionals))).map { $0 as! Article } == [Article(1), Article(2)])
    }

    @Test("Subclass instances keep their class in a chunk of their superclass")
    func subclassesInTypedChunks() throws {
        let dog = Dog(name: "Rex")
        let animals: [Animal] = [Animal(name: "cat"), dog]
        var chunks = ItemChunks(try #require(storedModels(animals)))
        #expect(typeNames(chunks) == ["Animal"])
        #expect(chunks[1] is Dog)
        #expect(chunks[1] as? Animal === dog)
        chunks.insert(Dog(name: "Fido"), at: 0)
        #expect(chunks.map { ($0 as! Animal).name } == ["Fido", "cat", "Rex"])
        #expect(chunks[0] is Dog)
    }

    @Test("A model of another type turns only its own chunk into one of Any, and every model stays in order")
    func mixingTypes() {
        var chunks = ItemChunks(StoredModels.values(articles(0, count: 5000)))
        var shadow: [AnyHashable] = articles(0, count: 5000)
        chunks.insert(7, at: 3000)
        shadow.insert(7, at: 3000)
        #expect(chunks.chunkCounts == [2048, 1024, 1025, 904])
        #expect(typeNames(chunks) == ["Article", "Any", "Any", "Article"])
        chunks[10] = "ten"
        shadow[10] = "ten"
        chunks.insertModel(Article(-1), at: 4500)
        shadow.insert(Article(-1), at: 4500)
        chunks.replaceModel(at: 4600, with: Article(-2))
        shadow[4600] = Article(-2)
        chunks.append(Article(9000))
        shadow.append(Article(9000))
        #expect(typeNames(chunks) == ["Any", "Any", "Any", "Article"])
        chunks.append(true)
        shadow.append(true)
        #expect(typeNames(chunks) == ["Any", "Any", "Any", "Any"])
        #expect(values(chunks) == shadow)
        #expect(chunks.remove(at: 3000) as? Int == 7)
        shadow.remove(at: 3000)
        #expect(values(chunks) == shadow)
    }

    @Test("Appending models of another type fills the last chunk's room as Any, or new chunks of their type")
    func appendingOtherTypes() {
        var chunks = ItemChunks(StoredModels.values(articles(0, count: 100)))
        chunks.append(models: .values([1, 2, 3]))
        #expect(typeNames(chunks) == ["Any"])
        chunks.append(models: .values(articles(100, count: 3000)))
        #expect(chunks.chunkCounts == [2048, 1055])
        #expect(typeNames(chunks) == ["Any", "Article"])
        chunks.append(models: .values(Array(0..<1500)))
        #expect(chunks.chunkCounts == [2048, 1055, 1500])
        #expect(typeNames(chunks) == ["Any", "Article", "Int"])
        chunks.append(models: .values(Array(0..<500)))
        #expect(chunks.chunkCounts == [2048, 1055, 2000])
        #expect(typeNames(chunks) == ["Any", "Article", "Int"])
        #expect(chunks.count == 5103)
        var expected: [AnyHashable] = articles(0, count: 100)
        expected += [1, 2, 3] as [AnyHashable]
        expected += articles(100, count: 3000) as [AnyHashable]
        expected += (0..<1500).map(AnyHashable.init)
        expected += (0..<500).map(AnyHashable.init)
        #expect(values(chunks) == expected)
    }

    @Test("A full chunk splits into halves of its type; removals across chunk boundaries drop emptied chunks")
    func splittingAndRemoving() {
        var chunks = ItemChunks(StoredModels.values(articles(0, count: 4096)))
        var shadow = articles(0, count: 4096)
        #expect(chunks.chunkCounts == [2048, 2048])
        chunks.insertModel(Article(-1), at: 100)
        shadow.insert(Article(-1), at: 100)
        #expect(chunks.chunkCounts == [1024, 1025, 2048])
        #expect(typeNames(chunks) == ["Article", "Article", "Article"])
        // The end of the first chunk, all of the second, and two of the third.
        let doomed = Array(1000..<2049) + [2049, 4000]
        chunks.remove(atSorted: doomed)
        for position in doomed.reversed() { shadow.remove(at: position) }
        #expect(chunks.chunkCounts == [1000, 2046])
        #expect(chunks.map { $0 as! Article } == shadow)
        chunks.remove(atSorted: Array(0..<chunks.count))
        #expect(chunks.isEmpty)
        #expect(chunks.chunkCounts == [])
        chunks.insertModel(Article(1), at: 0)
        #expect(typeNames(chunks) == ["Article"])
    }

    @Test("Copies are values: changing one changes neither the others nor an iteration under way")
    func copyOnWrite() {
        let original = ItemChunks(StoredModels.values(articles(0, count: 3000)))
        var copy = original
        let changes: [(inout ItemChunks) -> Void] = [
            { $0.insertModel(Article(-1), at: 5) },
            { $0.insert("inserted", at: 2500) },
            { $0.remove(at: 2100) },
            { $0[0] = "replaced" },
            { $0.replaceModel(at: 2999, with: Article(-2)) },
            { $0.remove(atSorted: [1, 2, 2047, 2048]) },
            { $0.append(models: .values(articles(3000, count: 2100))) },
            { $0.append(Article(-3)) },
            { $0.removeAll() },
            { $0.append(contentsOf: [1, 2] as [Any]) },
        ]
        for change in changes {
            let before = copy
            let expected = values(copy)
            var iterator = copy.makeIterator()
            change(&copy)
            #expect(values(before) == expected)
            var iterated: [AnyHashable] = []
            while let model = iterator.next() { iterated.append(model as! AnyHashable) }
            #expect(iterated == expected)
            #expect(original.map { $0 as! Article } == articles(0, count: 3000))
        }
        var changedOriginal = original
        let untouched = changedOriginal
        changedOriginal[1] = 1
        #expect(untouched.map { $0 as! Article } == articles(0, count: 3000))
        #expect(values(copy) == [1, 2])
    }

    @Test("Runs inserted anywhere, short or long, of one type or mixed, match a plain array, and copies stay as they were")
    func insertRuns() {
        var random = SeededGenerator(seed: 31)
        var chunks = ItemChunks(StoredModels.values(articles(0, count: 3000)))
        var shadow = articles(0, count: 3000).map(AnyHashable.init)
        var next = 3000
        var saved: [(chunks: ItemChunks, models: [AnyHashable])] = []
        for step in 0..<60 {
            if step % 10 == 0 { saved.append((chunks, shadow)) }
            let position = Int.random(in: 0...shadow.count, using: &random)
            let count = Int.random(in: 0..<(step % 3 == 0 ? 3000 : 30), using: &random)
            if step % 4 == 3 {
                let mixed: [AnyHashable] = (0..<count).map { $0 % 2 == 0 ? AnyHashable(Article(next + $0)) : AnyHashable(next + $0) }
                chunks.insert(contentsOf: StoredModels<Any>.unwrapped(mixed.map(\.base)), at: position)
                shadow.insert(contentsOf: mixed, at: position)
            } else {
                chunks.insert(contentsOf: .values(articles(next, count: count)), at: position)
                shadow.insert(contentsOf: articles(next, count: count).map(AnyHashable.init), at: position)
            }
            next += count
            #expect(chunks.count == shadow.count)
            #expect(chunks.chunkCounts.allSatisfy { $0 > 0 && $0 <= ItemChunks.chunkLimit })
            #expect(chunks.chunkCounts.reduce(0, +) == chunks.count)
            if step % 10 == 0 { #expect(values(chunks) == shadow, "step \(step)") }
        }
        #expect(values(chunks) == shadow)
        for (copy, models) in saved {
            #expect(values(copy) == models)
        }
        // A long run of articles went into chunks of their own type.
        #expect(typeNames(chunks).contains("Article"))
    }

    @Test("A long run inserted inside a chunk splits it, and goes between its halves in chunks of its type")
    func insertLongRunInsideChunk() {
        var chunks = ItemChunks(StoredModels.values(articles(0, count: 100)))
        chunks.insert(contentsOf: .values(articles(1000, count: 3000)), at: 40)
        #expect(chunks.chunkCounts == [40, 2048, 952, 60])
        #expect(typeNames(chunks) == ["Article", "Article", "Article", "Article"])
        #expect(chunks.map { $0 as! Article } == articles(0, count: 40) + articles(1000, count: 3000) + articles(40, count: 60))
    }

    @Test("Random models of three types, one at a time and in batches, match a plain array, and copies stay as they were")
    func randomMixedTypes() {
        var random = SeededGenerator(seed: 29)
        var chunks = ItemChunks()
        var shadow: [AnyHashable] = []
        var saved: [(chunks: ItemChunks, models: [AnyHashable])] = []
        var next = 0
        var stepsWithTypedChunks = 0
        for step in 0..<6000 {
            next += 1
            // Mostly articles, so that typed chunks last; now and then an Int or a String.
            let kind = [0, 0, 0, 0, 0, 0, 0, 0, 1, 2][Int.random(in: 0..<10, using: &random)]
            switch Int.random(in: 0..<10, using: &random) {
            case 0...3:
                let position = Int.random(in: 0...shadow.count, using: &random)
                switch kind {
                case 0: chunks.insertModel(Article(next), at: position); shadow.insert(Article(next), at: position)
                case 1: chunks.insertModel(next, at: position); shadow.insert(next, at: position)
                default: chunks.insert("\(next)", at: position); shadow.insert("\(next)", at: position)
                }
            case 4...5 where !shadow.isEmpty:
                let position = Int.random(in: 0..<shadow.count, using: &random)
                #expect(chunks.remove(at: position) as? AnyHashable == shadow.remove(at: position))
            case 6 where !shadow.isEmpty:
                let position = Int.random(in: 0..<shadow.count, using: &random)
                switch kind {
                case 0: chunks.replaceModel(at: position, with: Article(-next)); shadow[position] = Article(-next)
                case 1: chunks[position] = -next; shadow[position] = -next
                default: chunks[position] = "-\(next)"; shadow[position] = "-\(next)"
                }
            case 7 where !shadow.isEmpty:
                let positions = shadow.indices.filter { _ in Int.random(in: 0..<20, using: &random) == 0 }
                chunks.remove(atSorted: positions)
                for position in positions.reversed() { shadow.remove(at: position) }
            case 8:
                let count = Int.random(in: 0..<(step % 7 == 0 ? 3000 : 40), using: &random)
                switch kind {
                case 0: chunks.append(models: .values(articles(next, count: count))); shadow += articles(next, count: count).map(AnyHashable.init)
                case 1: chunks.append(models: .values(Array(next..<(next + count)))); shadow += (next..<(next + count)).map(AnyHashable.init)
                default:
                    let mixed: [AnyHashable] = (0..<count).map { $0 % 2 == 0 ? AnyHashable(Article(next + $0)) : AnyHashable(next + $0) }
                    chunks.append(models: StoredModels<Any>.unwrapped(mixed.map(\.base)))
                    shadow += mixed
                }
                next += count
            default:
                if step % 500 == 0 { saved.append((chunks, shadow)) }
            }
            #expect(chunks.count == shadow.count)
            #expect(chunks.chunkCounts.allSatisfy { $0 > 0 && $0 <= ItemChunks.chunkLimit })
            #expect(chunks.chunkCounts.reduce(0, +) == chunks.count)
            if typeNames(chunks).contains(where: { $0 != "Any" }) { stepsWithTypedChunks += 1 }
            if step % 500 == 0 {
                #expect(values(chunks) == shadow, "step \(step)")
            }
        }
        #expect(values(chunks) == shadow)
        // A run that turned every chunk into one of Any at once would test little.
        #expect(stepsWithTypedChunks > 1000)
        for (copy, models) in saved {
            #expect(values(copy) == models)
        }
    }
}
