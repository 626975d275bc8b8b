import Foundation
import PostgresNIO

/// The change log that lets `PostgresQueryStorage`s follow a table: a trigger on the table
/// records each row inserted, updated or deleted (and each `TRUNCATE`) in the table
/// `list_view_manager.changes`, in the writer's transaction, and wakes the storages
/// listening on ``channel`` (one notification per transaction and table; PostgreSQL
/// delivers it at commit).
///
/// A storage reads the log from where it last read, with one indexed statement, and learns
/// which keys changed without reading every key again. Where it last read is a position
/// (``PostgresChangePosition``) that misses no commit, whatever order concurrent
/// transactions commit in, and that a storage can resume from after a reconnection.
///
/// Install it once per table, as a role that may create a schema and triggers:
/// ```swift
/// try await PostgresChangeLog.install(on: "book", key: "id", connection: connection)
/// ```
/// or run ``installSQL(table:key:)`` in a migration. Without it, a storage finds changes
/// by reading the keys again every `pollInterval`, and says so (`State.polling`).
public enum PostgresChangeLog {
    /// The schema of the log and of the trigger's function.
    public static let schema = "list_view_manager"
    /// The channel the trigger notifies and storages listen on (the payload is the table's
    /// name).
    public static let channel = "list_view_manager_changes"
    /// The name of the triggers on a followed table.
    public static let triggerName = "list_view_manager_changes"
    /// How many changes the log keeps by default (`keep` in `list_view_manager.log_state`):
    /// a storage that has not read the log for longer reads every key again, once.
    public static let defaultKept = 100_000
    /// How often (in changes) a writer's trigger drops the changes older than the log keeps.
    static let pruningInterval = 1024

    /// The statements that make the log (once per database) and install the trigger on
    /// `table`, whose rows `key` (an integer column) tells apart.
    ///
    /// Each change is a row of `list_view_manager.changes`: its sequence number, the
    /// transaction that made it, the table, the operation (`INSERT`, `UPDATE`, `DELETE`,
    /// `TRUNCATE`), the key, and for an update or a delete the row as it was (`jsonb`), so
    /// that a storage knows where the row was in its order. An update that changes the key
    /// is a delete and an insert.
    ///
    /// The log keeps the last ``defaultKept`` changes (every 1,024th change, the writer's
    /// trigger drops older ones; set `keep` in `list_view_manager.log_state` to keep more).
    /// The trigger's function runs with its owner's rights (`SECURITY DEFINER`), so writers
    /// need no rights on the log; a role that reads a storage needs `SELECT` on
    /// `list_view_manager.changes` and `list_view_manager.log_state` (they hold the rows as
    /// they were: grant it to the roles that may read the followed tables).
    public static func installSQL(table: String, key: String) -> [String] {
        let schema = schema.quotedIdentifier
        func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        let arguments = literal(key) + ", " + literal(table)
        return [
            "CREATE SCHEMA IF NOT EXISTS \(schema)",
            """
            CREATE TABLE IF NOT EXISTS \(schema).changes (
                seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
                table_name text NOT NULL,
                operation text NOT NULL,
                key bigint,
                old_row jsonb
            )
            """,
            "CREATE INDEX IF NOT EXISTS changes_xid ON \(schema).changes (xid)",
            // A table's changes after a position, without walking the other tables' (a look
            // at a quiet table while another is busy).
            "CREATE INDEX IF NOT EXISTS changes_table_seq ON \(schema).changes (table_name, seq)",
            """
            CREATE TABLE IF NOT EXISTS \(schema).log_state (
                one boolean PRIMARY KEY DEFAULT true CHECK (one),
                keep bigint NOT NULL DEFAULT \(defaultKept),
                pruned_through bigint NOT NULL DEFAULT 0,
                pruned_xid xid8 NOT NULL DEFAULT '0'
            )
            """,
            "INSERT INTO \(schema).log_state DEFAULT VALUES ON CONFLICT DO NOTHING",
            """
            CREATE OR REPLACE FUNCTION \(schema).record_change() RETURNS trigger LANGUAGE plpgsql
            SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
            DECLARE
                old_row jsonb;
                old_key bigint;
                new_key bigint;
                numbered bigint;
                kept bigint;
            BEGIN
                IF TG_LEVEL = 'STATEMENT' THEN
                    INSERT INTO \(schema).changes (table_name, operation) VALUES (TG_ARGV[1], TG_OP) RETURNING seq INTO numbered;
                ELSE
                    IF TG_OP <> 'INSERT' THEN
                        old_row := to_jsonb(OLD);
                        old_key := (old_row ->> TG_ARGV[0])::bigint;
                    END IF;
                    IF TG_OP <> 'DELETE' THEN new_key := (to_jsonb(NEW) ->> TG_ARGV[0])::bigint; END IF;
                    IF TG_OP = 'UPDATE' AND old_key IS DISTINCT FROM new_key THEN
                        INSERT INTO \(schema).changes (table_name, operation, key, old_row) VALUES
                            (TG_ARGV[1], 'DELETE', old_key, old_row), (TG_ARGV[1], 'INSERT', new_key, NULL);
                        numbered := currval(pg_get_serial_sequence('\(schema).changes', 'seq'));
                    ELSE
                        INSERT INTO \(schema).changes (table_name, operation, key, old_row) VALUES
                            (TG_ARGV[1], TG_OP, coalesce(new_key, old_key), old_row)
                            RETURNING seq INTO numbered;
                    END IF;
                END IF;
                -- Every \(pruningInterval)th change drops the changes older than the log keeps, and
                -- says how far it dropped (readers from before then read the keys again).
                IF numbered % \(pruningInterval) = 0 THEN
                    SELECT keep INTO kept FROM \(schema).log_state;
                    WITH gone AS (DELETE FROM \(schema).changes WHERE seq <= numbered - kept RETURNING seq, xid)
                    UPDATE \(schema).log_state SET pruned_through = greatest(pruned_through, gone.through),
                                                  pruned_xid = greatest(pruned_xid, gone.newest)
                    FROM (SELECT max(seq) AS through, max(xid::text::bigint)::text::xid8 AS newest FROM gone) AS gone
                    WHERE gone.through IS NOT NULL;
                END IF;
                -- One wake-up per transaction and table: PostgreSQL folds identical ones.
                PERFORM pg_notify('\(channel)', TG_ARGV[1]);
                RETURN NULL;
            END
            $body$
            """,
            """
            CREATE OR REPLACE TRIGGER \(triggerName.quotedIdentifier) AFTER INSERT OR UPDATE OR DELETE ON \(table.quotedIdentifier)
            FOR EACH ROW EXECUTE FUNCTION \(schema).record_change(\(arguments))
            """,
            """
            CREATE OR REPLACE TRIGGER \((triggerName + "_truncate").quotedIdentifier) AFTER TRUNCATE ON \(table.quotedIdentifier)
            FOR EACH STATEMENT EXECUTE FUNCTION \(schema).record_change(\(arguments))
            """,
        ]
    }

