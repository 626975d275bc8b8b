import Foundation

extension TreeStorage {
    /// Replaces every item with `items`, and has the rows shown again from scratch
    /// (`storageNeedsReloading`); `apply(_:)` changes only the rows that changed. Items
    /// expanded before stay expanded when an item with the same identity (an `Identifiable`
    /// model's `id`) is among the new ones.
    public func setItems(_ items: [TreeItem]) {
        willChange()
        var expanded: Set<String> = []
        root.children?.forEachNode { top in
            top.forEachInSubtree { node in
                if node.isExpanded, let identity = itemIdentity(of: node.model) { expanded.insert(identity) }
            }
        }
        let entries = items.map(TreeEntry.init)
        for case .node(let node) in entries {
            node.forEachInSubtree { node in
                if node.children != nil, let identity = itemIdentity(of: node.model), expanded.contains(identity) {
                    node.flags.insert(.expanded)
                }
            }
            node.recountSubtree()
        }
        root.setChildren(entries)
        recordReload()
        deliver()
    }

    /// Inserts `items` so that the first is at `path` (`[3]`: the fourth top item; `[3, 0]`:
    /// the first child of the fourth). An item with no children yet gets its first.
    /// - Throws: `TreeStorageError.noItem` when there is no parent at `path`'s start,
    ///   `.insertionPathTooBig` when its last index is past the parent's children,
    ///   `.childrenNotRead` when the parent's children are still to come; the storage is
    ///   then unchanged.
    public func insertItems(_ items: [TreeItem], at path: IndexPath) throws {
        guard !path.isEmpty, let parent = node(at: path.dropLast()), !parent.flags.contains(.loading) else {
            throw TreeStorageError.noItem(at: path.dropLast())
        }
        if parent.flags.contains(.childrenLater) { throw TreeStorageError.childrenNotRead(at: path.dropLast()) }
        let count = parent.children?.count ?? 0
        guard let index = path.last, index >= 0, index <= count else {
            throw TreeStorageError.insertionPathTooBig(path, countOfChildren: count)
        }
        guard !items.isEmpty else { return }
        willChange()
        insert(items.map(TreeEntry.init), into: parent, at: index)
        deliver()
    }

    /// Appends `items` to the children of the item at `parentPath` (to the top items for
    /// `[]`, the default).
    /// - Throws: `TreeStorageError.noItem` when there is no item at `parentPath`,
    ///   `.childrenNotRead` when its children are still to come.
    public func addItems(_ items: [TreeItem], under parentPath: IndexPath = []) throws {
        guard let parent = node(at: parentPath), !parent.flags.contains(.loading) else { throw TreeStorageError.noItem(at: parentPath) }
        try insertItems(items, at: parentPath.appending(parent.children?.count ?? 0))
    }

    /// Removes the items at `paths` with their descendants (an item and its ancestor may
    /// both be named).
    /// - Throws: `TreeStorageError.noItem` for a path with no item (the `ChildrenLoading`
    ///   row of an item waiting for its children is none); nothing is removed then.
    public func removeItems(at paths: [IndexPath]) throws {
        for path in paths where editableNode(at: path) == nil { throw TreeStorageError.noItem(at: path) }
        // Later paths first, so that each path still names its item when it is removed;
        // a descendant of an item removed goes with it.
        let sorted = Set(paths).sorted { $0.lexicographicallyPrecedes($1) }
        var kept: [IndexPath] = []
        for path in sorted where !kept.contains(where: { path.starts(with: $0) }) { kept.append(path) }
        guard !kept.isEmpty else { return }
        willChange()
        for path in kept.reversed() {
            let node = node(at: path)!
            detach(node)
        }
        deliver()
    }

    /// Puts `model` in place of the model at `path`; its children stay.
    /// - Throws: `TreeStorageError.noItem` when there is no item at `path`.
    public func replaceItem(at path: IndexPath, with model: Any) throws {
        guard let node = editableNode(at: path) else { throw TreeStorageError.noItem(at: path) }
        willChange()
        node.model = model
        recordUpdate(of: node)
        deliver()
    }

    /// Shows the item at `path` again (its row updated in place, when it is shown).
    /// - Throws: `TreeStorageError.noItem` when there is no item at `path`.
    public func reloadItem(at path: IndexPath) throws {
        guard let node = editableNode(at: path) else { throw TreeStorageError.noItem(at: path) }
        try replaceItem(at: path, with: node.model)
    }

