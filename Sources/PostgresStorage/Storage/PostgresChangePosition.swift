import Foundation
import PostgresNIO

/// How far a storage has read a database's change log (``PostgresChangeLog``): every
/// commit visible in one snapshot of the database, and none after it.
///
/// A position misses nothing however concurrent transactions commit: sequence numbers are
/// taken when a row is written, not when its transaction commits, so a transaction still
/// running when the position was taken may commit later with numbers below `sequence`. The
/// position keeps those transactions: the ones it lists (`running`), and every one from
/// `horizon` on (a snapshot lists no running transaction younger than the youngest ended
/// one); the next read takes their changes along with every change numbered after
/// `sequence`.
public struct PostgresChangePosition: Sendable, Equatable, CustomStringConvertible {
    /// The highest sequence number in the log in that snapshot (0 for an empty log).
    public let sequence: Int64
    /// The transactions (their 64-bit ids) below `horizon` still running in that snapshot.
    public let running: [Int64]
    /// The first transaction id the snapshot saw as not yet ended (`pg_snapshot_xmax`):
    /// this one and every later one may have been running, unlisted.
    public let horizon: Int64

    /// The position after the change numbered `sequence`, with the transactions `running`,
    /// and those from `horizon` on, still to be read (a position saved earlier, to resume
    /// from).
    public init(sequence: Int64, running: [Int64], horizon: Int64) {
        self.sequence = sequence
        self.running = running
        self.horizon = horizon
    }

    /// The sequence number, and how many transactions were still running.
    public var description: String {
        running.isEmpty ? "\(sequence) (from transaction \(horizon) on)"
            : "\(sequence) (and \(running.count) transactions then running, and from transaction \(horizon) on)"
    }
}

/// A change the log recorded.
struct LoggedChange: Sendable, Equatable {
    /// What was done to the row.
    enum Operation: String, Sendable {
        case insert = "INSERT", update = "UPDATE", delete = "DELETE", truncate = "TRUNCATE"
    }

    /// Its sequence number.
    let sequence: Int64
    let operation: Operation
    /// The row's key (nil for a `TRUNCATE`).
    let key: Int64?
    /// The row as it was before an update or a delete (`jsonb` as text).
    let oldRow: String?
}

/// What a read of the change log brings.
struct ChangeLogRead: Sendable {
    /// The changes to the table after the position read from, in order.
    let changes: [LoggedChange]
    /// Where the read leaves the reader.
    let position: PostgresChangePosition
    /// Whether the log no longer holds every change after the position read from (it was
    /// pruned past it): the keys are to be read again.
    let missedChanges: Bool
    /// The table's object id: a table dropped and made again is another table, whose
    /// rows the log's changes do not lead to from the old one's (a `DROP` logs nothing).
    let tableID: Int64
}

extension PostgresChangeLog {
    /// The changes to the table `$3` after the position `$1` (its sequence), `$2` (the
    /// transactions then running) and `$4` (its horizon), in order: each branch of the
    /// condition an index's range (`changes_table_seq`, `changes_xid`), however busy the
    /// log is with other tables.
    static var changesSQL: String {
        """
        SELECT seq, operation, key, old_row::text FROM \(schema.quotedIdentifier).changes
        WHERE (seq > $1 OR xid = ANY (ARRAY(SELECT running::text::xid8 FROM unnest($2::bigint[]) running))
               OR xid >= $4::bigint::text::xid8) AND table_name = $3
        ORDER BY seq
        """
    }

    /// Reads, in the transaction open on `connection` (REPEATABLE READ, so that the rows it
    /// reads next are of the same snapshot), the changes to `table` after `position`, and
    /// the position they bring the reader to. With no position, only the position.
    static func read(_ table: String, after position: PostgresChangePosition?, on connection: PostgresConnection) async throws -> ChangeLogRead {
        let schema = schema.quotedIdentifier
        var found: (position: PostgresChangePosition, prunedThrough: Int64, prunedTransaction: Int64, tableID: Int64)?
        var tableBinding = PostgresBindings(capacity: 1)
        tableBinding.append(table.quotedIdentifier)
        let positionQuery = PostgresQuery(unsafeSQL: """
            SELECT coalesce((SELECT max(seq) FROM \(schema).changes), pruned_through),
                   ARRAY(SELECT running::text::bigint FROM pg_snapshot_xip(pg_current_snapshot()) running),
                   pg_snapshot_xmax(pg_current_snapshot())::text::bigint,
                   pruned_through, pruned_xid::text::bigint, $1::text::regclass::oid::int8
            FROM \(schema).log_state
            """, binds: tableBinding)
        for row in try await connection.send(positionQuery) {
            let (sequence, running, horizon, through, transaction, tableID) = try row.decode((Int64, [Int64], Int64, Int64, Int64, Int64).self)
            found = (PostgresChangePosition(sequence: sequence, running: running.sorted(), horizon: horizon), through, transaction, tableID)
        }
        guard let found else { throw PostgresStorageError.server(message: tr("the change log has no state"), sqlState: "XX000") }
        guard let position else { return ChangeLogRead(changes: [], position: found.position, missedChanges: false, tableID: found.tableID) }
        // Dropped: changes numbered after the position, or changes of a transaction then
        // running (which may have been numbered before it).
        if found.prunedThrough > position.sequence || position.running.contains(where: { $0 <= found.prunedTransaction })
            || found.prunedTransaction >= position.horizon {
            return ChangeLogRead(changes: [], position: found.position, missedChanges: true, tableID: found.tableID)
        }
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(position.sequence)
        bindings.append(position.running)
        bindings.append(table)
        bindings.append(position.horizon)
        let changesQuery = PostgresQuery(unsafeSQL: changesSQL, binds: bindings)
        var changes: [LoggedChange] = []
        for row in try await connection.send(changesQuery) {
            let (sequence, operation, key, oldRow) = try row.decode((Int64, String, Int64?, String?).self)
            guard let operation = LoggedChange.Operation(rawValue: operation) else { continue }
            changes.append(LoggedChange(sequence: sequence, operation: operation, key: key, oldRow: oldRow))
        }
        return ChangeLogRead(changes: changes, position: found.position, missedChanges: false, tableID: found.tableID)
    }
}
