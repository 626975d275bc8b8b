import Foundation
import ModelStorage
import TestSupport
import XCTest

/// A model with an id, as an app's tree model often is: the randomized test's items.
private struct TreeEntry: Identifiable, Hashable, CustomStringConvertible {
    let id: Int
    /// Changed by the applying test: the same item, changed content.
    var version = 0
    var description: String { version == 0 ? "e\(id)" : "e\(id).\(version)" }
}

/// An `Identifiable` and `Equatable` model for the hand-written `apply` tests.
private struct Note: Identifiable, Hashable, CustomStringConvertible {
    let id: String
    var title: String
    init(_ id: String, _ title: String? = nil) {
        self.id = id
        self.title = title ?? id
    }
    var description: String { title }
}

/// A folder as an app might show it: `Identifiable`, so a tree set again keeps it expanded.
private struct Folder: Identifiable, CustomStringConvertible {
    let id: String
    var title: String
    var description: String { title }
}

private struct ReadError: Error, Equatable {
    let reason: String
}

/// What a provider was asked for, and how to answer it later.
private struct ChildrenRequest {
    let model: Any
    let path: IndexPath
    let deliver: (Result<[TreeItem], any Error>) -> Void
}

/// The rows the storage shows, each model described.
private func shownRows(_ storage: TreeStorage) -> [String] {
    (0..<storage.rowCount).map { String(describing: storage.item(at: IndexPath(item: $0, section: 0)) ?? "nil") }
}

/// The whole tree as the public API reads it (hidden items too), and the rows shown: to
/// check that an operation changed nothing.
private func treeDump(_ storage: TreeStorage) -> String {
    var lines: [String] = []
    func visit(_ path: IndexPath) {
        let count = storage.numberOfChildren(at: path)
        if !path.isEmpty {
            lines.append("\(path) \(storage.model(at: path).map { String(describing: $0) } ?? "nil") "
                + "expanded \(storage.isExpanded(at: path)) children \(count.map(String.init) ?? "nil")")
        }
        for index in 0..<(count ?? 0) { visit(path.appending(index)) }
    }
    visit([])
    return lines.joined(separator: "\n") + "\nrows: " + shownRows(storage).joined(separator: ", ")
}

/// Replays `updates` change after change on `old` (the rows before them) and compares the
/// result with `new` (the rows after them): a row inserted or updated in place is taken from
/// `new` where it ends up, every other row must be where the changes put it. Nil when they
/// agree, else what went wrong.
private func replayMismatch(_ updates: [StorageUpdate], from old: [String], to new: [String]) -> String? {
    var rows: [String?] = old
    for update in updates {
        for change in update.changes {
            switch change {
            case .insertItems(0, let items):
                guard items.lowerBound >= 0, items.lowerBound <= rows.count else { return "\(change) past the end of \(rows.count) rows" }
                rows.insert(contentsOf: repeatElement(nil, count: items.count), at: items.lowerBound)
            case .deleteItems(0, let items):
                guard items.lowerBound >= 0, items.upperBound <= rows.count else { return "\(change) past the end of \(rows.count) rows" }
                rows.removeSubrange(items)
            case .moveItem(let from, let to):
                guard from.count == 2, to.count == 2, from.section == 0, to.section == 0,
                      rows.indices.contains(from.item), to.item >= 0, to.item < rows.count else {
                    return "\(change) outside \(rows.count) rows"
                }
                rows.insert(rows.remove(at: from.item), at: to.item)
            case .updateItem(let indexPath):
                guard indexPath.count == 2, indexPath.section == 0, rows.indices.contains(indexPath.item) else {
                    return "\(change) outside \(rows.count) rows"
                }
                rows[indexPath.item] = nil
            default:
                return "\(change): a tree has one section, without header or footer"
            }
        }
    }
    guard rows.count == new.count else { return "replayed \(rows.count) rows, the storage shows \(new.count) (\(updates))" }
    for (index, row) in rows.enumerated() where row != nil && row != new[index] {
        return "replayed row \(index) is \(row!), the storage shows \(new[index]) (\(updates))"
    }
    return nil
}

// MARK: - The reference model

/// A tree item as the randomized test keeps it beside the storage: a plain value.
private struct ReferenceItem {
    var id: Int
    /// nil for a leaf (no children given).
    var children: [ReferenceItem]?
    var isExpanded = false
    /// The content of the item's model (the applying test changes it).
    var version = 0
    /// The model is a `String`, not `Identifiable` (the applying test has some).
    var isPlain = false

    var isExpandable: Bool { !(children?.isEmpty ?? true) }

    var model: Any { isPlain ? "p\(id)" : TreeEntry(id: id, version: version) }

    /// The item's row as `shownRows` describes it.
    var text: String { String(describing: model) }

    /// The item as the storage is given it.
    var treeItem: TreeItem {
        guard let children else { return TreeItem(model) }
        return TreeItem(model, children: children.map(\.treeItem))
    }
}

private struct ReferenceTree {
    var items: [ReferenceItem] = []

    func item(at path: IndexPath) -> ReferenceItem {
        var item = items[path[0]]
        for index in path.dropFirst() { item = item.children![index] }
        return item
    }

    /// The children of the item at `path` (the top items for `[]`).
    func children(at path: IndexPath) -> [ReferenceItem]? {
        path.isEmpty ? items : item(at: path).children
    }

    mutating func modify(at path: IndexPath, _ body: (inout ReferenceItem) -> Void) {
        func descend(_ items: inout [ReferenceItem], _ path: IndexPath) {
            if path.count == 1 {
                body(&items[path.first!])
            } else {
                descend(&items[path.first!].children!, path.dropFirst())
            }
        }
        descend(&items, path)
    }

    /// Changes the children of the item at `path` (the top items for `[]`); a leaf gets some.
    mutating func modifyChildren(at path: IndexPath, _ body: (inout [ReferenceItem]) -> Void) {
        if path.isEmpty { return body(&items) }
        modify(at: path) { item in
            var children = item.children ?? []
            body(&children)
            item.children = children
        }
    }

    /// Every item's path, shown or not, parents first.
    var allPaths: [IndexPath] {
        var paths: [IndexPath] = []
        func visit(_ items: [ReferenceItem], _ parent: IndexPath) {
            for (index, item) in items.enumerated() {
                let path = parent.appending(index)
                paths.append(path)
                visit(item.children ?? [], path)
            }
        }
        visit(items, [])
        return paths
    }

    /// The rows shown: the items in pre-order, below expanded items only.
    var rows: [(path: IndexPath, item: ReferenceItem)] {
        var rows: [(path: IndexPath, item: ReferenceItem)] = []
        func visit(_ items: [ReferenceItem], _ parent: IndexPath) {
            for (index, item) in items.enumerated() {
                let path = parent.appending(index)
                rows.append((path, item))
                if item.isExpanded { visit(item.children ?? [], path) }
            }
        }
        visit(items, [])
        return rows
    }

    func path(of id: Int) -> IndexPath? {
        allPaths.first { item(at: $0).id == id }
    }

    mutating func remove(ids: Set<Int>) {
        func prune(_ items: inout [ReferenceItem]) {
            items.removeAll { ids.contains($0.id) }
            for index in items.indices where items[index].children != nil { prune(&items[index].children!) }
        }
        prune(&items)
    }

    /// Sets every item's expanded state at `path` and below, as `expandAll`/`collapseAll` do.
    mutating func setExpandedAll(under path: IndexPath, _ expanded: Bool) {
        func set(_ item: inout ReferenceItem) {
            if expanded ? item.isExpandable : true { item.isExpanded = expanded }
            for index in (item.children ?? []).indices { set(&item.children![index]) }
        }
        if path.isEmpty {
            for index in items.indices { set(&items[index]) }
        } else {
            modify(at: path, set)
        }
    }
}

// MARK: - The randomized run

