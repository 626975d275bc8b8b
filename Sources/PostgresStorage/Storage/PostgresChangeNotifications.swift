import Foundation
import PostgresNIO

/// The trigger that tells `PostgresQueryStorage`s at once that a table changed: after each
/// row inserted, updated or deleted (and after a `TRUNCATE`), it sends a notification on
/// ``channel`` whose payload is `table:operation:key` (the table it was installed on, a
/// partitioned table's name for its partitions' rows). PostgreSQL delivers notifications
/// when the transaction commits, and folds a transaction's identical ones into one.
///
/// Install it once per table, as a role that may create triggers on it:
/// ```swift
/// try await PostgresChangeNotifications.install(on: "book", key: "id", connection: connection)
/// ```
/// or run ``installSQL(table:key:)`` in a migration. Without it, a storage finds changes
/// by reading the keys again every `pollInterval`, and says so (`State.polling`).
public enum PostgresChangeNotifications {
    /// The channel the trigger notifies and storages listen on.
    public static let channel = "list_view_manager_changes"
    /// The name of the trigger and of its function.
    public static let triggerName = "list_view_manager_notify"

    /// The statements that install the trigger on `table`, whose rows `key` tells apart.
    public static func installSQL(table: String, key: String) -> [String] {
        let function = triggerName.quotedIdentifier
        func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        let arguments = literal(key) + ", " + literal(table)
        return [
            """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $body$
            DECLARE changed text;
            BEGIN
                IF TG_LEVEL = 'STATEMENT' THEN
                    changed := '';
                ELSIF TG_OP = 'DELETE' THEN
                    changed := to_jsonb(OLD) ->> TG_ARGV[0];
                ELSE
                    changed := to_jsonb(NEW) ->> TG_ARGV[0];
                END IF;
                -- The table the trigger was made on: a partition's rows name their parent.
                PERFORM pg_notify('\(channel)', coalesce(TG_ARGV[1], TG_TABLE_NAME) || ':' || TG_OP || ':' || coalesce(changed, ''));
                RETURN NULL;
            END
            $body$
            """,
            """
            CREATE OR REPLACE TRIGGER \(function) AFTER INSERT OR UPDATE OR DELETE ON \(table.quotedIdentifier)
            FOR EACH ROW EXECUTE FUNCTION \(function)(\(arguments))
            """,
            """
            CREATE OR REPLACE TRIGGER \((triggerName + "_truncate").quotedIdentifier) AFTER TRUNCATE ON \(table.quotedIdentifier)
            FOR EACH STATEMENT EXECUTE FUNCTION \(function)(\(arguments))
            """,
        ]
    }

    /// Installs the trigger on `table` through `connection`.
    public static func install(on table: String, key: String, connection: PostgresConnection) async throws(PostgresStorageError) {
        try await mappingErrors {
            for statement in installSQL(table: table, key: key) {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger.silent)
            }
        }
    }

    /// Whether `table` has the trigger.
    static func triggerPresentQuery(table: String) -> PostgresListQuery.SQL {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(table.quotedIdentifier)
        bindings.append(triggerName)
        return .init(text: "SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = $1::text::regclass AND tgname = $2)", bindings: bindings)
    }

    /// The table a notification's payload names.
    static func table(ofPayload payload: String) -> Substring? {
        payload.split(separator: ":", maxSplits: 1).first
    }
}
