import Foundation

/// A tree of models, shown as a list: each item's row, then, when it is expanded, its
/// children's rows, indented by the manager.
///
/// The list is the storage's one section: `item(at:)` answers for the rows shown, in order,
/// so mappings by model type, events, selection and every view kind work on a tree as on a
/// list. The tree itself is addressed by paths from the top items (`[2, 0]`: the first
/// child of the third top item): insert, remove, move, replace and expand there, and the
/// view is told what rows came and went, one `StorageUpdate` per operation (or per
/// `performUpdates` batch). Expanding an item with 100,000 children is one insert; expanding
/// every item of a tree (`expandAll`) is one change of the rows after the first that
/// changes, never a change per item.
///
/// Children can come later: an item made with `childrenLater` shows a `ChildrenLoading`
/// row when first expanded, while `childrenProvider` is asked for them, and a
/// `ChildrenLoadingFailed` row if it fails.
///
/// Like `MemoryStorage`, the storage belongs to one thread (the main thread, when a manager
/// shows it) and is not `Sendable`.
///
/// ```swift
/// let tree = TreeStorage(items: [
///     TreeItem("Music", children: [TreeItem("Bach"), TreeItem("Satie")]),
///     TreeItem("Photos", childrenLater: true),
/// ])
/// tree.childrenProvider = { model, path, deliver in
///     deliver(.success([TreeItem("Holidays"), TreeItem("Cats")]))
/// }
/// try tree.expand(at: [0])                 // Music, Bach, Satie, Photos
/// try tree.insertItems([TreeItem("Pärt")], at: [0, 2])
/// ```
public final class TreeStorage: Storage {
    /// Told about every change of the rows shown. Held weakly.
    public weak var delegate: StorageUpdating?

    /// Asked for the children of an item made with `childrenLater`, when it is first
    /// expanded (and again when expanded after it failed): called with the item's model and
    /// path, it calls `deliver` once, on the storage's thread, now or later. Until then the
    /// item shows a `ChildrenLoading` row. Children delivered for an item removed meanwhile
    /// are dropped.
    public var childrenProvider: ((_ model: Any, _ path: IndexPath, _ deliver: @escaping (Result<[TreeItem], any Error>) -> Void) -> Void)?

    /// Called after an item is expanded or collapsed (from code, a key, a click, or
    /// `expandAll`), with its model, its path and whether it is expanded now. A manager
    /// showing the storage sets it to fire `didExpand` and `didCollapse`; use those.
    public var expansionDidChange: ((_ model: Any, _ path: IndexPath, _ isExpanded: Bool) -> Void)?

    /// Called before rows are hidden by collapsing: with the path of the item collapsed
    /// (`collapse(at:)`), or the path `collapseAll(under:)` was given (`[]` for every item).
    /// A manager showing the storage sets it, to move the keyboard focus and the selection
    /// from a row about to be hidden to the item that hides it.
    public var willCollapse: ((_ path: IndexPath) -> Void)?

    /// The node above the top items: always expanded, never shown.
    let root = TreeNode(model: ())

    private var pendingUpdate = StorageUpdate()
    private var batchDepth = 0
    private var pendingReload = false
    /// The snapshot handed out last, while it may still be read: made to keep the rows it
    /// saw before the storage changes.
    private weak var liveSnapshot: TreeRowsSnapshot?

    /// Creates a storage of `items`, every item collapsed.
    public init(items: [TreeItem] = []) {
        root.flags = .expanded
        root.setChildren(items.map(TreeEntry.init))
    }

    // MARK: Storage

    public func numberOfSections() -> Int { 1 }

    public func numberOfItems(inSection section: Int) -> Int {
        section == 0 ? rowCount : 0
    }

    public func item(at indexPath: IndexPath) -> Any? {
        guard indexPath.count == 2, indexPath.section == 0 else { return nil }
        return place(ofRow: indexPath.item).map { $0.list.model(at: $0.index) }
    }

    public func headerModel(forSection section: Int) -> Any? { nil }
    public func footerModel(forSection section: Int) -> Any? { nil }

    /// The rows as they are now; O(1) until the storage changes while the snapshot is
    /// alive, when it keeps the models it showed (O(rows shown), once).
    public func snapshot() -> any SectionedModels {
        // Until the storage changes, every snapshot shows the same rows: one keeps them.
        if let liveSnapshot { return liveSnapshot }
        let snapshot = TreeRowsSnapshot(storage: self)
        liveSnapshot = snapshot
        return snapshot
    }