/// Random operations on a `TreeStorage` and a `ReferenceTree` side by side, checking after
/// each that the updates delivered replay to the rows shown and that both trees agree.
private final class RandomTreeRun {
    let storage = TreeStorage()
    let recorder = UpdateRecorder()
    var reference = ReferenceTree()
    var generator: SeededGenerator
    var nextID = 0
    var failures: [String] = []
    /// What the current step did, for failure messages.
    var log: [String] = []
    /// Whether the current step set the items again (a reload, not an update).
    var setsItems = false

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
        storage.delegate = recorder
        let items = (0..<6).map { _ in newItem(depth: 0) }
        storage.setItems(items.map(\.treeItem))
        reference.items = items
        _ = recorder.take()
        recorder.log = []
    }

    func run(operations: Int) {
        for step in 0..<operations {
            log = []
            setsItems = false
            let before = shownRows(storage)
            randomStep()
            verify(before: before)
            if !failures.isEmpty {
                failures = failures.map { "step \(step) (\(log.joined(separator: "; "))): \($0)" }
                return
            }
        }
    }

    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { failures.append(message()) }
    }

    func int(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }
    func chance(_ percent: Int) -> Bool { int(100) < percent }

    func newItem(depth: Int) -> ReferenceItem {
        var item = ReferenceItem(id: nextID)
        nextID += 1
        let roll = int(10)
        if roll == 0 {
            item.children = []
        } else if roll >= 6, depth < 2 {
            item.children = (0..<(1 + int(3))).map { _ in newItem(depth: depth + 1) }
            item.isExpanded = false
        }
        return item
    }

    func newItems() -> [ReferenceItem] {
        (0..<(1 + int(3))).map { _ in newItem(depth: 0) }
    }

    /// A random item's path, shown rows more often than hidden items.
    func randomPath() -> IndexPath? {
        let rows = reference.rows
        if !rows.isEmpty, chance(70) { return rows[int(rows.count)].path }
        let paths = reference.allPaths
        return paths.isEmpty ? nil : paths[int(paths.count)]
    }

    /// A random place to put children: the top, or a random item.
    func randomParent() -> IndexPath {
        chance(25) ? [] : randomPath() ?? []
    }

    func attempt(_ description: String, _ body: () throws -> Void) {
        log.append(description)
        do {
            try body()
        } catch {
            check(false, "\(description) threw \(error)")
        }
    }

    func randomStep() {
        let size = reference.allPaths.count
        let roll = int(100)
        switch roll {
        case 0..<3:
            setItemsAgain()
        case 3..<8:
            batch()
        default:
            randomEdit(removesMore: size > 250, removesLess: size < 15, checksUpdate: true)
        }
    }

    /// A few edits in one `performUpdates`: one update for them all.
    func batch() {
        log.append("performUpdates {")
        storage.performUpdates {
            for _ in 0..<(2 + int(3)) {
                randomEdit(removesMore: false, removesLess: true, checksUpdate: false)
            }
        }
        log.append("}")
    }

    /// The same items in another order, and one more: expanded items stay expanded.
    func setItemsAgain() {
        var items = reference.items.shuffled(using: &generator)
        items.insert(newItem(depth: 0), at: int(items.count + 1))
        setsItems = true
        log.append("setItems(\(items.count) items)")
        storage.setItems(items.map(\.treeItem))
        // `treeItem` gives each item collapsed; the storage expands again those expanded
        // before, by id: the reference's flags as they are.
        reference.items = items
    }

    func randomEdit(removesMore: Bool, removesLess: Bool, checksUpdate: Bool) {
        var roll = int(100)
        if removesMore, roll < 40 { roll = 40 }
        if removesLess, (40..<55).contains(roll) { roll = 0 }
        switch roll {
        case 0..<15:
            let parent = randomParent()
            let count = reference.children(at: parent)?.count ?? 0
            let path = parent.appending(int(count + 1))
            let items = newItems()
            attempt("insertItems(\(items.map(\.id)), at: \(path))") {
                try storage.insertItems(items.map(\.treeItem), at: path)
                reference.modifyChildren(at: parent) { $0.insert(contentsOf: items, at: path.last!) }
            }
        case 15..<25:
            let parent = randomParent()
            let items = newItems()
            attempt("addItems(\(items.map(\.id)), under: \(parent))") {
                try storage.addItems(items.map(\.treeItem), under: parent)
                reference.modifyChildren(at: parent) { $0.append(contentsOf: items) }
            }
        case 25..<33:
            expandOrCollapse("expand", { try storage.expand(at: $0) }) { item in
                if item.isExpandable { item.isExpanded = true }
            }
        case 33..<38:
            expandOrCollapse("collapse", { try storage.collapse(at: $0) }) { $0.isExpanded = false }
        case 38..<40:
            expandOrCollapse("toggle", { try storage.toggle(at: $0) }) { item in
                if item.isExpanded { item.isExpanded = false } else if item.isExpandable { item.isExpanded = true }
            }
        case 40..<55:
            removeRandomItems()
        case 55..<68:
            moveRandomItem(checksUpdate: checksUpdate)
        case 68..<76:
            guard let path = randomPath() else { return }
            let id = nextID
            nextID += 1
            let row = reference.rows.firstIndex { $0.path == path }
            attempt("replaceItem(at: \(path), with: e\(id))") {
                try storage.replaceItem(at: path, with: TreeEntry(id: id))
                reference.modify(at: path) { $0.id = id }
            }
            if checksUpdate {
                let updates = recorder.updates
                let expected = row.map { [StorageUpdate([.updateItem(IndexPath(item: $0, section: 0))])] } ?? []
                check(updates == expected, "replacing delivered \(updates), not \(expected)")
                if let row, let model = updates.first?.updatedObjects[IndexPath(item: row, section: 0)] as? TreeEntry {
                    check(model.id == id, "the update's model is \(model), not e\(id)")
                }
            }
        case 76..<84:
            let path = chance(30) ? [] : randomPath() ?? []
            attempt("expandAll(under: \(path))") {
                try storage.expandAll(under: path)
                reference.setExpandedAll(under: path, true)
            }
        case 84..<92:
            let path = chance(30) ? [] : randomPath() ?? []
            attempt("collapseAll(under: \(path))") {
                try storage.collapseAll(under: path)
                reference.setExpandedAll(under: path, false)
            }
        default:
            invalidEdit()
        }
    }

    func expandOrCollapse(_ name: String, _ operation: (IndexPath) throws -> Void, changing: (inout ReferenceItem) -> Void) {
        guard let path = randomPath() else { return }
        attempt("\(name)(at: \(path))") {
            try operation(path)
            reference.modify(at: path, changing)
        }
    }

    /// Removes one to three items; often an item and its descendant, or its ancestor.
    func removeRandomItems() {
        var paths: [IndexPath] = []
        for _ in 0..<(1 + int(3)) { if let path = randomPath() { paths.append(path) } }
        guard let first = paths.first else { return }
        if chance(40), let children = reference.item(at: first).children, !children.isEmpty {
            paths.append(first.appending(int(children.count)))
        } else if chance(40), first.count > 1 {
            paths.append(first.dropLast())
        }
        paths.shuffle(using: &generator)
        let ids = Set(paths.map { reference.item(at: $0).id })
        attempt("removeItems(at: \(paths))") {
            try storage.removeItems(at: paths)
            reference.remove(ids: ids)
        }
    }

    /// Moves an item to a random place outside itself, as the tree is now.
    func moveRandomItem(checksUpdate: Bool) {
        guard let from = randomPath() else { return }
        let parents = [IndexPath()] + reference.allPaths.filter { !$0.starts(with: from) }
        let parent = parents[int(parents.count)]
        let sameParent = parent == from.dropLast()
        let count = (reference.children(at: parent)?.count ?? 0) - (sameParent ? 1 : 0)
        let to = parent.appending(int(count + 1))
        let moving = reference.item(at: from)
        let parentID = parent.isEmpty ? nil : reference.item(at: parent).id
        let rowsBefore = reference.rows
        attempt("moveItem(from: \(from), to: \(to))") {
            try storage.moveItem(from: from, to: to)
            reference.remove(ids: [moving.id])
            let parentPath = parentID.flatMap { reference.path(of: $0) } ?? []
            reference.modifyChildren(at: parentPath) { $0.insert(moving, at: to.last!) }
        }
        // A row moving on its own, shown before and after, is one move the view follows.
        guard checksUpdate, let oldRow = rowsBefore.firstIndex(where: { $0.path == from }),
              !moving.isExpanded || !moving.isExpandable,
              let newRow = reference.rows.firstIndex(where: { $0.item.id == moving.id }) else { return }
        let move = StorageChange.moveItem(from: IndexPath(item: oldRow, section: 0), to: IndexPath(item: newRow, section: 0))
        let changes = recorder.updates.first?.changes ?? []
        check(changes.first == move || (oldRow == newRow && changes.isEmpty),
              "moving one row delivered \(changes), not \(move) first")
    }

    /// An edit the storage refuses: it throws, changes nothing and delivers nothing.
    func invalidEdit() {
        let dump = treeDump(storage)
        let paths = reference.allPaths
        switch int(4) {
        case 0:
            let parent = randomParent()
            let count = reference.children(at: parent)?.count ?? 0
            let path = parent.appending(count + 1 + int(3))
            expectError(.insertionPathTooBig(path, countOfChildren: count), "insertItems(at: \(path))") {
                try storage.insertItems([TreeItem(TreeEntry(id: -1))], at: path)
            }
        case 1:
            let missing = IndexPath(index: reference.items.count + int(3))
            let path = paths.isEmpty || chance(50) ? missing : paths[int(paths.count)].appending(99)
            expectError(.noItem(at: path), "removeItems(at: \(path))") {
                try storage.removeItems(at: (paths.isEmpty ? [] : [paths[0]]) + [path])
            }
        case 2:
            guard let from = randomPath() else { return }
            var to = from
            while let children = reference.children(at: to), !children.isEmpty, chance(50) { to.append(int(children.count)) }
            to.append(0)
            expectError(.moveIntoItself(from: from, to: to), "moveItem(from: \(from), to: \(to))") {
                try storage.moveItem(from: from, to: to)
            }
        default:
            let path = IndexPath(index: reference.items.count + int(3))
            expectError(.noItem(at: path), "expand(at: \(path))") { try storage.expand(at: path) }
        }
        check(treeDump(storage) == dump, "a refused edit changed the tree")
        check(recorder.log.isEmpty, "a refused edit delivered \(recorder.log)")
    }

    func expectError(_ expected: TreeStorageError, _ description: String, _ body: () throws -> Void) {
        log.append("\(description) (refused)")
        do {
            try body()
            check(false, "\(description) did not throw")
        } catch let error as TreeStorageError {
            check(error == expected, "\(description) threw \(error), not \(expected)")
        } catch {
            check(false, "\(description) threw \(error)")
        }
    }

    /// After a step: what was delivered replays to the rows shown, which are the
    /// reference's, and every row and item reads as the reference has it.
    func verify(before: [String]) {
        let rows = shownRows(storage)
        let expectedRows = reference.rows
        check(rows == expectedRows.map { "e\($0.item.id)" }, "rows \(rows), expected \(expectedRows.map { "e\($0.item.id)" })")
        check(storage.numberOfItems(inSection: 0) == storage.rowCount, "numberOfItems(inSection: 0) is not rowCount")
        let (updates, reloads) = recorder.take()
        recorder.log = []
        if setsItems {
            check(reloads == 1 && updates.isEmpty, "setItems delivered \(updates) and \(reloads) reloads, not one reload")
        } else {
            check(reloads == 0, "\(reloads) reloads")
            check(updates.count <= 1, "\(updates.count) updates: \(updates)")
            if rows != before { check(updates.count == 1, "the rows changed, but no update came") }
            if let mismatch = replayMismatch(updates, from: before, to: rows) { check(false, mismatch) }
        }
        for (row, expected) in expectedRows.enumerated() {
            let path = storage.path(ofRow: row)
            check(path == expected.path, "path(ofRow: \(row)) is \(path.map { "\($0)" } ?? "nil"), not \(expected.path)")
            check(storage.row(of: expected.path) == row, "row(of: \(expected.path)) is not \(row)")
            let disclosure = storage.disclosure(ofRow: row)
            check(disclosure?.depth == expected.path.count - 1 && storage.depth(ofRow: row) == expected.path.count - 1,
                  "row \(row) is at depth \(disclosure.map { "\($0.depth)" } ?? "nil"), not \(expected.path.count - 1)")
            check(disclosure?.isExpandable == expected.item.isExpandable,
                  "row \(row) is expandable: \(disclosure.map { "\($0.isExpandable)" } ?? "nil")")
            check(disclosure?.isExpanded == expected.item.isExpanded,
                  "row \(row) is expanded: \(disclosure.map { "\($0.isExpanded)" } ?? "nil")")
        }
        check(storage.path(ofRow: expectedRows.count) == nil && storage.disclosure(ofRow: -1) == nil, "a row past the end answers")
        check(storage.numberOfChildren() == reference.items.count, "\(storage.numberOfChildren() ?? -1) top items")
        let shownPaths = Set(expectedRows.map(\.path))
        for path in reference.allPaths {
            let item = reference.item(at: path)
            check((storage.model(at: path) as? TreeEntry)?.id == item.id, "model(at: \(path)) is not e\(item.id)")
            check(storage.isExpanded(at: path) == item.isExpanded, "isExpanded(at: \(path)) is not \(item.isExpanded)")
            check(storage.numberOfChildren(at: path) == item.children?.count, "numberOfChildren(at: \(path))")
            if !shownPaths.contains(path) { check(storage.row(of: path) == nil, "hidden \(path) has row \(storage.row(of: path)!)") }
        }
    }
}

