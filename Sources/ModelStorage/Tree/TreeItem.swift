import Foundation

/// A model with its children, as a `TreeStorage` is given it: children given up front, none,
/// or asked for when the item is first expanded (`TreeStorage.childrenProvider`).
///
/// ```swift
/// let tree = TreeStorage(items: [
///     TreeItem("Music", children: [TreeItem("Bach"), TreeItem("Satie")]),
///     TreeItem("Photos", childrenLater: true),
/// ])
/// ```
public struct TreeItem {
    /// The item's model: what its row shows, and what mappings pick the row type by.
    public var model: Any
    /// The item's children.
    public var children: TreeChildren

    /// An item with `children` given now (an empty array: an item that has none yet, and
    /// no expander).
    public init(_ model: Any, children: [TreeItem]) {
        self.model = model
        self.children = .given(children)
    }

    /// An item without children given: a leaf, or, when `childrenLater`, an item whose
    /// children the storage's `childrenProvider` is asked for when it is first expanded.
    public init(_ model: Any, childrenLater: Bool = false) {
        self.model = model
        children = childrenLater ? .later : .none
    }
}

/// What a tree item's children are when it is given.
public enum TreeChildren {
    /// A leaf: no children, no expander.
    case none
    /// Asked for when the item is first expanded (`TreeStorage.childrenProvider`).
    case later
    /// These children.
    case given([TreeItem])
}

/// The model of the row shown under an item while its children are being read (the
/// manager shows "Loading…" unless the app registers a row for it).
public struct ChildrenLoading: Hashable, Sendable, CustomStringConvertible {
    public var description: String { "ChildrenLoading" }
}

/// The model of the row shown under an item whose children could not be read: the error
/// the provider gave. Collapsing the item and expanding it again asks for them again.
public struct ChildrenLoadingFailed: CustomStringConvertible, @unchecked Sendable {
    /// What went wrong.
    public let error: any Error
    public var description: String { "ChildrenLoadingFailed(\(error))" }
}

/// Why a `TreeStorage` operation changed nothing.
public enum TreeStorageError: Error, Equatable, CustomStringConvertible {
    /// No item is at this path.
    case noItem(at: IndexPath)
    /// The path to insert or move to is past the end of its parent's children (or its
    /// parent is not there).
    case insertionPathTooBig(IndexPath, countOfChildren: Int)
    /// An item cannot be moved into itself or its own descendants.
    case moveIntoItself(from: IndexPath, to: IndexPath)
    /// The item's children are still to come from `TreeStorage.childrenProvider` (it was
    /// never expanded): items put there now would hide the children it has. Expand it first.
    case childrenNotRead(at: IndexPath)

    public var description: String {
        switch self {
        case .noItem(let path):
            return "No tree item at \(describe(path))"
        case let .insertionPathTooBig(path, count):
            return "Cannot insert at \(describe(path)): its parent has \(count) children"
        case let .moveIntoItself(from, to):
            return "Cannot move the item at \(describe(from)) into itself (to \(describe(to)))"
        case .childrenNotRead(let path):
            return "The children of the tree item at \(describe(path)) are not read yet: expand it first"
        }
    }
}
