import Foundation

extension TreeStorage {
    /// Changes the storage into `items`, recording only what changed as one `StorageUpdate`
    /// (none when nothing did), where `setItems(_:)` reloads every row.
    ///
    /// Each list of children is compared with the one it replaces, the top items first:
    /// children are paired by identity (`itemIdentity(of:)`, an `Identifiable` model's `id`;
    /// a model that is not `Identifiable` pairs with none, so it is deleted and inserted
    /// again). An old child paired with none is deleted, a new one inserted. A paired item
    /// keeps its expanded state, and its children are compared the same way when it is given
    /// some; `childrenLater` keeps the children it has (read, or still to ask for), no
    /// children take its own away. Its row is updated in place when its model changed (`!=`
    /// for `Equatable` models; any other model counts as changed, unless it is the same
    /// class instance) or it gains or loses its expander. The paired items that keep their
    /// order among their siblings stay; the others move: a single row as one `moveItem`
    /// (which the selection follows), an expanded item with its children's rows as a delete
    /// and an insert. Children under a collapsed item change the tree, never a row. An item
    /// that moves to another parent is deleted and inserted there, expanded again, like the
    /// items of `setItems(_:)`, when it was expanded.
    ///
    /// Time: expected O(n log s) for the n children of the lists compared (s: the most
    /// siblings; O(n) under collapsed items), one identity and one `==` a child: every list of
    /// a paired item given children is compared, but no row of the tree is read one by one
    /// beyond that (a subtree that moves is counted from its node, not walked).
    ///
    /// ```swift
    /// // Music (Bach, Satie) and Photos before: Photos goes first, Satie is renamed,
    /// // Pärt comes; Music stays expanded if it was.
    /// tree.apply([
    ///     TreeItem(Folder(id: "photos", title: "Photos"), childrenLater: true),
    ///     TreeItem(Folder(id: "music", title: "Music"), children: [
    ///         TreeItem(Folder(id: "bach", title: "Bach")),
    ///         TreeItem(Folder(id: "satie", title: "Erik Satie")),
    ///         TreeItem(Folder(id: "part", title: "Pärt")),
    ///     ]),
    /// ])
    /// ```
    public func apply(_ items: [TreeItem]) {
        willChange()
        let applying = TreeApplying(storage: self)
        applying.pair(root, with: items)
        applying.rebuild(root, with: items, firstRow: 0)
        deliver()
    }
}

/// One `TreeStorage.apply(_:)`: the lists of children paired first (`pair`), so that the
/// expanded items deleted are known before any is inserted, then the tree rebuilt and the
/// changes of the rows recorded in row order (`rebuild`).
final class TreeApplying {
    private unowned let storage: TreeStorage
    /// The pairing of each list `pair` saw with more than no children, by its parent node.
    private var pairings: [ObjectIdentifier: ChildrenPairing] = [:]
    /// The identities of the expanded items deleted: an item inserted with one of them is
    /// expanded (an item moved to another parent).
    private var expandedGone: Set<String> = []
    private var subsequence = LongestIncreasingSubsequence(capacity: 0)

    init(storage: TreeStorage) {
        self.storage = storage
    }

    // MARK: Pairing

    /// Pairs `node`'s children with `items`, and the children of the paired ones given
    /// children with theirs, noting the expanded items deleted.
    func pair(_ node: TreeNode, with items: [TreeItem]) {
        guard let old = node.children, old.count > 0 else { return }
        let pairing = ChildrenPairing(old: old, new: items)
        for index in 0..<old.count where pairing.oldMatch[index] < 0 {
            if let gone = old.existingNode(at: index) { noteExpanded(in: gone) }
        }
        for (index, item) in items.enumerated() {
            let match = Int(pairing.newMatch[index])
            guard match >= 0, let kept = old.existingNode(at: match), let children = kept.children else { continue }
            switch item.children {
            case .given(let given): pair(kept, with: given)
            case .none: children.forEachNode(noteExpanded)
            case .later: break
            }
        }
        pairings[ObjectIdentifier(node)] = pairing
    }

    private func noteExpanded(in node: TreeNode) {
        node.forEachInSubtree { node in
            if node.isExpanded, let identity = itemIdentity(of: node.model) { expandedGone.insert(identity) }
        }
    }

    // MARK: Rebuilding

    /// Makes `items` the children of `node` (which `pair` saw), reusing the paired ones.
    /// `firstRow`: the row of its first child when its children are shown, and the changes
    /// of the rows are recorded; nil when they are not.
    func rebuild(_ node: TreeNode, with items: [TreeItem], firstRow: Int?) {
        var entries: [TreeEntry] = []
        entries.reserveCapacity(items.count)
        if let old = node.children, old.count > 0 {
            let pairing = pairings.removeValue(forKey: ObjectIdentifier(node)) ?? ChildrenPairing(old: old, new: items)
            if let firstRow {
                rebuildShown(old, pairing, items, firstRow: firstRow, into: &entries)
            } else {
                for (index, item) in items.enumerated() {
                    let match = Int(pairing.newMatch[index])
                    entries.append(match >= 0 ? rebuildEntry(old.entry(at: match), as: item, row: nil) : newEntry(item))
                }
            }
        } else {
            for item in items { entries.append(newEntry(item)) }
            if let firstRow {
                let added = entries.reduce(0) { $0 + $1.shown }
                if added > 0 { storage.record(.insertItems(section: 0, items: firstRow..<(firstRow + added))) }
            }
        }
        node.setChildren(entries)
    }