// MARK: - Applying random trees

/// Random trees applied one after another to a storage, each made from the one before
/// (items deleted, inserted, moved among their siblings and to other parents, changed,
/// given children or losing them, given another id), with items expanded and collapsed
/// between: each `apply` must deliver one update that replays to the rows shown, keep the
/// expanded state of the items kept, and agree with the reference everywhere.
private final class RandomApplyRun {
    let storage = TreeStorage()
    let recorder = UpdateRecorder()
    var reference = ReferenceTree()
    var generator: SeededGenerator
    var nextID = 0
    var failures: [String] = []
    /// What the current generation did, for failure messages.
    var log: [String] = []

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
        storage.delegate = recorder
    }

    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { failures.append(message()) }
    }

    func int(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }
    func chance(_ percent: Int) -> Bool { int(100) < percent }

    func run(generations: Int) {
        var first = ReferenceTree()
        first.items = (0..<(3 + int(6))).map { _ in newItem(depth: 0) }
        log = ["apply the first tree"]
        applyChecking(first, oldExpanded: [:], contentOnly: nil)
        for generation in 0..<generations where failures.isEmpty {
            log = []
            toggleSome()
            nameSomeLeaves()
            _ = recorder.take()
            recorder.log = []
            var oldExpanded: [Int: Bool] = [:]
            for path in reference.allPaths {
                let item = reference.item(at: path)
                if !item.isPlain { oldExpanded[item.id] = item.isExpanded }
            }
            var tree = reference
            var changed: Set<Int>?
            if chance(12) {
                changed = changeContents(&tree)
            } else {
                mutate(&tree)
            }
            applyChecking(tree, oldExpanded: oldExpanded, contentOnly: changed)
            if !failures.isEmpty {
                failures = failures.map { "generation \(generation) (\(log.joined(separator: "; "))): \($0)" }
            }
        }
    }

    // MARK: Trees

    func newItem(depth: Int) -> ReferenceItem {
        var item = ReferenceItem(id: nextID)
        nextID += 1
        item.isPlain = chance(8)
        let roll = int(10)
        if roll == 0 {
            item.children = []
        } else if roll >= 5, depth < 3 {
            item.children = (0..<(1 + int(4))).map { _ in newItem(depth: depth + 1) }
        }
        return item
    }

    /// A random item's path, or nil in an empty tree.
    func randomPath(in tree: ReferenceTree) -> IndexPath? {
        let paths = tree.allPaths
        return paths.isEmpty ? nil : paths[int(paths.count)]
    }

    /// A few random changes of `tree`'s structure and contents.
    func mutate(_ tree: inout ReferenceTree) {
        for _ in 0..<(1 + int(8)) {
            guard let path = randomPath(in: tree), chance(97) else {
                let items = (0..<(1 + int(3))).map { _ in newItem(depth: 1) }
                log.append("insert \(items.map(\.id)) at the top")
                tree.items.insert(contentsOf: items, at: int(tree.items.count + 1))
                continue
            }
            let item = tree.item(at: path)
            switch int(100) {
            case 0..<16:
                log.append("delete \(item.id)")
                tree.remove(ids: [item.id])
            case 16..<32:
                let parent = chance(20) ? [] : path
                let count = tree.children(at: parent)?.count ?? 0
                let items = (0..<(1 + int(3))).map { _ in newItem(depth: parent.count + 1) }
                log.append("insert \(items.map(\.id)) under \(parent.isEmpty ? "the top" : "\(item.id)")")
                tree.modifyChildren(at: parent) { $0.insert(contentsOf: items, at: self.int(count + 1)) }
            case 32..<56:
                // Among its siblings half the time, else anywhere outside itself.
                let parents = [IndexPath()] + tree.allPaths.filter { !$0.starts(with: path) }
                let parent = chance(50) ? path.dropLast() : parents[int(parents.count)]
                let parentID = parent.isEmpty ? nil : tree.item(at: parent).id
                tree.remove(ids: [item.id])
                let parentPath = parentID.flatMap { tree.path(of: $0) } ?? []
                let count = tree.children(at: parentPath)?.count ?? 0
                let index = int(count + 1)
                log.append("move \(item.id) under \(parentID.map(String.init) ?? "the top") at \(index)")
                tree.modifyChildren(at: parentPath) { $0.insert(item, at: index) }
            case 56..<70:
                guard !item.isPlain else { continue }
                log.append("change \(item.id)")
                tree.modify(at: path) { $0.version += 1 }
            case 70..<78:
                log.append("shuffle the children of \(item.id)")
                tree.modify(at: path) { item in item.children?.shuffle(using: &self.generator) }
            case 78..<88:
                if item.children == nil {
                    let children = chance(30) ? [] : (0..<(1 + int(3))).map { _ in newItem(depth: path.count) }
                    log.append("give \(item.id) children \(children.map(\.id))")
                    tree.modify(at: path) { $0.children = children }
                } else {
                    log.append("take \(item.id)'s children")
                    tree.modify(at: path) { $0.children = nil }
                }
            default:
                let id = nextID
                nextID += 1
                log.append("\(item.id) becomes \(id)")
                tree.modify(at: path) { $0.id = id }
            }
        }
    }

    /// Changes the content of a few items, nothing else; returns their ids.
    func changeContents(_ tree: inout ReferenceTree) -> Set<Int> {
        var changed: Set<Int> = []
        for _ in 0..<(1 + int(5)) {
            guard let path = randomPath(in: tree), !tree.item(at: path).isPlain else { continue }
            tree.modify(at: path) { $0.version += 1 }
            changed.insert(tree.item(at: path).id)
        }
        log.append("change \(changed.sorted())")
        return changed
    }

    /// Expands or collapses about a third of the items, in the storage and the reference.
    func toggleSome() {
        for path in reference.allPaths where chance(30) {
            let item = reference.item(at: path)
            do {
                try storage.toggle(at: path)
            } catch {
                check(false, "toggle(at: \(path)) threw \(error)")
            }
            reference.modify(at: path) { item in
                if item.isExpanded { item.isExpanded = false } else if item.isExpandable { item.isExpanded = true }
            }
            log.append("toggle \(item.id)")
        }
    }

    /// Gives some leaves a node of their own (as any operation naming them does).
    func nameSomeLeaves() {
        for path in reference.allPaths where reference.item(at: path).children == nil && chance(20) {
            do {
                try storage.replaceItem(at: path, with: reference.item(at: path).model)
            } catch {
                check(false, "replaceItem(at: \(path)) threw \(error)")
            }
        }
    }

    // MARK: Checking

    /// Applies `tree`: the items kept (by id, wherever they are) stay expanded, every other
    /// is collapsed; checks what was delivered and the storage against the reference.
    func applyChecking(_ tree: ReferenceTree, oldExpanded: [Int: Bool], contentOnly changed: Set<Int>?) {
        var tree = tree
        func expect(_ items: inout [ReferenceItem]) {
            for index in items.indices {
                let item = items[index]
                items[index].isExpanded = !item.isPlain && item.children != nil && oldExpanded[item.id] == true
                if items[index].children != nil { expect(&items[index].children!) }
            }
        }
        expect(&tree.items)
        let before = shownRows(storage)
        storage.apply(tree.items.map(\.treeItem))
        reference = tree
        let (updates, reloads) = recorder.take()
        recorder.log = []
        let rows = shownRows(storage)
        check(reloads == 0, "apply reloaded")
        check(updates.count <= 1, "\(updates.count) updates: \(updates)")
        if rows != before { check(updates.count == 1, "the rows changed, but no update came") }
        if let mismatch = replayMismatch(updates, from: before, to: rows) { check(false, mismatch) }
        if let changed, !reference.rows.contains(where: { $0.item.isPlain }) {
            let shownChanged = reference.rows.filter { changed.contains($0.item.id) }.count
            let changes = updates.first?.changes ?? []
            check(changes.count == shownChanged && changes.allSatisfy { if case .updateItem = $0 { true } else { false } },
                  "changing \(shownChanged) shown rows delivered \(changes)")
        }
        verify()

        // The same items again: nothing changes, but for the rows of models that are not
        // Identifiable, deleted and inserted again.
        let shownPlain = reference.rows.contains { $0.item.isPlain }
        storage.apply(reference.items.map(\.treeItem))
        let again = recorder.take()
        recorder.log = []
        if shownPlain {
            check(again.updates.count == 1, "applying the same items with plain rows shown delivered \(again.updates)")
            if let mismatch = replayMismatch(again.updates, from: rows, to: shownRows(storage)) { check(false, "again: \(mismatch)") }
        } else {
            check(again.updates.isEmpty && again.reloads == 0, "applying the same items delivered \(again.updates)")
        }
        verify()
    }

    /// The storage reads as the reference: rows, paths, depths, expanders, every item.
    func verify() {
        let expectedRows = reference.rows
        let rows = shownRows(storage)
        check(rows == expectedRows.map(\.item.text), "rows \(rows), expected \(expectedRows.map(\.item.text))")
        guard failures.isEmpty else { return }
        for (row, expected) in expectedRows.enumerated() {
            check(storage.path(ofRow: row) == expected.path, "path(ofRow: \(row)) is not \(expected.path)")
            check(storage.row(of: expected.path) == row, "row(of: \(expected.path)) is not \(row)")
            let disclosure = storage.disclosure(ofRow: row)
            check(disclosure?.depth == expected.path.count - 1, "row \(row) is not at depth \(expected.path.count - 1)")
            check(disclosure?.isExpandable == expected.item.isExpandable, "row \(row) is expandable: \(String(describing: disclosure))")
            check(disclosure?.isExpanded == expected.item.isExpanded, "row \(row) is expanded: \(String(describing: disclosure))")
        }
        check(storage.path(ofRow: expectedRows.count) == nil, "a row past the end answers")
        check(storage.numberOfChildren() == reference.items.count, "\(storage.numberOfChildren() ?? -1) top items")
        let shownPaths = Set(expectedRows.map(\.path))
        for path in reference.allPaths {
            let item = reference.item(at: path)
            check(storage.model(at: path).map { String(describing: $0) } == item.text, "model(at: \(path)) is not \(item.text)")
            check(storage.isExpanded(at: path) == item.isExpanded, "isExpanded(at: \(path)) (\(item.text)) is not \(item.isExpanded)")
            check(storage.numberOfChildren(at: path) == item.children?.count, "numberOfChildren(at: \(path))")
            if !shownPaths.contains(path) { check(storage.row(of: path) == nil, "hidden \(path) has a row") }
        }
    }
}

