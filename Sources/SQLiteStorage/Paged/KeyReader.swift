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
    /// transaction.
    func read(_ db: Database) throws -> KeyRead<Record, DatabaseValue> {
        let keys = try KeyList(counts: query.counts(db), keys: query.keys(db, capacity: last?.keys.count ?? 0))
        var pages: [Int: [(Int64, Record)]] = [:]
        if last != nil {
            for page in heldPages.pages {
                let start = page * pageSize
                guard start < keys.keys.count else { continue }
                pages[page] = try query.rows(db, keys: keys.keys[start..<min(start + pageSize, keys.keys.count)], as: Record.self)
            }
        }
        defer { last = keys }
        return KeyRead(keys: keys, update: last.flatMap { keys.update(from: $0, limit: largestUpdate, noSection: .null) }, pages: pages)
    }
}