    /// Installs the log and the trigger on `table` through `connection`, in one transaction.
    public static func install(on table: String, key: String, connection: PostgresConnection) async throws(PostgresStorageError) {
        try await mappingErrors {
            try await connection.whileOpen { connection in
                try await connection.send("BEGIN")
                do {
                    for statement in installSQL(table: table, key: key) {
                        try await connection.send(PostgresQuery(unsafeSQL: statement))
                    }
                    try await connection.send("COMMIT")
                } catch {
                    _ = try? await connection.send("ROLLBACK")
                    throw error
                }
            }
        }
    }

    /// Whether `table` has the trigger, the table's object id, whether the log holds
    /// changes to it after `position` (false with no position), and whether the server is a
    /// replica: one look of a storage.
    static func lookQuery(table: String, after position: PostgresChangePosition?) -> PostgresListQuery.SQL {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(table.quotedIdentifier)
        bindings.append(triggerName)
        let trigger = "SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = $1::text::regclass AND tgname = $2), $1::text::regclass::oid::int8"
        guard let position else { return .init(text: trigger + ", false, pg_is_in_recovery()", bindings: bindings) }
        bindings.append(table)
        bindings.append(position.sequence)
        bindings.append(position.running)
        bindings.append(position.horizon)
        return .init(text: trigger + ", " + changesAfter(sequence: "$4", running: "$5", horizon: "$6", table: "$3") + ", pg_is_in_recovery()",
                     bindings: bindings)
    }

    /// Whether the log has changes to the table `table` after a position given as the SQL
    /// values `sequence`, `running` and `horizon`: three lookups, an index each (the changes
    /// numbered after it, those of the transactions then running, and those of the ones
    /// from its horizon on, numbered before it and committed since).
    static func changesAfter(sequence: String, running: String, horizon: String, table: String) -> String {
        let schema = schema.quotedIdentifier
        return """
            (EXISTS (SELECT 1 FROM \(schema).changes WHERE seq > \(sequence) AND table_name = \(table))
             OR EXISTS (SELECT 1 FROM \(schema).changes
                        WHERE xid = ANY (ARRAY(SELECT running::text::xid8 FROM unnest(\(running)::bigint[]) running)) AND table_name = \(table))
             OR EXISTS (SELECT 1 FROM \(schema).changes WHERE xid >= \(horizon)::bigint::text::xid8 AND table_name = \(table)))
            """
    }
}
