import Foundation

/// One item of a `TreeStorage` with more to it than its model: children (given, read, or
/// to come), an expanded state, or a name an operation gave it. A leaf child is kept as its
/// bare model in its parent's `ChildList` (40 bytes) until an operation names it
/// (`ChildList.node(at:)`): a million leaves cost about what a million models cost in a flat
/// list, where a node each cost 104 bytes (its 96-byte allocation and a reference).
///
/// The parent is not retained (it owns its children), so a node taken out of the tree is
/// freed with its subtree.
final class TreeNode {
    var model: Any
    /// The node whose children this node is among (the storage's root for top items).
    unowned(unsafe) var parent: TreeNode?
    /// The children, once given or read; nil for a leaf or children still to come.
    var children: ChildList?
    /// The node's index among its parent's children.
    var index: Int32 = 0
    /// The rows this node and its shown descendants take: 1, plus its children's rows when
    /// it is expanded (kept whether or not the node itself is shown).
    var shown: Int32 = 1
    var flags: Flags = []

    struct Flags: OptionSet {
        let rawValue: UInt8
        /// The node's children are shown under it.
        static let expanded = Flags(rawValue: 1)
        /// The children are to be asked for when the node is expanded.
        static let childrenLater = Flags(rawValue: 2)
        /// The children are being asked for (the only child is a `ChildrenLoading` row).
        static let loading = Flags(rawValue: 4)
        /// Asking for the children failed (the only child is a `ChildrenLoadingFailed` row).
        static let failed = Flags(rawValue: 8)
    }

    init(model: Any, flags: Flags = []) {
        self.model = model
        self.flags = flags
    }

    deinit {
        // A child still held elsewhere (a handler's, a provider's answer) must not reach
        // a parent that is gone: it is out of the tree.
        children?.forEachNode { $0.parent = nil }
    }

    var isExpanded: Bool { flags.contains(.expanded) }

    /// Whether the node has children to show, or children still to ask for.
    var isExpandable: Bool {
        flags.contains(.childrenLater) || (children?.count ?? 0) > 0
    }

    /// Makes `entries` the node's children (its `shown` follows if it is expanded).
    func setChildren(_ entries: [TreeEntry]) {
        let list = ChildList(entries, parent: self)
        children = list
        shown = isExpanded ? 1 + Int32(list.totalShown) : 1
    }

    /// The path from the roots: the node's index, its parent's, and so on up.
    var path: IndexPath {
        var indexes: [Int] = []
        var node = self
        while let parent = node.parent {
            indexes.append(Int(node.index))
            node = parent
        }
        return IndexPath(indexes: indexes.reversed())
    }

    /// How many ancestors the node has below the root (0 for a top item).
    var depth: Int {
        var depth = -1
        var node: TreeNode? = parent
        while let current = node {
            depth += 1
            node = current.parent
        }
        return depth
    }

    /// Calls `body` with the node and every node below it, parents before children (leaves
    /// kept as bare models are passed over: they have no children and are not expanded).
    func forEachInSubtree(_ body: (TreeNode) -> Void) {
        body(self)
        children?.forEachNode { $0.forEachInSubtree(body) }
    }
}

/// A child as its parent's `ChildList` keeps it: a leaf's bare model, or a node.
enum TreeEntry {
    case leaf(Any)
    case node(TreeNode)

    /// The entry of `item`: its bare model for an item without children (`.none`), else a
    /// node, its given children made too (collapsed).
    init(_ item: TreeItem) {
        switch item.children {
        case .none:
            self = .leaf(item.model)
        case .later:
            self = .node(TreeNode(model: item.model, flags: .childrenLater))
        case .given(let items):
            let node = TreeNode(model: item.model)
            node.setChildren(items.map(TreeEntry.init))
            self = .node(node)
        }
    }

    var model: Any {
        switch self {
        case .leaf(let model): return model
        case .node(let node): return node.model
        }
    }

    /// The rows the entry takes: 1 for a leaf.
    var shown: Int {
        switch self {
        case .leaf: return 1
        case .node(let node): return Int(node.shown)
        }
    }

    /// Whether the entry's row has an expander (never for a leaf).
    var isExpandable: Bool {
        switch self {
        case .leaf: return false
        case .node(let node): return node.isExpandable
        }
    }
}

