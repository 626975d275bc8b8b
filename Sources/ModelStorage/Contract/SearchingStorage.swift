import Foundation

/// A storage that finds, itself, the item whose text matches what the user typed
/// (type-ahead find), without going through its items: a paged storage asks its database
/// (`PagedQuery.searchBy`), so that a search of ten million rows reads no page. A manager
/// whose storage searches asks it instead of reading each item's text, and goes to the
/// item found (a placeholder until its page is read).
public protocol SearchingStorage: Storage {
    /// Whether the storage can search now (a paged storage whose query names a text to
    /// search in).
    var searchesItems: Bool { get }
    /// Looks for the first item from `start` on (the item at `start` included; nil: from
    /// the first item, or the last backwards), going round the end, backwards unless
    /// `forward`, whose text starts with `text` (or, `anywhere`, contains it), ignoring the
    /// case of letters (of ASCII letters at least); hands its index path to `found` where
    /// the storage lives (nil when no item matches, or the search failed), unless the
    /// storage is gone first. A paged storage still reading where its rows are answers once
    /// it has read them; a search begun while another runs ends the other's asking.
    func searchItem(matching text: String, anywhere: Bool, from start: IndexPath?, forward: Bool,
                    found: @escaping (IndexPath?) -> Void)
}

/// The `LIKE` (or `ILIKE`) pattern of a type-ahead search for `text`: what was typed taken
/// as it is (`\\`, `%` and `_` escaped with `\\`, for `ESCAPE '\\'`), then anything; with
/// anything before it too when `anywhere`.
package func likePattern(for text: String, anywhere: Bool) -> String {
    let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
        .replacingOccurrences(of: "_", with: "\\_")
    return (anywhere ? "%" : "") + escaped + "%"
}
