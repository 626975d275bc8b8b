import Foundation
import PostgresNIO

/// A point in a database's history: the transactions whose commits one snapshot of it sees
/// (PostgreSQL's `pg_current_snapshot()`). A storage's rows are of the snapshot of its last
/// read (`PostgresQueryStorage.snapshot`), so a program that wrote can tell when the rows
/// shown include what it wrote.
public struct PostgresSnapshot: Sendable, Equatable, CustomStringConvertible {
    /// The first transaction id not yet given out then: none from here on had begun.
    public let horizon: Int64
    /// The transactions (below `horizon`) still running then, whose commits it does not
    /// see.
    public let running: [Int64]
    /// On a replica (a hot standby), how far it had replayed the primary's log before the
    /// snapshot was taken: the snapshot sees every commit whose record ends there or
    /// before. Nil on a primary.
    public let replayed: PostgresLSN?

    /// The snapshot in which the transactions below `horizon`, but for `running`, had
    /// ended, taken (on a replica) once it had replayed the log through `replayed`.
    public init(horizon: Int64, running: [Int64], replayed: PostgresLSN? = nil) {
        self.horizon = horizon
        self.running = running.sorted()
        self.replayed = replayed
    }

    /// Whether the transaction `id` had ended in this snapshot: when it committed, what it
    /// wrote is seen. `id` is the 64-bit id `SELECT pg_current_xact_id()` gives in the
    /// transaction, before its `COMMIT`.
    public func includes(transaction id: Int64) -> Bool {
        id < horizon && !running.contains(id)
    }

    /// The horizon, and how many transactions were still running.
    public var description: String {
        (running.isEmpty ? "before \(horizon)" : "before \(horizon) (but for \(running.count) transactions then running)")
            + (replayed.map { ", replayed through \($0)" } ?? "")
    }

    /// How far the replica on `connection` has replayed the primary's log (nil on a
    /// primary, promoted or not), asked before a transaction's snapshot is taken.
    static func replayed(on connection: PostgresConnection) async throws -> PostgresLSN? {
        for row in try await connection.send("SELECT CASE WHEN pg_is_in_recovery() THEN (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::int8 END") {
            return try row.decode(Int64?.self).map { PostgresLSN(offset: UInt64($0)) }
        }
        return nil
    }

    /// The snapshot of the transaction open on `connection` (in a REPEATABLE READ
    /// transaction, the one every statement of it reads), taken once the log was replayed
    /// through `replayed` (on a replica).
    static func current(on connection: PostgresConnection, replayed: PostgresLSN? = nil) async throws -> PostgresSnapshot {
        let query = PostgresQuery(unsafeSQL: """
            SELECT pg_snapshot_xmax(snapshot)::text::bigint,
                   ARRAY(SELECT running::text::bigint FROM pg_snapshot_xip(snapshot) running)
            FROM pg_current_snapshot() snapshot
            """)
        for row in try await connection.send(query) {
            let (horizon, running) = try row.decode((Int64, [Int64]).self)
            return PostgresSnapshot(horizon: horizon, running: running, replayed: replayed)
        }
        throw PostgresStorageError.server(message: tr("the server gave no snapshot of the database"), sqlState: "XX000")
    }
}