/// A node's children with the rows each takes: positions inside them cost O(1) while every
/// child takes one row, O(log children) once some child shows its own children.
final class ChildList {
    private var entries: [TreeEntry]
    /// How many children have a node: while none does, nothing goes through the entries
    /// one by one (reading an entry copies its model: about 8 ns).
    private var nodeCount = 0
    /// Each child's `shown`, with prefix sums; nil while every child takes one row.
    private var counts: CountTree?
    /// The node whose children these are.
    private(set) unowned(unsafe) var parent: TreeNode

    init(_ entries: [TreeEntry], parent: TreeNode) {
        self.entries = entries
        self.parent = parent
        for (index, entry) in entries.enumerated() {
            guard case .node(let node) = entry else { continue }
            node.parent = parent
            node.index = Int32(index)
            nodeCount += 1
        }
        recount()
    }

    /// The number of children.
    var count: Int { entries.count }

    /// The model of the child at `index`.
    func model(at index: Int) -> Any { entries[index].model }

    /// The child at `index` as the list keeps it.
    func entry(at index: Int) -> TreeEntry { entries[index] }

    /// The node of the child at `index` if it has one (a leaf kept as its bare model has none).
    func existingNode(at index: Int) -> TreeNode? {
        guard case .node(let node) = entries[index] else { return nil }
        return node
    }

    /// The node of the child at `index`, made for a leaf kept as its bare model (it keeps it
    /// from then on).
    func node(at index: Int) -> TreeNode {
        switch entries[index] {
        case .node(let node):
            return node
        case .leaf(let model):
            let node = TreeNode(model: model)
            node.parent = parent
            node.index = Int32(index)
            entries[index] = .node(node)
            nodeCount += 1
            return node
        }
    }

    /// Calls `body` with each child that has a node, in order.
    func forEachNode(_ body: (TreeNode) -> Void) {
        guard nodeCount > 0 else { return }
        for entry in entries {
            if case .node(let node) = entry { body(node) }
        }
    }

    /// Calls `body` with each child's model, and its node when it has one, in order.
    func forEachChild(_ body: (Any, TreeNode?) -> Void) {
        for entry in entries {
            switch entry {
            case .leaf(let model): body(model, nil)
            case .node(let node): body(node.model, node)
            }
        }
    }

    /// The rows the children take.
    var totalShown: Int { counts?.total ?? entries.count }

    /// The rows the children before `index` take.
    func rows(before index: Int) -> Int { counts?.prefix(index) ?? index }

    /// The child whose rows hold `position` (counted from the first child's row), and the
    /// position's offset among its rows (0: the child's own row).
    func locate(_ position: Int) -> (index: Int, offset: Int)? {
        if let counts { return counts.locate(position) }
        return position >= 0 && position < entries.count ? (position, 0) : nil
    }

    /// The child at `index` now takes `delta` more rows.
    func shownChanged(at index: Int, by delta: Int) {
        guard delta != 0 else { return }
        if counts != nil {
            counts!.add(delta, at: index)
        } else {
            recount()
        }
    }

    /// Puts `inserted` before the child at `index`.
    func insert(_ inserted: [TreeEntry], at index: Int) {
        nodeCount += Self.nodes(in: inserted[...])
        entries.insert(contentsOf: inserted, at: index)
        renumber(from: index)
        recount()
    }

    /// Takes out the children in `range`.
    func remove(_ range: Range<Int>) {
        nodeCount -= Self.nodes(in: entries[range])
        for case .node(let node) in entries[range] { node.parent = nil }
        entries.removeSubrange(range)
        renumber(from: range.lowerBound)
        recount()
    }

    /// Numbers the nodes from `start` on, and makes this list's node their parent.
    private func renumber(from start: Int) {
        guard nodeCount > 0 else { return }
        for index in start..<entries.count {
            guard case .node(let node) = entries[index] else { continue }
            node.parent = parent
            node.index = Int32(index)
        }
    }

    /// Builds the prefix sums again, or drops them while every child takes one row.
    func recount() {
        counts = nodeCount > 0 && entries.contains { $0.shown != 1 } ? CountTree(entries.lazy.map(\.shown)) : nil
    }

    /// How many of `entries` are nodes.
    private static func nodes(in entries: ArraySlice<TreeEntry>) -> Int {
        entries.reduce(0) { count, entry in
            if case .node = entry { return count + 1 }
            return count
        }
    }
}
