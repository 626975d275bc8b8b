import Foundation
import GRDB
import ModelStorage

/// Reads a query's keys again and again (each time the database changes), each read
/// compared with the one before. Used on the refresher's queue only: a new query gets a new
/// reader, whose first read is compared with the keys shown (`baseline`), if any.
final class KeyReader<Record: FetchableRecord & Sendable>: @unchecked Sendable {
    private let query: PagedQuery
    private let pageSize: Int
    private let heldPages: HeldPages
    /// The most rows a read's changes may touch before it reloads the list instead.
    private let largestUpdate: Int
    /// The keys of the last read.
    private var last: KeyList<DatabaseValue>?

    init(query: PagedQuery, pageSize: Int, heldPages: HeldPages, largestUpdate: Int, baseline: KeyList<DatabaseValue>? = nil) {
        self.query = query
        self.pageSize = pageSize
        self.heldPages = heldPages
        self.largestUpdate = largestUpdate
        last = baseline
    }

    /// Reads the keys, their changes since the last read, and the held pages' rows, in one
    /// transaction. Pages that came back short since the last read are read too: a page
    /// with fewer rows than the keys just read list for it (a rowid listed twice, or listed
    /// but not found) means a damaged file, `SQLiteStorageError.unreadableRows`.
    func read(_ db: Database) throws -> KeyRead<Record, DatabaseValue> {
        let keys = try KeyList(counts: query.counts(db), keys: query.keys(db, capacity: last?.keys.count ?? 0))
        let short = heldPages.shortPages
        var pages: [Int: [(Int64, Record)]] = [:]
        for page in (last == nil ? short : heldPages.pages.union(short)).sorted() {
            let places = keys.places(ofPage: page, size: pageSize)
            guard !places.isEmpty else { continue }
            let pageKeys = keys.keys[places]
            let rows = try query.rows(db, keys: pageKeys, as: Record.self)
            guard rows.count == pageKeys.count else { throw SQLiteStorageError.unreadableRows(table: query.table) }
            pages[page] = rows
        }
        heldPages.checked(short)
        defer { last = keys }
        return KeyRead(keys: keys, update: last.flatMap { keys.update(from: $0, limit: largestUpdate, noSection: .null) }, pages: pages)
    }
}
