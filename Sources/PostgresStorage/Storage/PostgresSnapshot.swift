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

    /// The snapshot in which the transactions below `horizon`, but for `running`, had
    /// ended.
    public init(horizon: Int64, running: [Int64]) {
        self.horizon = horizon
        self.running = running.sorted()
    }

    /// Whether the transaction `id` had ended in this snapshot: when it committed, what it
    /// wrote is seen. `id` is the 64-bit id `SELECT pg_current_xact_id()` gives in the
    /// transaction, before its `COMMIT`.
    public func includes(transaction id: Int64) -> Bool {
        id < horizon && !running.contains(id)
    }

    /// The horizon, and how many transactions were still running.
    public var description: String {
        running.isEmpty ? "before \(horizon)" : "before \(horizon) (but for \(running.count) transactions then running)"
    }

    /// The snapshot of the transaction open on `connection` (in a REPEATABLE READ
    /// transaction, the one every statement of it reads).
    static func current(on connection: PostgresConnection) async throws -> PostgresSnapshot {
        let query = PostgresQuery(unsafeSQL: """
            SELECT pg_snapshot_xmax(snapshot)::text::bigint,
                   ARRAY(SELECT running::text::bigint FROM pg_snapshot_xip(snapshot) running)
            FROM pg_current_snapshot() snapshot
            """)
        for row in try await connection.send(query) {
            let (horizon, running) = try row.decode((Int64, [Int64]).self)
            return PostgresSnapshot(horizon: horizon, running: running)
        }
        throw PostgresStorageError.server(message: tr("the server gave no snapshot of the database"), sqlState: "XX000")
    }
}
