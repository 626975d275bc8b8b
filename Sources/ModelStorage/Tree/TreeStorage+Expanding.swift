import Foundation

extension TreeStorage {
    /// Shows the children of the item at `path` under it (asking `childrenProvider` for
    /// them first when they are to come later: a `ChildrenLoading` row shows meanwhile).
    /// Expanding an expanded item, or one with nothing to show, changes nothing.
    /// - Throws: `TreeStorageError.noItem` when there is no item at `path`.
    public func expand(at path: IndexPath) throws {
        guard !path.isEmpty, let node = node(at: path) else { throw TreeStorageError.noItem(at: path) }
        guard !node.isExpanded, node.isExpandable else { return }
        willChange()
        let asks = startLoading(node)
        let delta = node.children!.totalShown
        node.flags.insert(.expanded)
        node.shown += Int32(delta)
        propagateShown(from: node, by: delta)
        if let first = firstChildRow(of: node) {
            record(.insertItems(section: 0, items: first..<(first + delta)))
        }
        recordUpdate(of: node)
        deliver()
        expansionDidChange?(node.model, path, true)
        // (The handler may have changed the tree: the item may be elsewhere, or gone.)
        if asks, contains(node), node.flags.contains(.loading) { askForChildren(of: node, at: node.path) }
    }

    /// Hides the children of the item at `path`; their own expanded state is kept for when
    /// it is expanded again. Collapsing an item whose children failed to load lets the next
    /// expansion ask for them again.
    /// - Throws: `TreeStorageError.noItem` when there is no item at `path`.
    public func collapse(at path: IndexPath) throws {
        guard !path.isEmpty, let node = node(at: path) else { throw TreeStorageError.noItem(at: path) }
        guard node.isExpanded else { return }
        willCollapse?(path)
        willChange()
        let first = firstChildRow(of: node)
        let delta = Int(node.shown) - 1
        node.flags.remove(.expanded)
        node.shown = 1
        propagateShown(from: node, by: -delta)
        if let first, delta > 0 {
            record(.deleteItems(section: 0, items: first..<(first + delta)))
        }
        if node.flags.contains(.failed) {
            node.flags = .childrenLater
            node.children = nil
        }
        recordUpdate(of: node)
        deliver()
        expansionDidChange?(node.model, path, false)
    }

    /// Expands the item at `path` if it is collapsed, else collapses it.
    /// - Throws: `TreeStorageError.noItem` when there is no item at `path`.
    public func toggle(at path: IndexPath) throws {
        if isExpanded(at: path) { try collapse(at: path) } else { try expand(at: path) }
    }

    /// Expands the item at `path` and every item below it (every item of the tree for `[]`,
    /// the default). The rows shown change in one go: one insert when a single place gains
    /// rows, else one replacement of the rows from the first place that changes to the end
    /// of the item's rows, never a change per item. Items whose children come later are
    /// expanded and asked for them (their children arrive collapsed).
    /// - Throws: `TreeStorageError.noItem` when there is no item at `path`.
    public func expandAll(under path: IndexPath = []) throws {
        guard let top = node(at: path) else { throw TreeStorageError.noItem(at: path) }
        willChange()
        let topRow = top === root ? -1 : row(of: top)
        let oldShown = Int(top.shown)
        var expanded: [TreeNode] = []
        var asking: [TreeNode] = []
        // The first node expanded whose row was shown, and how many such places gain rows.
        var firstShown: TreeNode?
        var placesGaining = 0
        func visit(_ node: TreeNode, shownBefore: Bool) {
            let wasExpanded = node.isExpanded
            if !wasExpanded, node.isExpandable {
                if startLoading(node) { asking.append(node) }
                node.flags.insert(.expanded)
                expanded.append(node)
                if shownBefore {
                    placesGaining += 1
                    if firstShown == nil { firstShown = node }
                }
            }
            guard let children = node.children else { return }
            let childrenShownBefore = shownBefore && wasExpanded
            // Leaves kept as bare models have nothing to expand.
            children.forEachNode { visit($0, shownBefore: childrenShownBefore) }
        }
        visit(top, shownBefore: topRow != nil || top === root)
        guard !expanded.isEmpty else { return }
        top.recountSubtree()
        propagateShown(from: top, by: Int(top.shown) - oldShown)
        if let firstShown, let topRow, let firstRow = row(of: firstShown) {
            let start = firstRow + 1
            let added = Int(top.shown) - oldShown
            if placesGaining == 1 {
                record(.insertItems(section: 0, items: start..<(start + added)))
            } else {
                let oldEnd = topRow + oldShown
                record(.deleteItems(section: 0, items: start..<oldEnd))
                record(.insertItems(section: 0, items: start..<(oldEnd + added)))
            }
            // Its arrow turned; the other items expanded are among the rows inserted.
            recordUpdate(of: firstShown)
        }
        deliver()
        // Paths taken before any handler runs: a handler may change the tree.
        let notices = expansionDidChange == nil ? [] : expanded.map { ($0.model, $0.path) }
        for (model, path) in notices { expansionDidChange?(model, path, true) }
        for node in asking where contains(node) && node.flags.contains(.loading) { askForChildren(of: node, at: node.path) }
    }