    /// `rebuild` for children that are shown, from `firstRow`: first the rows of the old
    /// children not paired are deleted, with those of the paired ones that move with rows
    /// of their own children (they are inserted where they go); then each new child, in
    /// order, is inserted, moved into place as one row, or left where it is (a longest
    /// increasing subsequence of the paired children's old indexes, in new order), and
    /// rebuilt there. Where each child's rows are now comes from a tree of counts over
    /// slots that merge the old order with the new (as `SnapshotChangeLog` does):
    /// O(log children) a child.
    private func rebuildShown(_ old: ChildList, _ pairing: ChildrenPairing, _ items: [TreeItem], firstRow: Int,
                              into entries: inout [TreeEntry]) {
        let oldCount = old.count
        let newCount = items.count
        var stays = [Bool](repeating: false, count: newCount)
        var values: [Int32] = []
        var positions: [Int] = []
        for index in 0..<newCount where pairing.newMatch[index] >= 0 {
            values.append(pairing.newMatch[index])
            positions.append(index)
        }
        var members = [Bool](repeating: false, count: values.count)
        values.withUnsafeBufferPointer { values in
            members.withUnsafeMutableBufferPointer { members in subsequence.mark(values, members) }
        }
        for (index, position) in positions.enumerated() where members[index] { stays[position] = true }

        // The old children deleted, first to last: the others stay, or move as one row.
        var oldShown = [Int](repeating: 1, count: oldCount)
        var kept = [Bool](repeating: false, count: oldCount)
        var row = firstRow
        for index in 0..<oldCount {
            let shown = old.entry(at: index).shown
            oldShown[index] = shown
            let match = Int(pairing.oldMatch[index])
            if match >= 0, stays[match] || shown == 1 {
                kept[index] = true
                row += shown
            } else {
                storage.record(.deleteItems(section: 0, items: row..<(row + shown)))
            }
        }

        // The slots: between two children that stay, the new ones first, then the old ones
        // still to move; each holds the rows of its child now.
        var weights: [Int] = []
        weights.reserveCapacity(oldCount + newCount)
        var oldSlot = [Int](repeating: -1, count: oldCount)
        var newSlot = [Int](repeating: -1, count: newCount)
        var nextOld = 0
        func takeOld(upTo bound: Int) {
            while nextOld < bound {
                if kept[nextOld] {
                    oldSlot[nextOld] = weights.count
                    weights.append(oldShown[nextOld])
                }
                nextOld += 1
            }
        }
        for index in 0..<newCount {
            let match = Int(pairing.newMatch[index])
            if stays[index] {
                takeOld(upTo: match)
                oldSlot[match] = weights.count
                weights.append(oldShown[match])
                nextOld = match + 1
            } else {
                weights.append(0)
            }
            newSlot[index] = weights.count - 1
        }
        takeOld(upTo: oldCount)
        var rows = CountTree(weights)

        for (index, item) in items.enumerated() {
            let slot = newSlot[index]
            let match = Int(pairing.newMatch[index])
            let entry: TreeEntry
            if match >= 0, stays[index] {
                entry = rebuildEntry(old.entry(at: match), as: item, row: firstRow + rows.prefix(slot))
                rows.add(entry.shown - oldShown[match], at: slot)
            } else if match >= 0, kept[match] {
                let from = firstRow + rows.prefix(oldSlot[match])
                rows.add(-1, at: oldSlot[match])
                let to = firstRow + rows.prefix(slot)
                rows.add(1, at: slot)
                if from != to {
                    storage.record(.moveItem(from: IndexPath(item: from, section: 0), to: IndexPath(item: to, section: 0)))
                }
                entry = rebuildEntry(old.entry(at: match), as: item, row: to)
                rows.add(entry.shown - 1, at: slot)
            } else {
                let at = firstRow + rows.prefix(slot)
                entry = match >= 0 ? rebuildEntry(old.entry(at: match), as: item, row: nil) : newEntry(item)
                rows.add(entry.shown, at: slot)
                storage.record(.insertItems(section: 0, items: at..<(at + entry.shown)))
            }
            entries.append(entry)
        }
    }

