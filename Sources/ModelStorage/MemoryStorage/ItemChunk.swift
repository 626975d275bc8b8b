/// One chunk of an `ItemChunks`: consecutive models of a section, in an array of a single
/// element type.
///
/// This class is the type-erased face of `TypedItemChunk<Element>`, its only subclass, so
/// that chunks of different element types sit in one array. It is a class rather than a
/// protocol because `ItemChunks` checks with `isKnownUniquelyReferenced` that it owns a
/// chunk alone before changing it, which needs a class type: through a protocol existential
/// the check would see the copy made to open it, and always answer no.
///
/// Models go in generic (`T`), so that a model of the chunk's own type is stored without
/// being boxed into an `Any`; they come out as `Any`.
class ItemChunk {
    /// The number of models.
    var count: Int { abstract() }

    /// The type of the array's elements: the models' own type, or `Any`.
    var elementType: Any.Type { abstract() }

    /// The model at `offset` (< count).
    subscript(offset: Int) -> Any { abstract() }

    /// A chunk of the same type holding the same models, for a copy-on-write copy.
    func copy() -> ItemChunk { abstract() }

    /// A chunk holding the same models as `Any`, which takes models of any type.
    func boxed() -> ItemChunk { abstract() }

    /// Whether `append(contentsOf:)` takes models of type `T`: `T` is the element type,
    /// or the element type is `Any`.
    func takes<T>(_ type: T.Type) -> Bool { abstract() }

    /// Inserts `model` at `offset` (≤ count), unless its type is not the element type
    /// (nor the element type `Any`): then returns false and changes nothing.
    func insert<T>(_ model: T, at offset: Int) -> Bool { abstract() }

    /// Replaces the model at `offset` (< count) with `model`, unless its type is not the
    /// element type (nor the element type `Any`): then returns false and changes nothing.
    func replace<T>(at offset: Int, with model: T) -> Bool { abstract() }

    /// Appends `models`, whose type it takes (see `takes(_:)`).
    func append<T>(contentsOf models: ArraySlice<T>) { abstract() }

    /// Removes and returns the model at `offset` (< count).
    func remove(at offset: Int) -> Any { abstract() }

    /// Removes the models at `offsets` (ascending, each < count, no repeats).
    func remove(atSorted offsets: [Int]) { abstract() }

    /// Removes the models from `offset` on and returns them as a chunk of the same type.
    func split(at offset: Int) -> ItemChunk { abstract() }

    /// Appends every model, as `Any`, to `models`.
    func appendModels(to models: inout [Any]) { abstract() }

    /// The offset of the first model from `start` on that is a `T` equal to `wanted`, or nil.
    func firstOffset<T: Equatable>(of wanted: T, from start: Int) -> Int? { abstract() }

    /// Appends the models that are `T`s to `typed`, and the offsets (plus `base`) of the
    /// others to `others`. A chunk of `T` is appended in one go.
    func appendModels<T>(as type: T.Type, to typed: inout [T], others: inout [Int], base: Int) { abstract() }

    private func abstract() -> Never {
        preconditionFailure("ItemChunk is abstract: chunks are TypedItemChunk")
    }
}

/// A chunk whose models all have the type `Element`: kept as an `[Element]`, so that a model
/// larger than `Any`'s inline buffer is not boxed on the heap. `Element` is `Any` for a chunk
/// of mixed types.
final class TypedItemChunk<Element>: ItemChunk {
    private var elements: [Element]

    init(_ elements: [Element]) {
        self.elements = elements
    }

    override var count: Int { elements.count }

    override var elementType: Any.Type { Element.self }

    override subscript(offset: Int) -> Any { elements[offset] }

    override func copy() -> ItemChunk {
        TypedItemChunk(elements)
    }

    override func boxed() -> ItemChunk {
        if Element.self == Any.self { return copy() }
        return TypedItemChunk<Any>(elements.map { $0 as Any })
    }

    override func takes<T>(_ type: T.Type) -> Bool {
        T.self == Element.self || Element.self == Any.self
    }

    override func insert<T>(_ model: T, at offset: Int) -> Bool {
        guard let element = element(model) else { return false }
        elements.insert(element, at: offset)
        return true
    }

    override func replace<T>(at offset: Int, with model: T) -> Bool {
        guard let element = element(model) else { return false }
        elements[offset] = element
        return true
    }

    override func append<T>(contentsOf models: ArraySlice<T>) {
        precondition(takes(T.self), "a chunk of \(Element.self) cannot take \(T.self)")
        if T.self == Element.self {
            // The same type: the slice itself, appended in one go.
            elements.append(contentsOf: unsafeBitCast(models, to: ArraySlice<Element>.self))
        } else {
            for model in models { elements.append(model as Any as! Element) }
        }
    }

    override func remove(at offset: Int) -> Any {
        elements.remove(at: offset)
    }

    override func remove(atSorted offsets: [Int]) {
        guard offsets.count > 1 else {
            if let offset = offsets.first { elements.remove(at: offset) }
            return
        }
        // The runs of kept models between the removed ones, each copied in one go.
        var kept: [Element] = []
        kept.reserveCapacity(elements.count - offsets.count)
        var runStart = 0
        for offset in offsets {
            kept.append(contentsOf: elements[runStart..<offset])
            runStart = offset + 1
        }
        kept.append(contentsOf: elements[runStart...])
        elements = kept
    }

    override func split(at offset: Int) -> ItemChunk {
        let tail = Array(elements[offset...])
        elements.removeSubrange(offset...)
        return TypedItemChunk(tail)
    }

    override func appendModels(to models: inout [Any]) {
        if Element.self == Any.self {
            // The same type: the array itself, appended in one go.
            models.append(contentsOf: unsafeBitCast(elements, to: [Any].self))
        } else {
            for element in elements { models.append(element) }
        }
    }

    override func firstOffset<T: Equatable>(of wanted: T, from start: Int) -> Int? {
        if T.self == Element.self {
            // Compared as they are, without boxing each into an `Any`.
            return unsafeBitCast(elements, to: [T].self)[start...].firstIndex(of: wanted)
        }
        return elements[start...].firstIndex { ($0 as? T) == wanted }
    }

    override func appendModels<T>(as type: T.Type, to typed: inout [T], others: inout [Int], base: Int) {
        if T.self == Element.self {
            // The same type: the array itself, appended in one go.
            typed.append(contentsOf: unsafeBitCast(elements, to: [T].self))
            return
        }
        for (offset, element) in elements.enumerated() {
            if let model = element as? T { typed.append(model) } else { others.append(base + offset) }
        }
    }

    /// `model` as an element, or nil when storing it would change it: its type must be
    /// `Element` itself (a subclass instance is kept as it is in a chunk of its superclass
    /// only when it comes in typed as the superclass), unless `Element` is `Any`.
    private func element<T>(_ model: T) -> Element? {
        if T.self == Element.self { return model as? Element }
        let value = model as Any
        guard Element.self == Any.self || type(of: value) == Element.self else { return nil }
        return value as? Element
    }
}