    // MARK: Reading the tree

    /// The number of rows shown: every top item, and the children of expanded items.
    public var rowCount: Int { Int(root.shown) - 1 }

    /// The number of children of the item at `path` (of the top items for `[]`), or nil
    /// when there is no item there or its children are still to come.
    public func numberOfChildren(at path: IndexPath = []) -> Int? {
        guard !path.isEmpty else { return root.children?.count }
        return place(of: path).flatMap { $0.list.existingNode(at: $0.index) }?.children?.count
    }

    /// The model at `path`, or nil when there is none.
    public func model(at path: IndexPath) -> Any? {
        place(of: path).map { $0.list.model(at: $0.index) }
    }

    /// The path of the item shown at `row` (counted from 0 over the rows shown), or nil.
    public func path(ofRow row: Int) -> IndexPath? {
        place(ofRow: row).map { $0.list.parent.path.appending($0.index) }
    }

    /// The row showing the item at `path`, or nil when it is not shown (a parent is
    /// collapsed) or not there.
    public func row(of path: IndexPath) -> Int? {
        guard let (list, index) = place(of: path) else { return nil }
        return row(ofChild: index, in: list)
    }

    /// How deep the item shown at `row` is (0 for a top item), or nil for no such row.
    public func depth(ofRow row: Int) -> Int? {
        place(ofRow: row).map { $0.list.parent.depth + 1 }
    }

    /// Whether the item at `path` shows its children.
    public func isExpanded(at path: IndexPath) -> Bool {
        existingNode(at: path)?.isExpanded == true
    }

    /// Whether the item at `path` has children to show, or children still to ask for:
    /// whether its row has an expander.
    public func isExpandable(at path: IndexPath) -> Bool {
        existingNode(at: path)?.isExpandable == true
    }

    /// Whether the item at `path` is waiting for its children from `childrenProvider`.
    public func isLoadingChildren(at path: IndexPath) -> Bool {
        existingNode(at: path)?.flags.contains(.loading) == true
    }

    /// What the manager shows beside the row at `row`: its depth, whether it has an
    /// expander and whether it is expanded; nil for no such row.
    public func disclosure(ofRow row: Int) -> (depth: Int, isExpandable: Bool, isExpanded: Bool)? {
        guard let (list, index) = place(ofRow: row) else { return nil }
        let depth = list.parent.depth + 1
        guard let node = list.existingNode(at: index) else { return (depth, false, false) }
        return (depth, node.isExpandable, node.isExpanded)
    }

    // MARK: Batches

    /// Runs `body`, whose changes reach the delegate as one update when it ends.
    public func performUpdates(_ body: () throws -> Void) rethrows {
        batchDepth += 1
        defer {
            batchDepth -= 1
            if batchDepth == 0 { deliver() }
        }
        try body()
    }

    // MARK: Internals shared by the extensions

    /// The node at `path` (the root for `[]`), made for a leaf kept as its bare model: for
    /// the operations that name an item. Reading goes through `place(of:)`, which makes none.
    func node(at path: IndexPath) -> TreeNode? {
        guard !path.isEmpty else { return root }
        guard let (list, index) = place(of: path) else { return nil }
        return list.node(at: index)
    }

    /// The node at `path`, if the item there has one (nil for a leaf kept as its bare model,
    /// and for `[]`).
    func existingNode(at path: IndexPath) -> TreeNode? {
        place(of: path).flatMap { $0.list.existingNode(at: $0.index) }
    }

    /// The children holding the item at `path`, and its index among them; nil for `[]` or
    /// no item there.
    func place(of path: IndexPath) -> (list: ChildList, index: Int)? {
        guard let last = path.last else { return nil }
        var node = root
        for index in path.dropLast() {
            guard let children = node.children, index >= 0, index < children.count,
                  let child = children.existingNode(at: index) else { return nil }
            node = child
        }
        guard let children = node.children, last >= 0, last < children.count else { return nil }
        return (children, last)
    }

    /// The children holding the item shown at `row`, and its index among them.
    func place(ofRow row: Int) -> (list: ChildList, index: Int)? {
        guard row >= 0, row < rowCount, var list = root.children else { return nil }
        var position = row
        while true {
            guard let (index, offset) = list.locate(position) else { return nil }
            if offset == 0 { return (list, index) }
            guard let children = list.existingNode(at: index)?.children else { return nil }
            position = offset - 1
            list = children
        }
    }

