import Foundation

/// One item of a `TreeStorage`: its model, its children and whether they are shown.
///
/// Kept small (80 bytes): a million nodes cost little more than a million models in a flat
/// list. The parent is not retained (it owns its children), so a node taken out of the tree
/// is freed with its subtree.
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

    /// A node of `item`, its given children made too (collapsed).
    convenience init(_ item: TreeItem) {
        switch item.children {
        case .none:
            self.init(model: item.model)
        case .later:
            self.init(model: item.model, flags: .childrenLater)
        case .given(let items):
            self.init(model: item.model)
            setChildren(items.map(TreeNode.init))
        }
    }

    var isExpanded: Bool { flags.contains(.expanded) }

    /// Whether the node has children to show, or children still to ask for.
    var isExpandable: Bool {
        flags.contains(.childrenLater) || !(children?.nodes.isEmpty ?? true)
    }

    /// Makes `nodes` the node's children (its `shown` follows if it is expanded).
    func setChildren(_ nodes: [TreeNode]) {
        let list = ChildList(nodes, parent: self)
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

    /// Calls `body` with the node and every descendant, parents before children.
    func forEachInSubtree(_ body: (TreeNode) -> Void) {
        body(self)
        children?.nodes.forEach { $0.forEachInSubtree(body) }
    }
}

/// A node's children with the rows each takes: positions inside them cost O(1) while every
/// child takes one row, O(log children) once some child shows its own children.
final class ChildList {
    private(set) var nodes: [TreeNode]
    /// Each child's `shown`, with prefix sums; nil while every child takes one row.
    private var counts: CountTree?

    init(_ nodes: [TreeNode], parent: TreeNode) {
        self.nodes = nodes
        for (index, node) in nodes.enumerated() {
            node.parent = parent
            node.index = Int32(index)
        }
        recount()
    }

    /// The rows the children take.
    var totalShown: Int { counts?.total ?? nodes.count }

    /// The rows the children before `index` take.
    func rows(before index: Int) -> Int { counts?.prefix(index) ?? index }

    /// The child whose rows hold `position` (counted from the first child's row), and the
    /// position's offset among its rows (0: the child's own row).
    func locate(_ position: Int) -> (index: Int, offset: Int)? {
        if let counts { return counts.locate(position) }
        return position >= 0 && position < nodes.count ? (position, 0) : nil
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

    /// Puts `inserted` before the child at `index`, their parent `parent`.
    func insert(_ inserted: [TreeNode], at index: Int, parent: TreeNode) {
        nodes.insert(contentsOf: inserted, at: index)
        for node in inserted { node.parent = parent }
        renumber(from: index)
        recount()
    }

    /// Takes out the children in `range`.
    func remove(_ range: Range<Int>) {
        nodes.removeSubrange(range)
        renumber(from: range.lowerBound)
        recount()
    }

    /// Puts `node` in place of the child at `index`.
    func replace(at index: Int, with node: TreeNode, parent: TreeNode) {
        nodes[index] = node
        node.parent = parent
        node.index = Int32(index)
        recount()
    }

    private func renumber(from start: Int) {
        for index in start..<nodes.count { nodes[index].index = Int32(index) }
    }

    /// Builds the prefix sums again, or drops them while every child takes one row.
    func recount() {
        counts = nodes.contains { $0.shown != 1 } ? CountTree(nodes.lazy.map { Int($0.shown) }) : nil
    }
}