// MARK: - Tests

final class TreeStorageTests: XCTestCase {
    /// Music (Bach, Satie (Gymnopédies)), Photos (Cats), Notes.
    private func musicTree() -> TreeStorage {
        TreeStorage(items: [
            TreeItem("Music", children: [TreeItem("Bach"), TreeItem("Satie", children: [TreeItem("Gymnopédies")])]),
            TreeItem("Photos", children: [TreeItem("Cats")]),
            TreeItem("Notes"),
        ])
    }

    // MARK: Random operations

    /// Seeds 0..<8; `TREE_SEED=n` reruns one seed.
    func testRandomOperationsReplayAndMatchTheReference() {
        let seeds: [UInt64] = ProcessInfo.processInfo.environment["TREE_SEED"].flatMap(UInt64.init).map { [$0] } ?? Array(0..<8)
        for seed in seeds {
            let run = RandomTreeRun(seed: seed)
            run.run(operations: 400)
            if let failure = run.failures.first {
                XCTFail("seed \(seed): \(failure) (rerun with TREE_SEED=\(seed))")
            }
        }
    }

    // MARK: Invalid input

    func testInvalidInputThrowsAndChangesNothing() throws {
        let tree = musicTree()
        try tree.expand(at: [0])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        let dump = treeDump(tree)

        func expect(_ expected: TreeStorageError, _ body: () throws -> Void, line: UInt = #line) {
            XCTAssertThrowsError(try body(), line: line) { error in
                XCTAssertEqual(error as? TreeStorageError, expected, line: line)
            }
            XCTAssertEqual(treeDump(tree), dump, "the tree changed", line: line)
            XCTAssertEqual(recorder.log, [], "something was delivered", line: line)
        }

        // Music has 2 children, there are 3 top items.
        expect(.insertionPathTooBig([0, 3], countOfChildren: 2)) { try tree.insertItems([TreeItem("Pärt")], at: [0, 3]) }
        expect(.insertionPathTooBig([0, -1], countOfChildren: 2)) { try tree.insertItems([TreeItem("Pärt")], at: [0, -1]) }
        expect(.insertionPathTooBig([4], countOfChildren: 3)) { try tree.insertItems([TreeItem("Films")], at: [4]) }
        expect(.noItem(at: [7])) { try tree.insertItems([TreeItem("Pärt")], at: [7, 0]) }
        expect(.noItem(at: [0, 1, 5])) { try tree.addItems([TreeItem("Pärt")], under: [0, 1, 5]) }
        // One missing path, and nothing is removed.
        expect(.noItem(at: [5])) { try tree.removeItems(at: [[1], [5]]) }
        expect(.noItem(at: [0, 1, 3])) { try tree.removeItems(at: [[0, 1, 3]]) }
        expect(.moveIntoItself(from: [0], to: [0, 1, 0])) { try tree.moveItem(from: [0], to: [0, 1, 0]) }
        expect(.moveIntoItself(from: [0], to: [0, 0])) { try tree.moveItem(from: [0], to: [0, 0]) }
        expect(.noItem(at: [6])) { try tree.moveItem(from: [1], to: [6, 0]) }
        expect(.noItem(at: [9])) { try tree.moveItem(from: [9], to: [0]) }
        // Among its own siblings, Bach's place is counted without it: Music has one other child.
        expect(.insertionPathTooBig([0, 2], countOfChildren: 1)) { try tree.moveItem(from: [0, 0], to: [0, 2]) }
        expect(.noItem(at: [5])) { try tree.expand(at: [5]) }
        expect(.noItem(at: [0, 0, 0])) { try tree.expand(at: [0, 0, 0]) }
        expect(.noItem(at: [5])) { try tree.collapse(at: [5]) }
        expect(.noItem(at: [5])) { try tree.toggle(at: [5]) }
        expect(.noItem(at: [5])) { try tree.expandAll(under: [5]) }
        expect(.noItem(at: [5])) { try tree.collapseAll(under: [5]) }
        expect(.noItem(at: [2, 0])) { try tree.replaceItem(at: [2, 0], with: "Memo") }
    }

