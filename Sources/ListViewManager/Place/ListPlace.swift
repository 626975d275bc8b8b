import Foundation

/// Where the user is in a list, kept by the identity of an item rather than by a position,
/// so that it still holds after the data was reloaded, resorted, or read again after a
/// restart: the first item wholly in view, and how far below the top of the view its row
/// is. Codable: keep it with the app's state, and hand it back to `restore(_:)`.
///
/// ```swift
/// let saved = try JSONEncoder().encode(manager.place)
/// // … later, after the storage was filled again:
/// if let place = try JSONDecoder().decode(ListPlace?.self, from: saved) {
///     manager.restore(place)
/// }
/// ```
public struct ListPlace: Codable, Hashable, Sendable {
    /// The identity of the item (its `id`, described; see `itemIdentity(of:)`), or nil
    /// for a model that is not `Identifiable`, whose place is then its index path alone.
    public var itemIdentity: String?
    /// Where the item was when the place was taken: where it is looked for first, and the
    /// place itself for an item with no identity.
    public var indexPath: IndexPath
    /// How far below the top of the view the item's row was, in pixels (negative: its top
    /// was scrolled out of view).
    public var offset: Double

    /// A place: the item of `itemIdentity` (at `indexPath` then), `offset` pixels below the
    /// top of the view.
    public init(itemIdentity: String?, indexPath: IndexPath, offset: Double) {
        self.itemIdentity = itemIdentity
        self.indexPath = indexPath
        self.offset = offset
    }
}
