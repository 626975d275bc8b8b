import Foundation

/// An item's identity as text, which outlives the process (for keeping a place in a list
/// across launches): the `id` of an `Identifiable` model, described (an optional `id`
/// unwrapped); nil for a model that is not `Identifiable`, or whose `id` is nil (a paged
/// storage's placeholder whose key is not read yet).
public func itemIdentity(of model: Any) -> String? {
    guard let identifiable = model as? any Identifiable else { return nil }
    return describedIdentity(identifiable.id)
}

/// `id` described, an optional unwrapped (nil for none).
private func describedIdentity(_ id: Any) -> String? {
    let mirror = Mirror(reflecting: id)
    guard mirror.displayStyle == .optional else { return String(describing: id) }
    return mirror.children.first.flatMap { describedIdentity($0.value) }
}

/// A storage that finds an item by its identity (`itemIdentity(of:)`) without reading
/// every item: a paged storage looks its keys up, and reads no page.
public protocol IdentityLocating {
    /// The index path of the item whose identity is `identity`, or nil for none.
    func indexPath(ofItemIdentifiedBy identity: String) -> IndexPath?
}

extension Storage {
    /// The index path of the item whose identity is `identity`, looked for first at `hint`
    /// (where it was), then as the storage finds it (`IdentityLocating`), else by reading
    /// the items in order; nil for none.
    public func indexPath(ofItemIdentifiedBy identity: String, near hint: IndexPath?) -> IndexPath? {
        if let hint, hint.count == 2, hint.section >= 0, hint.section < numberOfSections(),
           hint.item >= 0, hint.item < numberOfItems(inSection: hint.section),
           let model = item(at: hint), itemIdentity(of: model) == identity {
            return hint
        }
        if let locating = self as? IdentityLocating { return locating.indexPath(ofItemIdentifiedBy: identity) }
        for section in 0..<numberOfSections() {
            for index in 0..<numberOfItems(inSection: section) {
                let indexPath = IndexPath(item: index, section: section)
                if let model = item(at: indexPath), itemIdentity(of: model) == identity { return indexPath }
            }
        }
        return nil
    }
}