    // MARK: Moving

    func testMoveNamesThePlaceAsTheTreeIsNow() throws {
        let tree = musicTree()
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        // Music into Photos (the second top item now), after Cats.
        try tree.moveItem(from: [0], to: [1, 1])
        XCTAssertEqual(tree.model(at: [0, 1]) as? String, "Music")
        XCTAssertEqual(tree.numberOfChildren(at: [0, 1]), 2)
        XCTAssertEqual(shownRows(tree), ["Photos", "Notes"])
        XCTAssertEqual(recorder.updates, [StorageUpdate([.deleteItems(section: 0, items: 0..<1)])])
    }

    func testMovingOneRowIsOneMoveAndUpdatesTheExpanders() throws {
        let tree = musicTree()
        try tree.expand(at: [1])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        let before = shownRows(tree)  // Music, Photos, Cats, Notes
        // Cats, Photos' only child, into Notes: Photos loses its expander, Notes gets one.
        try tree.moveItem(from: [1, 0], to: [2, 0])
        XCTAssertEqual(shownRows(tree), ["Music", "Photos", "Notes"])
        XCTAssertEqual(recorder.updates.count, 1)
        XCTAssertEqual(recorder.updates.first?.changes, [.deleteItems(section: 0, items: 2..<3), .updateItem(ip(0, 1)), .updateItem(ip(0, 2))])
        XCTAssertFalse(tree.isExpandable(at: [1]))
        XCTAssertTrue(tree.isExpandable(at: [2]))
        XCTAssertNil(replayMismatch(recorder.updates, from: before, to: shownRows(tree)))

        try tree.expand(at: [2])
        _ = recorder.take()
        // Back into Photos (expanded, with no children), shown before and after: one move.
        try tree.moveItem(from: [2, 0], to: [1, 0])
        XCTAssertEqual(shownRows(tree), ["Music", "Photos", "Cats", "Notes"])
        XCTAssertEqual(recorder.updates.first?.changes, [.moveItem(from: ip(0, 3), to: ip(0, 2)), .updateItem(ip(0, 3)), .updateItem(ip(0, 1))])
    }

    // MARK: Children that come later

    func testChildrenComeLaterInOneUpdate() throws {
        let tree = TreeStorage(items: [TreeItem("Music"), TreeItem("Photos", childrenLater: true)])
        var requests: [ChildrenRequest] = []
        tree.childrenProvider = { model, path, deliver in requests.append(ChildrenRequest(model: model, path: path, deliver: deliver)) }
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        XCTAssertTrue(tree.isExpandable(at: [1]))
        XCTAssertNil(tree.numberOfChildren(at: [1]))

        try tree.expand(at: [1])
        XCTAssertEqual(tree.rowCount, 3)
        XCTAssertTrue(tree.item(at: ip(0, 2)) is ChildrenLoading)
        XCTAssertTrue(tree.isLoadingChildren(at: [1]))
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(requests.first?.model as? String, "Photos")
        XCTAssertEqual(requests.first?.path, [1])
        XCTAssertNil(replayMismatch(recorder.take().updates, from: ["Music", "Photos"], to: shownRows(tree)))
        // The loading row is no item to edit, and no item goes beside it.
        XCTAssertThrowsError(try tree.removeItems(at: [[1, 0]]))
        XCTAssertThrowsError(try tree.insertItems([TreeItem("Dogs")], at: [1, 0]))
        XCTAssertThrowsError(try tree.moveItem(from: [0], to: [1, 0]))

        let before = shownRows(tree)
        requests[0].deliver(.success([TreeItem("Holidays"), TreeItem("Cats")]))
        XCTAssertEqual(shownRows(tree), ["Music", "Photos", "Holidays", "Cats"])
        XCTAssertFalse(tree.isLoadingChildren(at: [1]))
        let (updates, reloads) = recorder.take()
        XCTAssertEqual(reloads, 0)
        XCTAssertEqual(updates.count, 1)
        XCTAssertNil(replayMismatch(updates, from: before, to: shownRows(tree)))

        // Children read once are kept: collapsing and expanding asks for nothing.
        try tree.collapse(at: [1])
        try tree.expand(at: [1])
        XCTAssertEqual(requests.count, 1)
        XCTAssertEqual(shownRows(tree), ["Music", "Photos", "Holidays", "Cats"])
        // A second answer is dropped.
        recorder.log = []
        requests[0].deliver(.success([TreeItem("Again")]))
        XCTAssertEqual(recorder.log, [])
        XCTAssertEqual(shownRows(tree), ["Music", "Photos", "Holidays", "Cats"])
    }