    /// The entry of `item`, paired with the old child `old`: its node kept (with its
    /// expanded state) unless it has no children now. `row`: the item's row when it is
    /// shown, where its changes are recorded; nil when its rows are not shown, or are
    /// inserted anew.
    private func rebuildEntry(_ old: TreeEntry, as item: TreeItem, row: Int?) -> TreeEntry {
        let changed = !treeModelsAreEqual(old.model, item.model)
        let wasExpandable = old.isExpandable
        /// Records the update of the item's row, before any change of its children's rows.
        func recordUpdate(expandable: Bool) {
            guard let row, changed || expandable != wasExpandable else { return }
            storage.recordUpdate(ofRow: row, model: item.model)
        }
        switch (old, item.children) {
        case (.leaf, .none):
            recordUpdate(expandable: false)
            return .leaf(item.model)
        case (.leaf, _):
            // Collapsed, as it was; children moved in from elsewhere are expanded again.
            let entry = TreeEntry(item)
            if !expandedGone.isEmpty, case .node(let node) = entry, let children = node.children {
                children.forEachNode(expandAgain)
                children.recount()
            }
            recordUpdate(expandable: entry.isExpandable)
            return entry
        case (.node(let node), .none):
            recordUpdate(expandable: false)
            if let row, node.isExpanded, node.shown > 1 {
                storage.record(.deleteItems(section: 0, items: (row + 1)..<(row + Int(node.shown))))
            }
            return .leaf(item.model)
        case (.node(let node), .later):
            node.model = item.model
            if node.children == nil { node.flags.insert(.childrenLater) }
            recordUpdate(expandable: node.isExpandable)
            return .node(node)
        case (.node(let node), .given(let children)):
            node.model = item.model
            // Given children replace those being read (the answer is dropped) or that failed.
            node.flags.subtract([.childrenLater, .loading, .failed])
            recordUpdate(expandable: !children.isEmpty)
            rebuild(node, with: children, firstRow: node.isExpanded ? row.map { $0 + 1 } : nil)
            return .node(node)
        }
    }

    /// The entry of an item inserted: collapsed, but for the items (it or below) whose
    /// identity an expanded item deleted had.
    private func newEntry(_ item: TreeItem) -> TreeEntry {
        let entry = TreeEntry(item)
        if !expandedGone.isEmpty, case .node(let node) = entry { expandAgain(node) }
        return entry
    }

    /// Expands `node` and the nodes below it whose identity an expanded item deleted had,
    /// and counts their rows again.
    private func expandAgain(_ node: TreeNode) {
        node.forEachInSubtree { node in
            if node.children != nil, let identity = itemIdentity(of: node.model), expandedGone.contains(identity) {
                node.flags.insert(.expanded)
            }
        }
        node.recountSubtree()
    }
}

/// How the children of one item pair with the items that replace them: by identity
/// (`itemIdentity(of:)`), repeated identities in order, through `matchIdentities`.
struct ChildrenPairing {
    /// For each old child, the new item paired with it, or -1.
    var oldMatch: [Int32]
    /// For each new item, the old child paired with it, or -1.
    var newMatch: [Int32]

    init(old: ChildList, new items: [TreeItem]) {
        precondition(old.count < Int(Int32.max) && items.count < Int(Int32.max), "too many children to compare")
        var oldKeys: [PairingKey] = []
        oldKeys.reserveCapacity(old.count)
        old.forEachChild { model, _ in oldKeys.append(PairingKey(model, unpaired: -1 - oldKeys.count)) }
        var newKeys: [PairingKey] = []
        newKeys.reserveCapacity(items.count)
        for (index, item) in items.enumerated() { newKeys.append(PairingKey(item.model, unpaired: index)) }
        var oldMatch = [Int32](repeating: -1, count: oldKeys.count)
        var newMatch = [Int32](repeating: -1, count: newKeys.count)
        oldKeys.withUnsafeBufferPointer { old in
            newKeys.withUnsafeBufferPointer { new in
                oldMatch.withUnsafeMutableBufferPointer { oldMatch in
                    newMatch.withUnsafeMutableBufferPointer { newMatch in
                        matchIdentities(old: old, new: new, oldMatch: oldMatch, newMatch: newMatch)
                    }
                }
            }
        }
        self.oldMatch = oldMatch
        self.newMatch = newMatch
    }
}

/// A child's identity as pairing compares it: a model without one gets a number that
/// no other child has (old children negative, new ones not), so it pairs with none.
struct PairingKey: Identifiable {
    enum ID: Hashable {
        case identity(String)
        case unpaired(Int)
    }

    let id: ID

    init(_ model: Any, unpaired number: Int) {
        id = itemIdentity(of: model).map(ID.identity) ?? .unpaired(number)
    }
}

/// Whether `new` is `old` unchanged: equal (`==`) values of one `Equatable` type, or, for
/// models that are not `Equatable`, one class instance. Any other model counts as changed.
func treeModelsAreEqual(_ old: Any, _ new: Any) -> Bool {
    if let new = new as? any Equatable { return modelEquals(new, old) }
    guard type(of: new) is AnyObject.Type, type(of: old) is AnyObject.Type else { return false }
    return (old as AnyObject) === (new as AnyObject)
}

/// Whether `other` is a `Model` equal to `model` (`model` is opened from its existential).
private func modelEquals<Model: Equatable>(_ model: Model, _ other: Any) -> Bool {
    (other as? Model) == model
}