    /// Moves the item at `from`, with its descendants and their expanded state, to `to`, a
    /// place named as the tree is now, as `MemoryStorage.moveItem(at:to:)` names it in a
    /// section: all but its last index are the path of the item to move into (none: among
    /// the top items), whose children the last index counts without the moved item (so it
    /// may equal their count). `[0]` to `[2, 0]` makes the first top item the first child of
    /// the item that was third (second once it has moved).
    /// - Throws: `TreeStorageError.noItem` when there is no item at `from` or at `to`'s
    ///   parent path (or that item waits for its children), `.moveIntoItself` when `to` is
    ///   inside the item, `.insertionPathTooBig` when `to`'s last index is past the end,
    ///   `.childrenNotRead` when the item at `to`'s parent path has its children still to
    ///   come; the storage is then unchanged.
    public func moveItem(from: IndexPath, to: IndexPath) throws {
        guard let moving = editableNode(at: from), let oldParent = moving.parent else { throw TreeStorageError.noItem(at: from) }
        guard !to.isEmpty else { throw TreeStorageError.insertionPathTooBig(to, countOfChildren: root.children?.count ?? 0) }
        let parentPath = to.dropLast()
        if parentPath.starts(with: from) { throw TreeStorageError.moveIntoItself(from: from, to: to) }
        guard let parent = node(at: parentPath), !parent.flags.contains(.loading) else {
            throw TreeStorageError.noItem(at: parentPath)
        }
        if parent.flags.contains(.childrenLater) { throw TreeStorageError.childrenNotRead(at: parentPath) }
        let count = (parent.children?.count ?? 0) - (parent === oldParent ? 1 : 0)
        guard let index = to.last, index >= 0, index <= count else {
            throw TreeStorageError.insertionPathTooBig(to, countOfChildren: count)
        }
        guard parent !== oldParent || index != Int(moving.index) else { return }
        willChange()
        // (An item whose children failed loses its error row to the item moved in: not one move.)
        let oldRow = moving.shown == 1 && !parent.flags.contains(.failed) ? row(of: moving) : nil
        if let oldRow {
            let oldDepth = moving.depth
            // A row moving on its own: one move, which selection and the view follow.
            let parentWasExpandable = parent.isExpandable
            detach(moving, recording: false)
            insert([.node(moving)], into: parent, at: index, recording: false)
            if let newRow = row(of: moving) {
                record(.moveItem(from: IndexPath(item: oldRow, section: 0), to: IndexPath(item: newRow, section: 0)))
                // A row moved to another level shows another indent (and maybe row type).
                if moving.depth != oldDepth { recordUpdate(of: moving) }
            } else {
                record(.deleteItems(section: 0, items: oldRow..<(oldRow + 1)))
            }
            // The expanders that came or went with it.
            if !oldParent.isExpandable { recordUpdate(of: oldParent) }
            if !parentWasExpandable { recordUpdate(of: parent) }
        } else {
            detach(moving)
            insert([.node(moving)], into: parent, at: index)
        }
        deliver()
    }

    /// The node at `path` that can be edited: not the root, nor the `ChildrenLoading` row of
    /// an item waiting for its children (it goes when they come).
    private func editableNode(at path: IndexPath) -> TreeNode? {
        guard !path.isEmpty, let node = node(at: path), node.parent?.flags.contains(.loading) != true else { return nil }
        return node
    }

    // MARK: Changing nodes

    /// Puts `entries` among `parent`'s children at `index`, recording the rows they add.
    func insert(_ entries: [TreeEntry], into parent: TreeNode, at index: Int, recording: Bool = true) {
        var index = index
        if parent.flags.contains(.failed), let children = parent.children, children.count > 0 {
            // Children given to an item whose children could not be read: they are its
            // children now, in place of the error row.
            parent.flags.remove(.failed)
            detach(children.node(at: 0), recording: recording)
            index = max(0, index - 1)
        }
        let wasExpandable = parent.isExpandable
        if parent.children == nil {
            parent.flags.remove(.childrenLater)
            parent.setChildren([])
        }
        parent.children!.insert(entries, at: index)
        let added = entries.reduce(0) { $0 + $1.shown }
        childrenShownChanged(of: parent, by: added)
        if recording, let first = firstChildRow(of: parent) {
            let start = first + parent.children!.rows(before: index)
            record(.insertItems(section: 0, items: start..<(start + added)))
        }
        if recording, !wasExpandable { recordUpdate(of: parent) }
    }

    /// Takes `node` and its subtree out of the tree, recording the rows it removes.
    func detach(_ node: TreeNode, recording: Bool = true) {
        guard let parent = node.parent, let children = parent.children else { return }
        let index = Int(node.index)
        if recording, let first = firstChildRow(of: parent) {
            let start = first + children.rows(before: index)
            record(.deleteItems(section: 0, items: start..<(start + Int(node.shown))))
        }
        children.remove(index..<(index + 1))
        childrenShownChanged(of: parent, by: -Int(node.shown))
        if recording, !parent.isExpandable { recordUpdate(of: parent) }
    }

    /// `parent`'s children take `delta` more rows: its own rows follow when it is expanded.
    func childrenShownChanged(of parent: TreeNode, by delta: Int) {
        guard parent.isExpanded, delta != 0 else { return }
        parent.shown += Int32(delta)
        propagateShown(from: parent, by: delta)
    }
}

extension TreeNode {
    /// Works out `shown` again for this node and every descendant (children first).
    func recountSubtree() {
        guard let children else {
            shown = 1
            return
        }
        children.forEachNode { $0.recountSubtree() }
        children.recount()
        shown = isExpanded ? 1 + Int32(children.totalShown) : 1
    }
}