    func testChildrenThatFailShowTheErrorAndAreAskedForAgain() throws {
        let tree = TreeStorage(items: [TreeItem("Photos", childrenLater: true)])
        var requests: [ChildrenRequest] = []
        tree.childrenProvider = { model, path, deliver in requests.append(ChildrenRequest(model: model, path: path, deliver: deliver)) }
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        try tree.expand(at: [0])
        _ = recorder.take()

        requests[0].deliver(.failure(ReadError(reason: "offline")))
        let failed = tree.item(at: ip(0, 1)) as? ChildrenLoadingFailed
        XCTAssertEqual(failed?.error as? ReadError, ReadError(reason: "offline"))
        XCTAssertEqual(recorder.take().updates, [StorageUpdate([.updateItem(ip(0, 1))])])
        XCTAssertFalse(tree.isLoadingChildren(at: [0]))

        try tree.collapse(at: [0])
        XCTAssertEqual(shownRows(tree), ["Photos"])
        XCTAssertTrue(tree.isExpandable(at: [0]))
        try tree.expand(at: [0])
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.last?.path, [0])
        XCTAssertTrue(tree.item(at: ip(0, 1)) is ChildrenLoading)
        requests[1].deliver(.success([TreeItem("Cats")]))
        XCTAssertEqual(shownRows(tree), ["Photos", "Cats"])
    }

    func testItemsGivenAfterAFailureTakeTheErrorRowsPlaceAndStay() throws {
        let tree = TreeStorage(items: [TreeItem("Photos", childrenLater: true)])
        var requests: [ChildrenRequest] = []
        tree.childrenProvider = { model, path, deliver in requests.append(ChildrenRequest(model: model, path: path, deliver: deliver)) }
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        try tree.expand(at: [0])
        requests[0].deliver(.failure(ReadError(reason: "offline")))
        _ = recorder.take()
        let before = shownRows(tree)
        try tree.addItems([TreeItem("Dogs")], under: [0])
        XCTAssertEqual(shownRows(tree), ["Photos", "Dogs"], "the error row goes: the item has children now")
        XCTAssertNil(replayMismatch(recorder.take().updates, from: before, to: shownRows(tree)))
        try tree.collapse(at: [0])
        try tree.expand(at: [0])
        XCTAssertEqual(shownRows(tree), ["Photos", "Dogs"], "and they stay through a collapse")
        XCTAssertEqual(requests.count, 1, "nothing is asked for again")
    }

    func testChildrenForAnItemRemovedMeanwhileAreDropped() throws {
        let tree = TreeStorage(items: [TreeItem("Music"), TreeItem("Photos", childrenLater: true)])
        var requests: [ChildrenRequest] = []
        tree.childrenProvider = { model, path, deliver in requests.append(ChildrenRequest(model: model, path: path, deliver: deliver)) }
        try tree.expand(at: [1])
        try tree.removeItems(at: [[1]])
        let recorder = UpdateRecorder()
        tree.delegate = recorder

        requests[0].deliver(.success([TreeItem("Cats")]))
        requests[0].deliver(.failure(ReadError(reason: "late")))
        XCTAssertEqual(recorder.log, [])
        XCTAssertEqual(shownRows(tree), ["Music"])
        XCTAssertEqual(tree.numberOfChildren(), 1)
    }

    func testChildrenForAnItemMovedOrCollapsedMeanwhileGoWhereItIs() throws {
        let tree = TreeStorage(items: [TreeItem("Music"), TreeItem("Photos", childrenLater: true)])
        var requests: [ChildrenRequest] = []
        tree.childrenProvider = { model, path, deliver in requests.append(ChildrenRequest(model: model, path: path, deliver: deliver)) }
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        try tree.expand(at: [1])
        try tree.moveItem(from: [1], to: [0])
        XCTAssertEqual(shownRows(tree), ["Photos", "ChildrenLoading", "Music"])
        let before = shownRows(tree)
        _ = recorder.take()
        requests[0].deliver(.success([TreeItem("Cats"), TreeItem("Dogs")]))
        XCTAssertEqual(shownRows(tree), ["Photos", "Cats", "Dogs", "Music"])
        XCTAssertNil(replayMismatch(recorder.take().updates, from: before, to: shownRows(tree)))

        // Collapsed while loading: the children come hidden, and show when it is expanded.
        try tree.addItems([TreeItem("Films", childrenLater: true)])
        try tree.expand(at: [2])
        try tree.collapse(at: [2])
        _ = recorder.take()
        requests[1].deliver(.success([TreeItem("Noir")]))
        XCTAssertEqual(shownRows(tree), ["Photos", "Cats", "Dogs", "Music", "Films"])
        XCTAssertEqual(recorder.take().updates.flatMap(\.changes).filter { if case .updateItem = $0 { false } else { true } }, [],
                       "only Films' row is updated")
        try tree.expand(at: [2])
        XCTAssertEqual(shownRows(tree), ["Photos", "Cats", "Dogs", "Music", "Films", "Noir"])
        XCTAssertEqual(requests.count, 2)
    }

    func testAProviderThatDeliversAtOnce() throws {
        let tree = TreeStorage(items: [TreeItem("Photos", childrenLater: true), TreeItem("Notes")])
        var asked = 0
        tree.childrenProvider = { model, _, deliver in
            asked += 1
            deliver(.success([TreeItem("\(model) 1"), TreeItem("\(model) 2")]))
        }
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        try tree.expand(at: [0])
        XCTAssertEqual(asked, 1)
        XCTAssertEqual(shownRows(tree), ["Photos", "Photos 1", "Photos 2", "Notes"])
        XCTAssertFalse(tree.isLoadingChildren(at: [0]))
        let (updates, _) = recorder.take()
        XCTAssertNil(replayMismatch(updates, from: ["Photos", "Notes"], to: shownRows(tree)))
    }

    func testExpandAllAsksForChildrenThatComeLater() throws {
        let tree = TreeStorage(items: [TreeItem("Music", children: [TreeItem("Live", childrenLater: true)]), TreeItem("Photos", childrenLater: true)])
        var requests: [ChildrenRequest] = []
        tree.childrenProvider = { model, path, deliver in requests.append(ChildrenRequest(model: model, path: path, deliver: deliver)) }
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        try tree.expandAll()
        XCTAssertEqual(requests.map { $0.model as? String }, ["Live", "Photos"])
        XCTAssertEqual(requests.map(\.path), [[0, 0], [1]])
        XCTAssertEqual(shownRows(tree), ["Music", "Live", "ChildrenLoading", "Photos", "ChildrenLoading"])
        XCTAssertNil(replayMismatch(recorder.take().updates, from: ["Music", "Photos"], to: shownRows(tree)))
    }

    // MARK: Large trees

    func testExpandAllAndCollapseAllAMillionRowsInOneUpdate() throws {
        let items = (0..<1_000).map { top in
            TreeItem(top, children: (0..<1_000).map { TreeItem(1_000 + top * 1_000 + $0) })
        }
        let tree = TreeStorage(items: items)
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        XCTAssertEqual(tree.rowCount, 1_000)

        /// The row count `update`'s changes make of `count` rows, nil if one is out of range.
        func replayedCount(_ update: StorageUpdate, from count: Int) -> Int? {
            var count = count
            for change in update.changes {
                switch change {
                case .insertItems(0, let items) where items.lowerBound <= count: count += items.count
                case .deleteItems(0, let items) where items.upperBound <= count: count -= items.count
                case .updateItem(let indexPath) where indexPath.item < count: continue  // an arrow turned
                default: return nil
                }
            }
            return count
        }

        try tree.expandAll()
        XCTAssertEqual(tree.rowCount, 1_001_000)
        var (updates, reloads) = recorder.take()
        XCTAssertEqual(reloads, 0)
        XCTAssertEqual(updates.count, 1)
        XCTAssertLessThanOrEqual(updates.first?.changes.count ?? 0, 3, "a delete and an insert of rows, the first item's arrow")
        XCTAssertEqual(updates.first.flatMap { replayedCount($0, from: 1_000) }, 1_001_000)
        for (row, model) in [(0, 0), (1, 1_000), (1_000, 1_999), (1_001, 1), (1_002, 2_000), (1_000_999, 1_000_999)] {
            XCTAssertEqual(tree.item(at: ip(0, row)) as? Int, model, "row \(row)")
        }
        XCTAssertEqual(tree.path(ofRow: 1_000_999), [999, 999])
        XCTAssertEqual(tree.row(of: [999, 999]), 1_000_999)

        try tree.collapseAll()
        XCTAssertEqual(tree.rowCount, 1_000)
        (updates, reloads) = recorder.take()
        XCTAssertEqual(updates.count, 1)
        XCTAssertLessThanOrEqual(updates.first?.changes.count ?? 0, 3)
        XCTAssertEqual(updates.first.flatMap { replayedCount($0, from: 1_001_000) }, 1_000)
        XCTAssertEqual((0..<1_000).map { tree.item(at: ip(0, $0)) as? Int }, (0..<1_000).map(Optional.some))
    }

    func testExpandingAHundredThousandChildrenIsOneInsert() throws {
        let tree = TreeStorage(items: [TreeItem("Big", children: (0..<100_000).map { TreeItem($0) }), TreeItem("After")])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        try tree.expand(at: [0])
        XCTAssertEqual(tree.rowCount, 100_002)
        XCTAssertEqual(recorder.updates.count, 1)
        let changes = recorder.updates.first?.changes ?? []
        XCTAssertEqual(changes.filter { if case .updateItem = $0 { false } else { true } }, [.insertItems(section: 0, items: 1..<100_001)])
        XCTAssertEqual(changes.filter { if case .updateItem = $0 { true } else { false } }, [.updateItem(ip(0, 0))])
        XCTAssertEqual(tree.item(at: ip(0, 100_000)) as? Int, 99_999)
        XCTAssertEqual(tree.item(at: ip(0, 100_001)) as? String, "After")
    }

    // MARK: Expanding everything

    func testCollapseAllWithSeveralItemsExpandedReplays() throws {
        let tree = musicTree()
        try tree.expandAll()
        XCTAssertEqual(shownRows(tree), ["Music", "Bach", "Satie", "Gymnopédies", "Photos", "Cats", "Notes"])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        let before = shownRows(tree)
        try tree.collapseAll()
        XCTAssertEqual(shownRows(tree), ["Music", "Photos", "Notes"])
        XCTAssertEqual(recorder.updates.count, 1)
        XCTAssertNil(replayMismatch(recorder.updates, from: before, to: shownRows(tree)))

        // Under one item, where another is expanded too.
        try tree.expandAll()
        _ = recorder.take()
        try tree.collapseAll(under: [0])
        XCTAssertEqual(shownRows(tree), ["Music", "Photos", "Cats", "Notes"])
        XCTAssertNil(replayMismatch(recorder.updates, from: before, to: shownRows(tree)))
        XCTAssertFalse(tree.isExpanded(at: [0, 1]))
    }

    func testExpansionDidChangeIsCalledForEachItem() throws {
        let tree = musicTree()
        var calls: [String] = []
        tree.expansionDidChange = { model, path, isExpanded in calls.append("\(model) \(path) \(isExpanded)") }
        try tree.expand(at: [0])
        try tree.expand(at: [0])  // expanded already: nothing
        try tree.expand(at: [2])  // a leaf: nothing
        try tree.collapse(at: [0])
        XCTAssertEqual(calls, ["Music [0] true", "Music [0] false"])

        calls = []
        try tree.expand(at: [1])
        calls = []
        try tree.expandAll()
        XCTAssertEqual(calls, ["Music [0] true", "Satie [0, 1] true"])
        calls = []
        try tree.toggle(at: [0, 1])
        XCTAssertEqual(calls, ["Satie [0, 1] false"])
        calls = []
        try tree.collapseAll()
        XCTAssertEqual(Set(calls), ["Music [0] false", "Photos [1] false"])
    }

    // MARK: Setting the items again

    func testSetItemsKeepsIdentifiableItemsExpanded() throws {
        let tree = TreeStorage(items: [
            TreeItem(Folder(id: "a", title: "A"), children: [TreeItem(Folder(id: "a1", title: "A1"), children: [TreeItem("x")])]),
            TreeItem(Folder(id: "b", title: "B"), children: [TreeItem("b1")]),
            TreeItem(Folder(id: "c", title: "C"), children: [TreeItem("c1")]),
            TreeItem("Plain", children: [TreeItem("p1")]),
        ])
        try tree.expand(at: [0])
        try tree.expand(at: [0, 0])
        try tree.expand(at: [2])
        try tree.expand(at: [3])
        let recorder = UpdateRecorder()
        var reloadedRows: [String] = []
        recorder.onReload = { reloadedRows = shownRows(tree) }
        tree.delegate = recorder

        tree.setItems([
            TreeItem(Folder(id: "b", title: "B2"), children: [TreeItem("b1")]),
            TreeItem(Folder(id: "a", title: "A2"), children: [
                TreeItem(Folder(id: "new", title: "New")),
                TreeItem(Folder(id: "a1", title: "A1 again"), children: [TreeItem("y")]),
            ]),
            TreeItem(Folder(id: "c", title: "C2")),  // no children now: nothing to show
            TreeItem("Plain", children: [TreeItem("p1")]),  // not Identifiable: collapsed
        ])
        XCTAssertEqual(recorder.reloads, 1)
        XCTAssertEqual(recorder.updates, [])
        XCTAssertEqual(reloadedRows, ["B2", "A2", "New", "A1 again", "y", "C2", "Plain"])
        XCTAssertEqual(shownRows(tree), reloadedRows)
        XCTAssertFalse(tree.isExpanded(at: [0]))
        XCTAssertTrue(tree.isExpanded(at: [1]))
        XCTAssertTrue(tree.isExpanded(at: [1, 1]))
        XCTAssertFalse(tree.isExpanded(at: [2]))
        XCTAssertFalse(tree.isExpanded(at: [3]))
        XCTAssertEqual(tree.row(of: [1, 1, 0]), 4)
        XCTAssertEqual(tree.disclosure(ofRow: 4)?.depth, 2)
    }

    // MARK: Applying a tree

    /// Seeds 0..<12; `TREE_APPLY_SEED=n` reruns one seed.
    func testApplyingRandomTreesReplaysAndKeepsItemsExpanded() {
        let seeds: [UInt64] = ProcessInfo.processInfo.environment["TREE_APPLY_SEED"].flatMap(UInt64.init).map { [$0] } ?? Array(0..<12)
        for seed in seeds {
            let run = RandomApplyRun(seed: seed)
            run.run(generations: 60)
            if let failure = run.failures.first {
                XCTFail("seed \(seed): \(failure) (rerun with TREE_APPLY_SEED=\(seed))")
            }
        }
    }

    func testApplyMovingARowAmongItsSiblingsIsOneMove() throws {
        let tree = TreeStorage(items: [
            TreeItem(Note("a")), TreeItem(Note("b")),
            TreeItem(Note("c"), children: [TreeItem(Note("c1")), TreeItem(Note("c2")), TreeItem(Note("c3"))]),
        ])
        try tree.expand(at: [2])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        tree.apply([
            TreeItem(Note("b")), TreeItem(Note("a")),
            TreeItem(Note("c"), children: [TreeItem(Note("c3")), TreeItem(Note("c1")), TreeItem(Note("c2"))]),
        ])
        XCTAssertEqual(shownRows(tree), ["b", "a", "c", "c3", "c1", "c2"])
        XCTAssertEqual(recorder.updates, [StorageUpdate([.moveItem(from: ip(0, 1), to: ip(0, 0)), .moveItem(from: ip(0, 5), to: ip(0, 3))])])
        XCTAssertEqual(recorder.reloads, 0)
        XCTAssertTrue(tree.isExpanded(at: [2]))
    }

    func testApplyAChangedModelIsOneUpdateInPlace() throws {
        let tree = TreeStorage(items: [TreeItem(Note("a")), TreeItem(Note("b")), TreeItem(Note("c"))])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        tree.apply([TreeItem(Note("a")), TreeItem(Note("b", "Bee")), TreeItem(Note("c"))])
        XCTAssertEqual(shownRows(tree), ["a", "Bee", "c"])
        XCTAssertEqual(recorder.updates, [StorageUpdate([.updateItem(ip(0, 1))])])
        XCTAssertEqual((recorder.updates.first?.updatedObjects[ip(0, 1)] as? Note)?.title, "Bee")
    }

    func testApplyingAnUnchangedTreeDeliversNothing() throws {
        let items = [
            TreeItem(Note("music"), children: [
                TreeItem(Note("bach")),
                TreeItem(Note("satie"), children: [TreeItem(Note("gymnopedies"))]),
            ]),
            TreeItem(Note("photos"), childrenLater: true),
            TreeItem(Note("notes"), children: []),
        ]
        let tree = TreeStorage(items: items)
        tree.childrenProvider = { _, _, deliver in deliver(.success([TreeItem(Note("cats"))])) }
        try tree.expand(at: [0])
        try tree.expand(at: [0, 1])
        try tree.expand(at: [1])
        try tree.replaceItem(at: [0, 0], with: Note("bach"))  // a leaf with a node of its own
        let dump = treeDump(tree)
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        tree.apply(items)
        XCTAssertEqual(recorder.log, [])
        XCTAssertEqual(treeDump(tree), dump, "Photos keeps the children it read")
    }

    func testApplyUnderACollapsedItemChangesTheTreeNotTheRows() throws {
        let tree = TreeStorage(items: [TreeItem(Note("a"), children: [TreeItem(Note("a1")), TreeItem(Note("a2"))]), TreeItem(Note("b"))])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        tree.apply([TreeItem(Note("a"), children: [TreeItem(Note("a2", "A2")), TreeItem(Note("a3"))]), TreeItem(Note("b"))])
        XCTAssertEqual(recorder.log, [])
        XCTAssertEqual(tree.numberOfChildren(at: [0]), 2)
        try tree.expand(at: [0])
        XCTAssertEqual(shownRows(tree), ["a", "A2", "a3", "b"])
    }

    func testApplyMovesExpandedItemsAndChangesChildren() throws {
        let tree = TreeStorage(items: [
            TreeItem(Note("a"), children: [TreeItem(Note("a1")), TreeItem(Note("a2"), children: [TreeItem(Note("x"))])]),
            TreeItem(Note("b"), children: [TreeItem(Note("b1"))]),
            TreeItem("plain", children: [TreeItem(Note("p1"))]),
            TreeItem(Note("c"), childrenLater: true),
        ])
        tree.childrenProvider = { _, _, deliver in deliver(.success([TreeItem(Note("c1")), TreeItem(Note("c2"))])) }
        for path: IndexPath in [[0], [0, 1], [1], [2], [3]] { try tree.expand(at: path) }
        XCTAssertEqual(shownRows(tree), ["a", "a1", "a2", "x", "b", "b1", "plain", "p1", "c", "c1", "c2"])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        let before = shownRows(tree)
        tree.apply([
            // b, expanded, goes first: its rows are deleted and inserted.
            TreeItem(Note("b"), children: [TreeItem(Note("b1")), TreeItem(Note("b2"))]),
            // a2 moves out of a, and keeps its state; a loses its children.
            TreeItem(Note("a")),
            TreeItem(Note("a2"), children: [TreeItem(Note("x"))]),
            // Not Identifiable: a new item, collapsed.
            TreeItem("plain", children: [TreeItem(Note("p1"))]),
            // Children read are kept.
            TreeItem(Note("c"), childrenLater: true),
        ])
        XCTAssertEqual(shownRows(tree), ["b", "b1", "b2", "a", "a2", "x", "plain", "c", "c1", "c2"])
        XCTAssertEqual(recorder.updates.count, 1)
        XCTAssertEqual(recorder.reloads, 0)
        XCTAssertNil(replayMismatch(recorder.updates, from: before, to: shownRows(tree)))
        XCTAssertTrue(tree.isExpanded(at: [0]))
        XCTAssertFalse(tree.isExpanded(at: [1]), "a has no children now")
        XCTAssertNil(tree.numberOfChildren(at: [1]))
        XCTAssertTrue(tree.isExpanded(at: [2]), "a2 moved to the top, expanded as it was")
        XCTAssertFalse(tree.isExpanded(at: [3]))
        XCTAssertTrue(tree.isExpanded(at: [4]))
        XCTAssertEqual(tree.numberOfChildren(at: [4]), 2)
    }

    func testApplyGivingChildrenToAnItemWaitingForItsOwn() throws {
        let tree = TreeStorage(items: [TreeItem(Note("photos"), childrenLater: true)])
        var requests: [ChildrenRequest] = []
        tree.childrenProvider = { model, path, deliver in requests.append(ChildrenRequest(model: model, path: path, deliver: deliver)) }
        try tree.expand(at: [0])
        XCTAssertEqual(shownRows(tree), ["photos", "ChildrenLoading"])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        tree.apply([TreeItem(Note("photos"), children: [TreeItem(Note("cats"))])])
        XCTAssertEqual(shownRows(tree), ["photos", "cats"])
        XCTAssertFalse(tree.isLoadingChildren(at: [0]))
        XCTAssertNil(replayMismatch(recorder.take().updates, from: ["photos", "ChildrenLoading"], to: shownRows(tree)))
        requests[0].deliver(.success([TreeItem(Note("late"))]))
        XCTAssertEqual(recorder.log.count, 1, "the late answer is dropped")
        XCTAssertEqual(shownRows(tree), ["photos", "cats"])
    }

    // MARK: Snapshots

    func testASnapshotKeepsTheRowsItWasTakenWith() throws {
        let tree = musicTree()
        try tree.expand(at: [0])
        let rows = ["Music", "Bach", "Satie", "Photos", "Notes"]
        let first = tree.snapshot()
        let second = tree.snapshot()

        func rowsOf(_ snapshot: any SectionedModels) -> [String] {
            (0..<snapshot.numberOfItems(inSection: 0)).map { String(describing: snapshot.item(at: ip(0, $0)) ?? "nil") }
        }
        XCTAssertEqual(rowsOf(first), rows)

        try tree.expandAll()
        try tree.removeItems(at: [[0, 0], [2]])
        try tree.replaceItem(at: [1], with: "Pictures")
        XCTAssertEqual(shownRows(tree), ["Music", "Satie", "Gymnopédies", "Pictures", "Cats"])
        XCTAssertEqual(first.numberOfSections(), 1)
        XCTAssertEqual(rowsOf(first), rows)
        XCTAssertEqual(rowsOf(second), rows)
        XCTAssertNil(first.item(at: ip(0, 5)))
        XCTAssertEqual(rowsOf(tree.snapshot()), shownRows(tree))
    }

    // MARK: Batches

    func testPerformUpdatesDeliversOneUpdate() throws {
        let tree = musicTree()
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        let before = shownRows(tree)
        try tree.performUpdates {
            try tree.expand(at: [0])
            try tree.insertItems([TreeItem("Pärt")], at: [0, 2])
            try tree.removeItems(at: [[0, 0], [1]])
            try tree.moveItem(from: [1], to: [0, 0])
        }
        XCTAssertEqual(shownRows(tree), ["Music", "Notes", "Satie", "Pärt"])
        XCTAssertEqual(recorder.updates.count, 1)
        XCTAssertNil(replayMismatch(recorder.updates, from: before, to: shownRows(tree)))
    }

    // MARK: Found by review

    func testAMoveIntoAnItemWhoseChildrenFailedReplacesItsErrorRow() throws {
        let tree = TreeStorage(items: [TreeItem("Loose"), TreeItem("Photos", childrenLater: true), TreeItem("Zoo")])
        var requests: [ChildrenRequest] = []
        tree.childrenProvider = { model, path, deliver in requests.append(ChildrenRequest(model: model, path: path, deliver: deliver)) }
        try tree.expand(at: [1])
        requests[0].deliver(.failure(ReadError(reason: "offline")))
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        let before = shownRows(tree)
        try tree.moveItem(from: [0], to: [1, 0])
        XCTAssertEqual(shownRows(tree), ["Photos", "Loose", "Zoo"])
        XCTAssertNil(replayMismatch(recorder.updates, from: before, to: shownRows(tree)))
    }

    func testARowMovedToAnotherLevelIsUpdatedForItsIndent() throws {
        let tree = TreeStorage(items: [TreeItem("A", children: [TreeItem("a1"), TreeItem("a2")]), TreeItem("B")])
        try tree.expand(at: [0])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        try tree.moveItem(from: [0, 1], to: [1])
        XCTAssertEqual(shownRows(tree), ["A", "a1", "a2", "B"])
        XCTAssertEqual(tree.depth(ofRow: 2), 0)
        XCTAssertEqual(recorder.updates.first?.changes, [.moveItem(from: ip(0, 2), to: ip(0, 2)), .updateItem(ip(0, 2))],
                       "the row stays where it is, one level up: its row is updated")
    }

    func testExpandAllOfManyItemsUpdatesTheFirstItemsArrow() throws {
        let folders = (0..<70).map { TreeItem("f\($0)", children: [TreeItem("leaf \($0)")]) }
        let tree = TreeStorage(items: [TreeItem("top", children: folders)])
        let recorder = UpdateRecorder()
        tree.delegate = recorder
        try tree.expandAll(under: [0])
        XCTAssertEqual(recorder.updates.count, 1)
        XCTAssertEqual(recorder.updates.first?.changes.first, .insertItems(section: 0, items: 1..<141))
        XCTAssertTrue(recorder.updates.first?.changes.contains(.updateItem(ip(0, 0))) == true, "top's arrow turns")
    }

    func testNothingGoesIntoAnItemWhoseChildrenAreStillToCome() throws {
        let tree = TreeStorage(items: [TreeItem("Photos", childrenLater: true), TreeItem("Loose")])
        var asked = 0
        tree.childrenProvider = { _, _, deliver in asked += 1; deliver(.success([TreeItem("Cats")])) }
        XCTAssertThrowsError(try tree.insertItems([TreeItem("Dogs")], at: [0, 0])) { error in
            XCTAssertEqual(error as? TreeStorageError, .childrenNotRead(at: [0]))
        }
        XCTAssertThrowsError(try tree.moveItem(from: [1], to: [0, 0]))
        try tree.expand(at: [0])
        XCTAssertEqual(asked, 1, "the children are asked for, as they would have been")
        XCTAssertEqual(shownRows(tree), ["Photos", "Cats", "Loose"])
    }

    func testAHandlerThatRemovesItemsWhileExpandAllNotifiesIsSafe() throws {
        let tree = TreeStorage(items: [TreeItem("A", children: [TreeItem("B", children: [TreeItem("c")])]), TreeItem("D", childrenLater: true)])
        var asked: [IndexPath] = []
        tree.childrenProvider = { _, path, deliver in asked.append(path); deliver(.success([TreeItem("e")])) }
        var notices: [String] = []
        tree.expansionDidChange = { model, path, _ in
            notices.append("\(model) \(path)")
            if model as? String == "A" { try? tree.removeItems(at: [[0]]) }
        }
        try tree.expandAll()
        XCTAssertEqual(notices, ["A [0]", "B [0, 0]", "D [1]"], "paths as they were when expanded")
        XCTAssertEqual(asked, [[0]], "D asked for where it is now")
        XCTAssertEqual(shownRows(tree), ["D", "e"])
    }
}
