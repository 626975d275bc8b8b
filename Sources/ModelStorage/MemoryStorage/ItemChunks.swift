/// A section's models, kept in chunks of at most `chunkLimit` so that inserting or removing
/// one in the middle of a large section moves one chunk's worth of memory, not the section's.
///
/// Each chunk is an array of one element type (`TypedItemChunk`). Models handed over as an
/// array of their own type fill chunks of that type, so that a model larger than `Any`'s
/// inline buffer is not boxed on the heap; models of mixed types, or given as `Any` or as a
/// protocol type, go into chunks of `Any`. A model put into a chunk of another type turns
/// that chunk into one of `Any`. Models come out as `Any`.
///
/// A value: copies share their chunks, and a chunk is copied before it changes while another
/// copy holds it.
///
/// Finding position `i` walks the chunk sizes, kept beside the chunks (a few hundred at most
/// for a million items); iterating goes chunk by chunk.
struct ItemChunks: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    static let chunkLimit = 2048

    /// A chunk and its number of models, kept beside it so that finding a position reads
    /// plain integers rather than asking each chunk.
    fileprivate struct Slot {
        var count: Int
        var chunk: ItemChunk

        init(_ chunk: ItemChunk) {
            count = chunk.count
            self.chunk = chunk
        }
    }

    private var slots: [Slot] = []
    private(set) var count = 0

    init() {}

    init<S: Sequence>(_ elements: S) where S.Element == Any {
        self.init()
        append(contentsOf: elements)
    }

    /// Chunks holding `models`: chunks of `T` when that is their own type.
    init<T>(_ models: StoredModels<T>) {
        self.init()
        append(models: models)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Any {
        get {
            let (slot, offset) = locate(position)
            return slots[slot].chunk[offset]
        }
        set {
            replaceModel(at: position, with: newValue)
        }
    }

    /// The number of models in each chunk, first to last (for tests and diagnostics).
    var chunkCounts: [Int] { slots.map(\.chunk.count) }

    /// The element type of each chunk, first to last: the models' own type, or `Any` (for
    /// tests and diagnostics).
    var chunkElementTypes: [Any.Type] { slots.map(\.chunk.elementType) }

    /// The slot of the chunk holding `position` (< count) and the offset in that chunk.
    private func locate(_ position: Int) -> (slot: Int, offset: Int) {
        precondition(position >= 0 && position < count, "index \(position) out of range 0..<\(count)")
        var remaining = position
        for index in slots.indices {
            let chunkCount = slots[index].count
            if remaining < chunkCount { return (index, remaining) }
            remaining -= chunkCount
        }
        preconditionFailure("chunk sizes do not add up to the count")
    }

    /// The models in order, as `Any`: each boxed on the heap when it is larger than `Any`'s
    /// inline buffer. O(count), chunk by chunk.
    var allModels: [Any] {
        var models: [Any] = []
        models.reserveCapacity(count)
        for slot in slots { slot.chunk.appendModels(to: &models) }
        return models
    }

    /// The position of the first model from `start` on that is a `T` equal to `wanted`, or
    /// nil. Models of a chunk of `T` are compared without being boxed.
    func firstPosition<T: Equatable>(of wanted: T, from start: Int = 0) -> Int? {
        var chunkStart = 0
        for slot in slots {
            let chunkEnd = chunkStart + slot.count
            if start < chunkEnd, let offset = slot.chunk.firstOffset(of: wanted, from: Swift.max(0, start - chunkStart)) {
                return chunkStart + offset
            }
            chunkStart = chunkEnd
        }
        return nil
    }

    /// Appends the models that are `T`s to `typed`, and the positions of the others to
    /// `others`. O(count); chunks of `T` are appended whole, without a cast per model.
    func appendModels<T>(as type: T.Type, to typed: inout [T], others: inout [Int]) {
        var chunkStart = 0
        for slot in slots {
            slot.chunk.appendModels(as: type, to: &typed, others: &others, base: chunkStart)
            chunkStart += slot.count
        }
    }

    // MARK: Changing chunks

    /// Makes the chunk of slot `index` this value's own, copying it when another copy
    /// shares it.
    private mutating func makeUnique(_ index: Int) {
        if !isKnownUniquelyReferenced(&slots[index].chunk) {
            slots[index].chunk = slots[index].chunk.copy()
        }
    }

    /// Applies `change` to the chunk of slot `index`, made this value's own, and records its
    /// new count. When the chunk refuses the model's type (`change` returns false), the
    /// chunk becomes one of `Any` and takes it.
    private mutating func change(_ index: Int, _ change: (ItemChunk) -> Bool) {
        makeUnique(index)
        defer { slots[index].count = slots[index].chunk.count }
        guard !change(slots[index].chunk) else { return }
        slots[index].chunk = slots[index].chunk.boxed()
        let changed = change(slots[index].chunk)
        assert(changed, "a chunk of Any takes models of every type")
    }

    /// A new chunk holding `models`: of `T` when `typed`, else of `Any`.
    private static func chunk<T>(of models: ArraySlice<T>, typed: Bool) -> ItemChunk {
        if typed { return TypedItemChunk(Array(models)) }
        // Models that are `Any` already go in as they are: `$0 as Any` would put each `Any`
        // inside another (too big for its inline buffer: a heap box per model).
        if T.self == Any.self { return TypedItemChunk<Any>(unsafeBitCast(Array(models), to: [Any].self)) }
        return TypedItemChunk<Any>(models.map { $0 as Any })
    }

    /// Whether chunks of `T` can hold `models` as they are: `T` is not `Any` and is the
    /// first model's own type, not a protocol type or a superclass of it.
    private static func keepsType<T>(of models: some Collection<T>) -> Bool {
        guard T.self != Any.self, let first = models.first else { return false }
        return type(of: first as Any) == T.self
    }

    // MARK: Adding

    /// Appends `models`, into chunks of `T` when that is their own type.
    mutating func append<T>(models: StoredModels<T>) {
        switch models {
        case .values(let values): appendModels(values)
        case .unwrapped(let unwrapped): appendModels(unwrapped)
        }
    }

    mutating func append(_ element: Any) {
        appendModel(element)
    }

    mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Any {
        appendModels(elements as? [Any] ?? Array(elements))
    }

    /// Appends `models` a slice at a time: into the room left in the last chunk when it takes
    /// `T`, else into new chunks. A last chunk of another type takes fewer than half a chunk
    /// of them by becoming a chunk of `Any`, so that small appends of alternating types do
    /// not leave a trail of small chunks.
    private mutating func appendModels<T>(_ models: [T]) {
        let typed = Self.keepsType(of: models)
        var start = 0
        while start < models.count {
            let last = slots.count - 1
            let room = last < 0 ? 0 : Self.chunkLimit - slots[last].count
            let end: Int
            if room > 0, slots[last].chunk.takes(T.self) || models.count - start < Self.chunkLimit / 2 {
                end = Swift.min(models.count, start + room)
                makeUnique(last)
                if !slots[last].chunk.takes(T.self) { slots[last].chunk = slots[last].chunk.boxed() }
                slots[last].chunk.append(contentsOf: models[start..<end])
                slots[last].count += end - start
            } else {
                end = Swift.min(models.count, start + Self.chunkLimit)
                slots.append(Slot(Self.chunk(of: models[start..<end], typed: typed)))
            }
            count += end - start
            start = end
        }
    }

    /// Appends `model` to the last chunk, or to a new one when that is full.
    private mutating func appendModel<T>(_ model: T) {
        if let last = slots.indices.last, slots[last].count < Self.chunkLimit {
            let offset = slots[last].count
            change(last) { $0.insert(model, at: offset) }
        } else {
            let models = [model][...]
            slots.append(Slot(Self.chunk(of: models, typed: Self.keepsType(of: models))))
        }
        count += 1
    }

    mutating func insert(_ element: Any, at position: Int) {
        insertModel(element, at: position)
    }

    /// Inserts `model` at `position` (≤ count), into its chunk, which is split in two when
    /// it outgrows `chunkLimit`.
    mutating func insertModel<T>(_ model: T, at position: Int) {
        precondition(position >= 0 && position <= count, "index \(position) out of range 0...\(count)")
        if position == count {
            appendModel(model)
            return
        }
        let (slot, offset) = locate(position)
        change(slot) { $0.insert(model, at: offset) }
        count += 1
        if slots[slot].count > Self.chunkLimit {
            let tail = slots[slot].chunk.split(at: Self.chunkLimit / 2)
            slots[slot].count = slots[slot].chunk.count
            slots.insert(Slot(tail), at: slot + 1)
        }
    }

    /// Inserts `models[index]` at `position` (≤ count), without boxing it when it is typed.
    mutating func insert<T>(_ index: Int, of models: StoredModels<T>, at position: Int) {
        switch models {
        case .values(let values): insertModel(values[index], at: position)
        case .unwrapped(let unwrapped): insertModel(unwrapped[index], at: position)
        }
    }

    /// Inserts `models` at `position` (≤ count), in order, in chunks of `T` when that is
    /// their own type. A few go into their chunk one by one; a long run splits the chunk
    /// and goes between its halves in chunks of its own, so it costs O(models + one chunk).
    mutating func insert<T>(contentsOf models: StoredModels<T>, at position: Int) {
        precondition(position >= 0 && position <= count, "index \(position) out of range 0...\(count)")
        if position == count {
            append(models: models)
            return
        }
        guard models.count >= Self.chunkLimit / 2 else {
            for index in 0..<models.count { insert(index, of: models, at: position + index) }
            return
        }
        var (slot, offset) = locate(position)
        if offset > 0 {
            makeUnique(slot)
            let tail = slots[slot].chunk.split(at: offset)
            slots[slot].count = offset
            slot += 1
            slots.insert(Slot(tail), at: slot)
        }
        let inserted = ItemChunks(models)
        slots.insert(contentsOf: inserted.slots, at: slot)
        count += inserted.count
    }

    /// Replaces the model at `position` (< count) with `model`.
    mutating func replaceModel<T>(at position: Int, with model: T) {
        let (slot, offset) = locate(position)
        change(slot) { $0.replace(at: offset, with: model) }
    }

    // MARK: Removing

    @discardableResult
    mutating func remove(at position: Int) -> Any {
        let (slot, offset) = locate(position)
        makeUnique(slot)
        let model = slots[slot].chunk.remove(at: offset)
        count -= 1
        slots[slot].count -= 1
        if slots[slot].count == 0 { slots.remove(at: slot) }
        return model
    }

    /// Removes the models at `positions` (ascending, each < count, no repeats) chunk by
    /// chunk, each chunk's kept models sliding down once; chunks left empty go.
    mutating func remove(atSorted positions: [Int]) {
        guard let first = positions.first, let last = positions.last else { return }
        precondition(first >= 0 && last < count, "positions \(first)...\(last) out of range 0..<\(count)")
        var next = 0
        var chunkStart = 0
        for index in slots.indices where next < positions.count {
            let chunkEnd = chunkStart + slots[index].count
            var offsets: [Int] = []
            while next < positions.count, positions[next] < chunkEnd {
                offsets.append(positions[next] - chunkStart)
                next += 1
            }
            if !offsets.isEmpty {
                makeUnique(index)
                slots[index].chunk.remove(atSorted: offsets)
                slots[index].count -= offsets.count
            }
            chunkStart = chunkEnd
        }
        count -= positions.count
        slots.removeAll { $0.count == 0 }
    }

    mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        slots.removeAll()
        count = 0
    }

    mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Any {
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "range \(subrange) out of range 0..<\(count)")
        remove(atSorted: Array(subrange))
        if subrange.lowerBound == count {
            append(contentsOf: newElements)
        } else {
            for (offset, element) in newElements.enumerated() {
                insertModel(element, at: subrange.lowerBound + offset)
            }
        }
    }

    // MARK: Iterating

    func makeIterator() -> Iterator {
        Iterator(slots: slots)
    }

    /// Goes chunk by chunk, without locating each position.
    struct Iterator: IteratorProtocol {
        private let slots: [Slot]
        private var slot = 0
        private var offset = 0

        fileprivate init(slots: [Slot]) {
            self.slots = slots
        }

        mutating func next() -> Any? {
            while slot < slots.count {
                if offset < slots[slot].count {
                    defer { offset += 1 }
                    return slots[slot].chunk[offset]
                }
                slot += 1
                offset = 0
            }
            return nil
        }
    }
}
