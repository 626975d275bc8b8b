import Foundation

/// Models kept in memory, in sections with optional header and footer models.
///
/// Every change is recorded as a `StorageUpdate` and delivered to the `delegate` when the
/// operation, or the whole `performUpdates` batch, ends. Bad input (an index path out of
/// range, an item that is not there, a nil model) changes nothing: throwing operations
/// throw a `MemoryStorageError`, and every case is also reported to `anomalyHandler`.
///
/// A storage belongs to one thread: it does no locking and is not `Sendable`, so Swift 6
/// refuses to hand it to another thread. Once a delegate is attached, the storage is
/// changed on the thread it was attached on, since the delegate is told of each change at
/// once: a storage shown by a manager is changed on the main thread (its changes reach
/// GTK). A change called on another thread stops the process with a message naming the
/// call and the thread, before anything changed. To load models elsewhere, send the models
/// to the main thread and change the storage there.
///
/// ```swift
/// let storage = MemoryStorage()
/// storage.setSectionHeaderModels(["Today", "Earlier"])
/// storage.addItems(todayPosts, toSection: 0)
/// storage.performUpdates {
///     storage.addItem(draft, toSection: 1)
///     try? storage.removeItem(oldPost)
/// }
/// ```
public final class MemoryStorage: Storage {
    /// Told about every change, on the thread it was attached on: from then on, the
    /// storage must be changed on that thread. Held weakly.
    public weak var delegate: StorageUpdating? {
        didSet { owningThread = delegate.map(OwningThread.init(attaching:)) }
    }
    /// The thread the storage is changed on while a delegate is attached. Read at every
    /// change, unchecked for exclusive access: that check would cost more than the check of
    /// the thread (written only when a delegate is attached).
    @exclusivity(unchecked) var owningThread: OwningThread?

    /// Receives this storage's anomalies.
    public let anomalyHandler = MemoryStorageAnomalyHandler()

    /// The sections, in order.
    public internal(set) var sections: [SectionModel] = []

    /// The changes of the batch in progress.
    private var pendingUpdate = StorageUpdate()
    /// How many `performUpdates` calls are running (batches nest into the outermost).
    private var batchDepth = 0
    /// Set when the batch in progress must be shown by reloading everything.
    private var pendingReload = false

    /// Creates an empty storage.
    public init() {}

    // MARK: Storage

    public func numberOfSections() -> Int {
        current.numberOfSections()
    }

    public func numberOfItems(inSection section: Int) -> Int {
        current.numberOfItems(inSection: section)
    }

    public func item(at indexPath: IndexPath) -> Any? {
        current.item(at: indexPath)
    }

    public func headerModel(forSection section: Int) -> Any? {
        current.headerModel(forSection: section)
    }

    public func footerModel(forSection section: Int) -> Any? {
        current.footerModel(forSection: section)
    }

    /// The sections seen through the read-only queries they share with snapshots.
    private var current: MemoryStorageSnapshot {
        MemoryStorageSnapshot(sections: sections)
    }

    /// The sections as they are now. O(1): sections are copied only if the storage changes
    /// while the snapshot is alive.
    public func snapshot() -> any SectionedModels {
        MemoryStorageSnapshot(sections: sections)
    }

    // MARK: Queries

    /// The items of `section`, or nil when there is no such section.
    public func items(inSection section: Int) -> [Any]? {
        sections.indices.contains(section) ? sections[section].items : nil
    }

    /// A copy of the section at `index`, or nil when there is none.
    public func section(atIndex index: Int) -> SectionModel? {
        sections.indices.contains(index) ? sections[index] : nil
    }

    /// The index of the section `section` is a copy of, or nil when the storage no longer
    /// holds that section. O(number of sections).
    ///
    /// `SectionModel` is a value, so this stands in for DTModelStorage's search for the
    /// same section object: `section` is the section it was copied from (by
    /// `section(atIndex:)`), or the one filled from it (by `insertSection(_:atIndex:)` or
    /// `setSection(_:forSection:)`), found wherever it has moved since. A section stays
    /// itself while its items, header and footer change, through `sortItems(by:)`, and
    /// through each snapshot `apply(_:)` pairs it with; it is gone once deleted, or
    /// replaced by `setSection(_:forSection:)`. Equal content does not make two sections
    /// the same. A section model stored twice is found at its first index.
    public func sectionIndex(for section: SectionModel) -> Int? {
        sections.firstIndex { $0.instance == section.instance }
    }

    /// Every item of type `type`, section after section, in order; the others are left
    /// out. O(number of items).
    public func items<T>(ofType type: T.Type) -> [T] {
        sections.flatMap { $0.items(ofType: type) }
    }

    /// The number of items in all sections. O(number of sections).
    public var totalNumberOfItems: Int {
        sections.reduce(0) { $0 + $1.models.count }
    }

    /// The index path of the first item equal to `item`, or nil when there is none.
    /// O(number of items).
    public func indexPath<T: Equatable>(forItem item: T) -> IndexPath? {
        firstIndexPath(of: item, skipping: [])
    }

