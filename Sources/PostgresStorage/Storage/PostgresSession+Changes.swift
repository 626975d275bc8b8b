import Foundation
import ModelStorage
import PostgresNIO

/// How many rows a run of a followed query starts with (`PostgresRuns`).
let followedRunSize = 4096

extension PostgresSession {
    /// Reads every key as runs (each run's bound with it), the log's position, and the
    /// records of the rows in `held` (each storage's pages, and their size), in one
    /// snapshot; shown as the changes from the last read. Tells `firstRows`, when given, the
    /// sections' counts and the first rows' keys first.
    func readRuns(held: [(pages: Set<Int>, size: Int)],
                  firstRows: (@Sendable (KeyRead<Record, String?>) -> Void)? = nil) async throws(PostgresStorageError) -> KeyRead<Record, String?> {
        let connection = try await connected(for: .keys)
        // Owed no more once this read's snapshot is taken (a drift found meanwhile owes another).
        resyncOwed = false
        let columns = held.allSatisfy(\.pages.isEmpty) ? [] : try await columnNames()
        let (query, known) = (query, placement)
        let ((runs, log, placement, rowsRead), snapshot) = try await mappingErrors {
            try await connection.whileOpen { connection in
                try await Self.inSnapshot(on: connection) {
                    if let firstRows { _ = try await Self.tellFirstRows(of: query, on: connection, to: firstRows) }
                    let log = try await PostgresChangeLog.read(query.table, after: nil, on: connection)
                    let runs = try await PostgresRuns.read(query, runSize: followedRunSize, on: connection)
                    let placement: PostgresPlacement
                    if let known { placement = known } else { placement = try await PostgresPlacement.read(query, on: connection) }
                    return (runs, log, placement, try await Self.heldRows(held, of: runs, query: query, columns: columns, on: connection))
                }
            }
        }
        let update = last?.keyList.flatMap { old in runs.keyList?.update(from: old, limit: largestUpdate, noSection: nil) }
        (last, logPosition, self.placement, self.snapshot, tableID) = (runs, log.position, placement, snapshot, log.tableID)
        return KeyRead(keys: runs, update: update, pages: [:], rowsRead: rowsRead)
    }

    /// Reads the change log from the last read's position and applies its changes to the
    /// runs, in one snapshot: the rows the commits touched, placed by the server, and the
    /// records of those that land in a page of `held` (each storage's pages, and their
    /// size). Nil when the keys are to be read again instead: the log no
    /// longer holds every change since, a `TRUNCATE`, the table dropped and made again, a
    /// row gone to a section the runs do not have, or runs that differ from what the server
    /// placed the rows against.
    func readChanges(held: [(pages: Set<Int>, size: Int)]) async throws(PostgresStorageError) -> KeyRead<Record, String?>? {
        guard let runs = last as? PostgresRuns, let position = logPosition, let placement else { return nil }
        let connection = try await connected(for: .keys)
        let columns = try await columnNames()
        let (query, tableID) = (query, tableID)
        let ((readTableID, applied), snapshot): ((Int64, (runs: PostgresRuns, update: StorageUpdate, position: PostgresChangePosition, records: [Int64: (position: Int, record: Record?)], changed: [Int64])?), PostgresSnapshot) = try await mappingErrors {
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
                    // The changed rows a storage holds the page of, read again.
                    let shown = positions.filter { _, position in held.contains { $0.pages.contains(position / $0.size) } }
                    var records: [Int64: (position: Int, record: Record?)] = positions.mapValues { ($0, nil) }
                    for (key, record) in shown.isEmpty ? [] : try await Self.rows(Array(shown.keys), of: query, columns: columns, on: connection) {
                        if let position = shown[key] { records[key] = (position, record) }
                    }
                    return (log.tableID, (next, update, log.position, records, keys))
                }
            }
        }
        // Another table's columns and order types are read again with its keys.
        if readTableID != tableID { (self.placement, self.columns) = (nil, nil) }
        // A drift found while the log was read: every key is read instead.
        guard let applied, !resyncOwed else { return nil }
        (last, logPosition, self.snapshot) = (applied.runs, applied.position, snapshot)
        return KeyRead(keys: applied.runs, update: applied.update, pages: [:], changesOnly: true, changedKeys: applied.changed,
                       changedRecords: applied.records)
    }

    /// The records of the rows at the places of `held` (each storage's pages, and their
    /// size) in `places`, a thousand at a time.
    static func heldRows(_ held: [(pages: Set<Int>, size: Int)], of places: any RowPlaces<String?>, query: PostgresListQuery,
                         columns: [String], on connection: PostgresConnection) async throws -> [Int64: Record] {
        var keys = Set<Int64>()
        for (pages, size) in held {
            for page in pages { keys.formUnion(places.places(ofPage: page, size: size).compactMap(places.key(at:))) }
        }
        let all = Array(keys)
        var records: [Int64: Record] = [:]
        for start in stride(from: 0, to: all.count, by: 1000) {
            for (key, record) in try await rows(Array(all[start..<min(start + 1000, all.count)]), of: query, columns: columns, on: connection) {
                records[key] = record
            }
        }
        return records
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
}