    /// Whether `node` is in this tree (not taken out, with an ancestor, since).
    func contains(_ node: TreeNode) -> Bool {
        var current = node
        while let parent = current.parent { current = parent }
        return current === root
    }

    /// The row of `node`, or nil when a parent is collapsed (or the node is the root).
    func row(of node: TreeNode) -> Int? {
        guard let parent = node.parent, let children = parent.children else { return nil }
        return row(ofChild: Int(node.index), in: children)
    }

    /// The row of the child at `index` of `list`, or nil when it or a parent is collapsed.
    func row(ofChild index: Int, in list: ChildList) -> Int? {
        var row = list.rows(before: index)
        var current = list.parent
        while let parent = current.parent {
            guard current.isExpanded, let children = parent.children else { return nil }
            row += children.rows(before: Int(current.index)) + 1
            current = parent
        }
        return current === root && current.isExpanded ? row : nil
    }

    /// The row of the first child of `node`, when its children are shown.
    func firstChildRow(of node: TreeNode) -> Int? {
        guard node.isExpanded else { return nil }
        if node === root { return 0 }
        return row(of: node).map { $0 + 1 }
    }

    /// `node`'s `shown` changed by `delta`: its ancestors' follow, up to the first collapsed one.
    func propagateShown(from node: TreeNode, by delta: Int) {
        guard delta != 0 else { return }
        var current = node
        while let parent = current.parent {
            parent.children?.shownChanged(at: Int(current.index), by: delta)
            guard parent.isExpanded else { return }
            parent.shown += Int32(delta)
            current = parent
        }
    }

    /// Records `change` for the delegate; called after the storage made it.
    func record(_ change: StorageChange) {
        pendingUpdate.append(change)
    }

    /// Records the update of the row showing `node`, if it is shown.
    func recordUpdate(of node: TreeNode) {
        guard let row = row(of: node) else { return }
        recordUpdate(ofRow: row, model: node.model)
    }

    /// Records the update of the row at `row`, which shows `model` now.
    func recordUpdate(ofRow row: Int, model: Any) {
        pendingUpdate.appendItemUpdate(at: IndexPath(item: row, section: 0), model: model)
    }

    /// Records that the rows are best shown again from scratch.
    func recordReload() {
        pendingReload = true
        pendingUpdate = StorageUpdate()
    }

    /// Keeps the rows the live snapshot saw: called before each change.
    func willChange() {
        liveSnapshot?.keepRows()
        liveSnapshot = nil
    }

    /// Tells the delegate what changed, unless a batch is under way.
    func deliver() {
        guard batchDepth == 0 else { return }
        if pendingReload {
            pendingReload = false
            pendingUpdate = StorageUpdate()
            delegate?.storageNeedsReloading()
            return
        }
        guard !pendingUpdate.isEmpty else { return }
        let update = pendingUpdate
        pendingUpdate = StorageUpdate()
        delegate?.storageDidPerformUpdate(update)
    }

    /// Every model shown, in row order: O(rows shown).
    func shownModels() -> [Any] {
        var models: [Any] = []
        models.reserveCapacity(rowCount)
        func visit(_ node: TreeNode) {
            guard node.isExpanded, let children = node.children else { return }
            children.forEachChild { model, child in
                models.append(model)
                if let child { visit(child) }
            }
        }
        visit(root)
        return models
    }
}

/// The rows of a `TreeStorage` at the time it was taken: read through from the storage
/// until it changes, then from the models it kept.
final class TreeRowsSnapshot: SectionedModels {
    private var storage: TreeStorage?
    private var models: [Any] = []

    init(storage: TreeStorage) {
        self.storage = storage
    }

    /// The storage is about to change: keep what it shows now.
    func keepRows() {
        guard let storage else { return }
        models = storage.shownModels()
        self.storage = nil
    }

    func numberOfSections() -> Int { 1 }

    func numberOfItems(inSection section: Int) -> Int {
        guard section == 0 else { return 0 }
        return storage?.rowCount ?? models.count
    }

    func item(at indexPath: IndexPath) -> Any? {
        if let storage { return storage.item(at: indexPath) }
        guard indexPath.count == 2, indexPath.section == 0, models.indices.contains(indexPath.item) else { return nil }
        return models[indexPath.item]
    }

    func headerModel(forSection section: Int) -> Any? { nil }
    func footerModel(forSection section: Int) -> Any? { nil }
}
