import Synchronization

/// One section of a `MemoryStorage`: its items and its optional header and footer models.
///
/// A value: `MemoryStorage.section(atIndex:)` hands out a copy, and changes go through the
/// storage so that views hear of them. A copy still knows which section it came from:
/// `MemoryStorage.sectionIndex(for:)` finds that section's index.
public struct SectionModel {
    /// The section's models, in order. Optionals are stored unwrapped. O(items): a copy.
    public var items: [Any] { models.allModels }
    /// The models as kept: in chunks, so that changes in the middle stay cheap.
    var models: ItemChunks
    /// The model shown above the items, if any.
    public internal(set) var headerModel: Any?
    /// The model shown below the items, if any.
    public internal(set) var footerModel: Any?
    /// The section's identity in the last `ListSnapshot` the storage applied
    /// (`MemoryStorage.apply(_:)`), or nil for a section made otherwise.
    public internal(set) var identifier: AnyHashable?
    /// Which section model this is a copy of: new for each one created, shared by its
    /// copies, and taken on by a storage's section filled from it (`sectionIndex(for:)`).
    var instance: UInt64 = nextSectionInstance.add(1, ordering: .relaxed).newValue

    /// Creates a section. Optional models are unwrapped; nil items are skipped.
    /// - Parameters:
    ///   - items: the section's models.
    ///   - headerModel: the model of its header, or nil for none.
    ///   - footerModel: the model of its footer, or nil for none.
    public init<T>(items: [T], headerModel: Any? = nil, footerModel: Any? = nil) {
        models = ItemChunks(storedModels(items) ?? .unwrapped(items.compactMap { unwrap($0) }))
        self.headerModel = headerModel.flatMap(unwrap)
        self.footerModel = footerModel.flatMap(unwrap)
    }

    /// Creates a section without items.
    public init(headerModel: Any? = nil, footerModel: Any? = nil) {
        self.init(items: [Any](), headerModel: headerModel, footerModel: footerModel)
    }

    /// The number of items.
    public var numberOfItems: Int { models.count }

    /// Whether the section has no items (it may still have a header or footer model).
    public var isEmpty: Bool { models.isEmpty }

    /// The section's items of type `type`, in order; the others are left out.
    public func items<T>(ofType type: T.Type) -> [T] {
        var typed: [T] = []
        var others: [Int] = []
        models.appendModels(as: type, to: &typed, others: &others)
        return typed
    }

    /// The item at `index`, or nil when there is none.
    public func item(at index: Int) -> Any? {
        models.indices.contains(index) ? models[index] : nil
    }

    /// The header or footer model.
    func supplementaryModel(_ kind: SupplementaryKind) -> Any? {
        kind == .header ? headerModel : footerModel
    }

    /// Sets the header or footer model.
    mutating func setSupplementaryModel(_ model: Any?, _ kind: SupplementaryKind) {
        if kind == .header { headerModel = model } else { footerModel = model }
    }
}

/// The last number given to a new `SectionModel` as its `instance`.
private let nextSectionInstance = Atomic<UInt64>(0)
