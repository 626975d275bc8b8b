import Foundation

/// One section of identified items, changed by whole arrays: give it the items as they
/// are now, and it tells its view what changed (deletions, insertions, moves and in-place
/// updates, worked out by `ListSnapshot`'s diff), as DTModelStorage's
/// `SingleSectionEquatableStorage` and `SingleSectionHashableStorage` do with a differ.
///
/// ```swift
/// struct Post: Identifiable, Equatable { let id: Int; var title: String }
///
/// let storage = SingleSectionStorage(items: [Post(id: 1, title: "First")])
/// storage.setItems([Post(id: 2, title: "Second"), Post(id: 1, title: "First, edited")])
/// // the view is told: an insertion, a move and an update
/// storage.addItems([Post(id: 2, title: "Second, edited")], .updateOldValues)
/// ```
///
/// An item's identity is its `id`, its content what `==` compares. Like `MemoryStorage`,
/// it is changed on one thread (the main thread once a manager shows it).
public final class SingleSectionStorage<Item: Identifiable & Equatable>: Storage {
    /// Holds the section; every change goes through its `apply(_:)`.
    private let contents = MemoryStorage()

    /// The object told about every change. Held weakly.
    public weak var delegate: StorageUpdating? {
        get { contents.delegate }
        set { contents.delegate = newValue }
    }

    /// The section's header model, or nil for none: a change is shown as its update.
    public var headerModel: (any Equatable & Sendable)? {
        didSet { show(items) }
    }

    /// The section's footer model, or nil for none.
    public var footerModel: (any Equatable & Sendable)? {
        didSet { show(items) }
    }

    /// A storage holding `items`, with optional header and footer models.
    public init(items: [Item] = [], headerModel: (any Equatable & Sendable)? = nil, footerModel: (any Equatable & Sendable)? = nil) {
        self.headerModel = headerModel
        self.footerModel = footerModel
        show(items)
    }

    /// The items, in order.
    public var items: [Item] {
        contents.items(ofType: Item.self)
    }

    /// Makes the section hold `newItems`, telling the view what changed (nothing when
    /// nothing did).
    public func setItems(_ newItems: [Item]) {
        show(newItems)
    }

    /// Adds `newItems` to the items held as `strategy` says: after them by default,
    /// or replacing or moving the items of the same identities
    /// (`.updateOldValues`, `.deleteOldValues`).
    public func addItems(_ newItems: [Item], _ strategy: some AccumulationStrategy = .additive) {
        show(strategy.accumulate(oldItems: items, newItems: newItems))
    }

    private func show(_ items: [Item]) {
        contents.apply(ListSnapshot(items: items, section: 0, header: headerModel, footer: footerModel))
    }

    // MARK: Storage

    public func numberOfSections() -> Int { 1 }

    public func numberOfItems(inSection section: Int) -> Int {
        section == 0 ? contents.numberOfItems(inSection: 0) : 0
    }

    public func item(at indexPath: IndexPath) -> Any? {
        contents.item(at: indexPath)
    }

    public func headerModel(forSection section: Int) -> Any? {
        section == 0 ? contents.headerModel(forSection: 0) : nil
    }

    public func footerModel(forSection section: Int) -> Any? {
        section == 0 ? contents.footerModel(forSection: 0) : nil
    }

    public func snapshot() -> any SectionedModels {
        contents.snapshot()
    }
}