    /// Collapses the item at `path` and every item below it (every item for `[]`, the
    /// default). The rows shown change in one go: one delete when a single place loses
    /// rows, else one replacement of the rows from the first place that changes to the end
    /// of the item's rows, never a change per item.
    /// - Throws: `TreeStorageError.noItem` when there is no item at `path`.
    public func collapseAll(under path: IndexPath = []) throws {
        guard let top = node(at: path) else { throw TreeStorageError.noItem(at: path) }
        willCollapse?(path)
        willChange()
        let topRow = top === root ? -1 : row(of: top)
        let oldShown = Int(top.shown)
        var collapsed: [TreeNode] = []
        var firstShown: TreeNode?
        var placesLosing = 0
        func visit(_ node: TreeNode, shown: Bool) {
            guard let children = node.children else { return }
            let wasExpanded = node.isExpanded
            if wasExpanded, node !== root {
                node.flags.remove(.expanded)
                collapsed.append(node)
                if shown, children.count > 0 {
                    placesLosing += 1
                    if firstShown == nil { firstShown = node }
                }
            }
            // Below an item collapsed (or collapsed already), no place loses rows the view
            // shows: only the root's children, or the item's own rows, can.
            children.forEachNode { visit($0, shown: shown && node === root) }
        }
        visit(top, shown: topRow != nil)
        guard !collapsed.isEmpty else { return }
        // Rows before the first collapsed item shown do not move: its row is the same.
        let firstRow = firstShown.flatMap { row(of: $0) }
        top.recountSubtree()
        propagateShown(from: top, by: Int(top.shown) - oldShown)
        if let firstRow, let topRow {
            let start = firstRow + 1
            let removed = oldShown - Int(top.shown)
            if placesLosing == 1 {
                record(.deleteItems(section: 0, items: start..<(start + removed)))
            } else {
                let oldEnd = topRow + oldShown
                record(.deleteItems(section: 0, items: start..<oldEnd))
                record(.insertItems(section: 0, items: start..<(oldEnd - removed)))
            }
            // Its arrow turned; the other items collapsed were among the rows removed.
            if let firstShown { recordUpdate(of: firstShown) }
        }
        for node in collapsed where node.flags.contains(.failed) {
            node.flags = .childrenLater
            node.children = nil
        }
        deliver()
        let notices = expansionDidChange == nil ? [] : collapsed.map { ($0.model, $0.path) }
        for (model, path) in notices { expansionDidChange?(model, path, false) }
    }

    // MARK: Children that come later

    /// Gives `node`, whose children are to come later, a `ChildrenLoading` row as its only
    /// child; true when the provider is to be asked (once the change is delivered).
    func startLoading(_ node: TreeNode) -> Bool {
        guard node.flags.contains(.childrenLater), node.children == nil else { return false }
        node.flags.remove(.childrenLater)
        node.flags.insert(.loading)
        node.setChildren([.leaf(ChildrenLoading())])
        return true
    }

    /// Asks the provider for `node`'s children; they replace its `ChildrenLoading` row.
    func askForChildren(of node: TreeNode, at path: IndexPath) {
        guard let childrenProvider else {
            struct NoProvider: Error, CustomStringConvertible {
                var description: String { "TreeStorage.childrenProvider is not set" }
            }
            childrenArrived(.failure(NoProvider()), for: node)
            return
        }
        childrenProvider(node.model, path) { [weak self, weak node] result in
            guard let self, let asked = node else { return }
            childrenArrived(result, for: asked)
        }
    }

    /// Puts the children the provider gave in place of `node`'s `ChildrenLoading` row, or
    /// shows the error there.
    private func childrenArrived(_ result: Result<[TreeItem], any Error>, for node: TreeNode) {
        guard node.flags.contains(.loading), contains(node), let children = node.children, children.count > 0 else { return }
        let placeholder = children.node(at: 0)
        willChange()
        node.flags.remove(.loading)
        switch result {
        case .success(let items):
            detach(placeholder)
            insert(items.map(TreeEntry.init), into: node, at: 0)
            if items.isEmpty { recordUpdate(of: node) }
        case .failure(let error):
            node.flags.insert(.failed)
            placeholder.model = ChildrenLoadingFailed(error: error)
            recordUpdate(of: placeholder)
        }
        deliver()
    }
}
