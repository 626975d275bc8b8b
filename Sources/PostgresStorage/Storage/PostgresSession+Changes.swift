import Foundation
import ModelStorage
import PostgresNIO

/// How many rows a run of a followed query starts with (`PostgresRuns`).
let followedRunSize = 4096

extension PostgresSession {
    /// Reads every key as runs (each run's bound with it), the log's position, and the rows
    /// of `heldPages`, in one snapshot; shown as the changes from the last read.
    func readRuns(heldPages: Set<Int>, pageSize: Int) async throws(PostgresStorageError) -> KeyRead<Record, String?> {
        let connection = try await connected(for: .keys)
        // Owed no more once this read's snapshot is taken (a drift found meanwhile owes another).
        resyncOwed = false
        let columns = last == nil ? [] : try await columnNames()
        let (query, held, known) = (query, last == nil ? [] : heldPages, placement)
        let ((runs, log, placement, pages), snapshot) = try await mappingErrors {
            try await connection.whileOpen { connection in
                try await Self.inSnapshot(on: connection) {
                    let log = try await PostgresChangeLog.read(query.table, after: nil, on: connection)
                    let runs = try await PostgresRuns.read(query, runSize: followedRunSize, on: connection)
                    let placement: PostgresPlacement
                    if let known { placement = known } else { placement = try await PostgresPlacement.read(query, on: connection) }
                    let pages = try await Self.pages(held, of: runs, size: pageSize, query: query, columns: columns, on: connection)
                    return (runs, log, placement, pages)
                }
            }
        }
        let update = last?.keyList.flatMap { old in runs.keyList?.update(from: old, limit: largestUpdate, noSection: nil) }
        (last, logPosition, self.placement, self.snapshot, tableID) = (runs, log.position, placement, snapshot, log.tableID)
        return KeyRead(keys: runs, update: update, pages: pages)
    }

    /// Reads the change log from the last read's position and applies its changes to the
    /// runs, in one snapshot: the rows the commits touched, placed by the server, and the
    /// held pages they are in. Nil when the keys are to be read again instead: the log no
    /// longer holds every change since, a `TRUNCATE`, the table dropped and made again, a
    /// row gone to a section the runs do not have, or runs that differ from what the server
    /// placed the rows against.
    func readChanges(heldPages: Set<Int>, pageSize: Int) async throws(PostgresStorageError) -> KeyRead<Record, String?>? {
        guard let runs = last as? PostgresRuns, let position = logPosition, let placement else { return nil }
        let connection = try await connected(for: .keys)
        let columns = try await columnNames()
        let (query, tableID) = (query, tableID)
        let ((readTableID, applied), snapshot): ((Int64, (runs: PostgresRuns, update: StorageUpdate, position: PostgresChangePosition, pages: [Int: [(Int64, Record)]], changed: [Int64])?), PostgresSnapshot) = try await mappingErrors {
            try await connection.whileOpen { connection in
                try await Self.inSnapshot(on: connection) {
                    let log = try await PostgresChangeLog.read(query.table, after: position, on: connection)
                    guard log.tableID == tableID, !log.missedChanges, !log.changes.contains(where: { $0.operation == .truncate }) else {
                        return (log.tableID, nil)
                    }
                    // Each key once, with the row as it was before the first of its changes.
                    var keys: [Int64] = []
                    var oldRows: [String?] = []
                    var seen = Set<Int64>()
                    for change in log.changes {
                        guard let key = change.key, seen.insert(key).inserted else { continue }
                        keys.append(key)
                        oldRows.append(change.operation == .insert ? nil : change.oldRow)
                    }
                    guard !keys.isEmpty else { return (log.tableID, (runs, StorageUpdate(), log.position, [:], [])) }
                    let places = try await placement.places(bounds: runs.runs.map(\.bound), keys: keys, oldRows: oldRows, on: connection)
                    var next = runs
                    guard let (update, positions) = next.apply(places.map(\.runPlace)) else { return (log.tableID, nil) }
                    // The held pages the changed rows are in now, read again.
                    let touched = Set(positions.values.map { $0 / pageSize }).intersection(heldPages)
                    let pages = try await Self.pages(touched, of: next, size: pageSize, query: query, columns: columns, on: connection)
                    return (log.tableID, (next, update, log.position, pages, keys))
                }
            }
        }
        // Another table's columns and order types are read again with its keys.
        if readTableID != tableID { (self.placement, self.columns) = (nil, nil) }
        // A drift found while the log was read: every key is read instead.
        guard let applied, !resyncOwed else { return nil }
        (last, logPosition, self.snapshot) = (applied.runs, applied.position, snapshot)
        return KeyRead(keys: applied.runs, update: applied.update, pages: applied.pages, changesOnly: true, changedKeys: applied.changed)
    }

    /// The value of `body`, run in a REPEATABLE READ transaction on `connection` (all it
    /// reads is of one snapshot), committed when it returns, rolled back when it throws; and
    /// that snapshot (on a replica, with how far the replica had replayed the log before it
    /// was taken).
    static func inSnapshot<Value: Sendable>(on connection: PostgresConnection,
                                            _ body: () async throws -> Value) async throws -> (Value, PostgresSnapshot) {
        let replayed = try await PostgresSnapshot.replayed(on: connection)
        try await connection.send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let snapshot = try await PostgresSnapshot.current(on: connection, replayed: replayed)
            let value = try await body()
            try await connection.send("COMMIT")
            return (value, snapshot)
        } catch {
            _ = try? await connection.send("ROLLBACK")
            throw error
        }
    }

    /// The rows of the pages `pages` (of `size` rows) of `places`.
    static func pages(_ pages: Set<Int>, of places: any RowPlaces<String?>, size: Int, query: PostgresListQuery, columns: [String],
                      on connection: PostgresConnection) async throws -> [Int: [(Int64, Record)]] {
        var read: [Int: [(Int64, Record)]] = [:]
        for page in pages {
            let keys = places.places(ofPage: page, size: size).compactMap(places.key(at:))
            if !keys.isEmpty { read[page] = try await rows(keys, of: query, columns: columns, on: connection) }
        }
        return read
    }
}
