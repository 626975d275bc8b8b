/// A section's models, kept in chunks of at most `chunkLimit` so that inserting or removing
/// one in the middle of a large section moves one chunk's worth of memory, not the section's.
///
/// Finding position `i` walks the chunk sizes (a few hundred at most for a million items);
/// iterating goes chunk by chunk.
struct ItemChunks: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    static let chunkLimit = 2048

    private var chunks: [[Any]] = []
    private(set) var count = 0

    init() {}

    init<S: Sequence>(_ elements: S) where S.Element == Any {
        self.init()
        append(contentsOf: elements)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Any {
        get {
            let (chunk, offset) = locate(position)
            return chunks[chunk][offset]
        }
        set {
            let (chunk, offset) = locate(position)
            chunks[chunk][offset] = newValue
        }
    }

    /// The chunk holding `position` (< count) and the offset in it.
    private func locate(_ position: Int) -> (chunk: Int, offset: Int) {
        precondition(position >= 0 && position < count, "index \(position) out of range 0..<\(count)")
        var remaining = position
        for (index, chunk) in chunks.enumerated() {
            if remaining < chunk.count { return (index, remaining) }
            remaining -= chunk.count
        }
        preconditionFailure("chunk sizes do not add up to the count")
    }

    mutating func insert(_ element: Any, at position: Int) {
        precondition(position >= 0 && position <= count, "index \(position) out of range 0...\(count)")
        if position == count {
            append(element)
            return
        }
        let (chunk, offset) = locate(position)
        chunks[chunk].insert(element, at: offset)
        count += 1
        if chunks[chunk].count > Self.chunkLimit {
            let half = Array(chunks[chunk][(Self.chunkLimit / 2)...])
            chunks[chunk].removeSubrange((Self.chunkLimit / 2)...)
            chunks.insert(half, at: chunk + 1)
        }
    }

    @discardableResult
    mutating func remove(at position: Int) -> Any {
        let (chunk, offset) = locate(position)
        let element = chunks[chunk].remove(at: offset)
        count -= 1
        if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
        return element
    }

    mutating func append(_ element: Any) {
        if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkLimit {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkLimit)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Any {
        guard let array = elements as? [Any] else {
            for element in elements { append(element) }
            return
        }
        // Whole slices at a time: fill the last chunk, then add full chunks.
        var start = 0
        while start < array.count {
            if chunks.isEmpty || chunks[chunks.count - 1].count >= Self.chunkLimit {
                chunks.append([])
            }
            let room = Self.chunkLimit - chunks[chunks.count - 1].count
            let end = Swift.min(array.count, start + room)
            chunks[chunks.count - 1].append(contentsOf: array[start..<end])
            count += end - start
            start = end
        }
    }

    mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        chunks.removeAll()
        count = 0
    }

    mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Any {
        if subrange.count == 1, newElements.isEmpty {
            remove(at: subrange.lowerBound)
        } else if subrange.isEmpty, newElements.count == 1 {
            insert(newElements.first!, at: subrange.lowerBound)
        } else {
            var all = Array(self)
            all.replaceSubrange(subrange, with: newElements)
            self = ItemChunks(all)
        }
    }

    func makeIterator() -> Iterator {
        Iterator(chunks: chunks)
    }

    /// Goes chunk by chunk, without locating each position.
    struct Iterator: IteratorProtocol {
        let chunks: [[Any]]
        var chunk = 0
        var offset = 0

        init(chunks: [[Any]]) {
            self.chunks = chunks
        }

        mutating func next() -> Any? {
            while chunk < chunks.count {
                if offset < chunks[chunk].count {
                    defer { offset += 1 }
                    return chunks[chunk][offset]
                }
                chunk += 1
                offset = 0
            }
            return nil
        }
    }
}
