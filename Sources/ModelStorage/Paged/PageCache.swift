import Foundation

/// The records of the pages read last, by rowid, at most `capacity` pages: reading a page
/// beyond that drops the one used longest ago.
///
/// Records are found by rowid, not by position, so that a row keeps its record when rows
/// before it come or go.
package struct PageCache<Record> {
    /// The most pages kept.
    package let capacity: Int
    /// The records of the pages kept, each with the page that brought it last.
    private var entries: [Int64: (page: Int, record: Record)] = [:]
    /// The rowids each kept page brought, by page.
    private var pages: [Int: [Int64]] = [:]
    /// The kept pages, the one used last at the end.
    private var recent: [Int] = []

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The pages kept.
    package var pageCount: Int { pages.count }

    /// The record of the row `key`, if a kept page holds it.
    package func record(_ key: Int64) -> Record? { entries[key]?.record }

    /// The numbers of the pages kept.
    package var pageNumbers: Set<Int> { Set(pages.keys) }

    /// Whether `page` is kept.
    package func holds(_ page: Int) -> Bool { pages[page] != nil }

    /// Marks `page` as used now, so that it is dropped last.
    package mutating func use(_ page: Int) {
        guard recent.last != page, let index = recent.lastIndex(of: page) else { return }
        recent.remove(at: index)
        recent.append(page)
    }

    /// Keeps `rows` as `page` (replacing what it held), dropping the page used longest ago
    /// when there are more than `capacity`. Returns the pages dropped.
    @discardableResult
    package mutating func keep(_ rows: [(Int64, Record)], as page: Int) -> [Int] {
        drop(page)
        for (key, record) in rows { entries[key] = (page, record) }
        pages[page] = rows.map(\.0)
        recent.append(page)
        var dropped: [Int] = []
        while recent.count > capacity {
            let oldest = recent[0]
            drop(oldest)
            dropped.append(oldest)
        }
        return dropped
    }

    /// Keeps `record` as the row `key`'s, brought by `page` (kept): a changed row read on
    /// its own.
    package mutating func keep(_ record: Record, of key: Int64, inPage page: Int) {
        guard pages[page] != nil else { return }
        if entries[key]?.page != page { pages[page]?.append(key) }
        entries[key] = (page, record)
    }

    /// Drops `page` and its records.
    package mutating func drop(_ page: Int) {
        guard let keys = pages.removeValue(forKey: page) else { return }
        // A row that moved may have come again with another page since.
        for key in keys where entries[key]?.page == page { entries[key] = nil }
        recent.removeAll { $0 == page }
    }

    /// Forgets the record of the row `key` (its page stays kept): a row that changed where
    /// its page was not read again, whose record may be old.
    package mutating func forget(_ key: Int64) {
        entries[key] = nil
    }

    /// Drops every page.
    package mutating func removeAll() {
        entries = [:]
        pages = [:]
        recent = []
    }
}