    /// The index paths of `items`, in their order: for each, the first item equal to it not
    /// already listed (a value listed twice finds two equal items), missing ones left out;
    /// as `removeItems(_:)` finds them. O(number of items × items).
    public func indexPathArray<T: Equatable>(forItems items: [T]) -> [IndexPath] {
        var found: [IndexPath] = []
        var listed = Set<IndexPath>()
        for item in items {
            guard let indexPath = firstIndexPath(of: item, skipping: listed) else { continue }
            found.append(indexPath)
            listed.insert(indexPath)
        }
        return found
    }

    /// `indexPaths` sorted by section, then item: `ascending`, or descending (the order in
    /// which removing them one by one leaves each still valid).
    public static func sortedArrayOfIndexPaths(_ indexPaths: [IndexPath], ascending: Bool) -> [IndexPath] {
        indexPaths.sorted(by: ascending ? (<) : (>))
    }

    /// The first index path holding a model equal to `item`, not counting `skipped` ones.
    func firstIndexPath<T: Equatable>(of item: T, skipping skipped: Set<IndexPath>) -> IndexPath? {
        guard let wanted = unwrap(item) as? T else { return nil }
        for (sectionIndex, section) in sections.enumerated() {
            var start = 0
            while let itemIndex = section.models.firstPosition(of: wanted, from: start) {
                let indexPath = IndexPath(item: itemIndex, section: sectionIndex)
                if !skipped.contains(indexPath) { return indexPath }
                start = itemIndex + 1
            }
        }
        return nil
    }

    // MARK: Batches

    /// Runs `block` and delivers all the changes it made as one `StorageUpdate` (nothing is
    /// delivered when nothing changed). Batches nest: an inner one joins the outer one.
    public func performUpdates(_ block: () throws -> Void) rethrows {
        checkThread()
        try batch(block)
    }

    /// Runs `block` as a batch (see `performUpdates`), for operations that checked the
    /// thread on entry.
    func batch(_ block: () throws -> Void) rethrows {
        batchDepth += 1
        defer {
            batchDepth -= 1
            if batchDepth == 0 { deliverPendingUpdate() }
        }
        try block()
    }

    /// Runs `block` and then asks the delegate to reload everything instead of showing
    /// each change (DTModelStorage's `updateWithoutAnimations`). Nothing is delivered when
    /// nothing changed.
    public func updateWithoutAnimations(_ block: () throws -> Void) rethrows {
        checkThread()
        try batch {
            try block()
            if !pendingUpdate.isEmpty { pendingReload = true }
        }
    }

    /// Records changes made by `body`, delivering them now unless a batch is running.
    /// `body` must validate its input before it changes anything.
    func record(_ body: (inout StorageUpdate) throws -> Void) rethrows {
        try batch {
            try body(&pendingUpdate)
        }
    }

    /// Marks the batch in progress as needing a full reload of the view.
    func requestReload() {
        pendingReload = true
    }

    private func deliverPendingUpdate() {
        let update = pendingUpdate
        let reload = pendingReload
        pendingUpdate = StorageUpdate()
        pendingReload = false
        if reload {
            delegate?.storageNeedsReloading()
        } else if !update.isEmpty {
            delegate?.storageDidPerformUpdate(update)
        }
    }

    // MARK: Shared steps

    /// Creates empty sections up to `index`, recording each.
    func ensureSection(_ index: Int, _ update: inout StorageUpdate) {
        while sections.count <= index {
            sections.append(SectionModel())
            update.append(.insertSection(sections.count - 1))
        }
    }

    /// The most sections one operation creates to reach the section it names (DTModelStorage
    /// creates the missing ones): a section index further out (`Int.max`, say, which would
    /// take all memory) is refused as out of range.
    public static let maximumNewSections = 10_000

    /// Whether the storage has section `section` or may create the sections up to it: not
    /// negative, fewer than `maximumNewSections` past the last.
    func canReach(section: Int) -> Bool {
        section >= 0 && section - sections.count < Self.maximumNewSections
    }

    /// Reports `.sectionIndexOutOfRange` and returns false unless the storage has section
    /// `section` or may create the sections up to it (`canReach(section:)`).
    func checkSectionCanBeReached(_ section: Int) -> Bool {
        guard canReach(section: section) else {
            anomalyHandler.report(.sectionIndexOutOfRange(section: section, numberOfSections: sections.count))
            return false
        }
        return true
    }

    /// `items` as stored models, or nil (reporting `.nilItem` for `operation`) when any is nil.
    func storedModelsReportingNil<T>(_ items: [T], operation: String) -> StoredModels<T>? {
        guard let models = storedModels(items) else {
            anomalyHandler.report(.nilItem(operation: operation))
            return nil
        }
        return models
    }

    /// A short description of `item` for anomalies and errors.
    func describeItem(_ item: Any) -> String {
        String(describing: item)
    }
}
