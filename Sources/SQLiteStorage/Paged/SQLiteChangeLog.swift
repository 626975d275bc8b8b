import Foundation
import GRDB

/// The change log that lets `PagedQueryStorage`s follow a table without reading every key
/// at each commit: triggers on the table record each row inserted, updated or deleted, in
/// the writer's transaction, whatever program writes the file.
///
/// Each change is a row of the table's log, `list_view_manager_log_<table>`: its sequence
/// number (`lvm_seq`, in commit order: SQLite has one writer at a time), the operation, the
/// rowid (`lvm_key`), and for an update or a delete the row as it was, in columns named as
/// the table's (values kept as they were, blobs and reals included), so that a storage knows
/// where the row was in its order. An update that changes the rowid is an update of the old
/// rowid and an insert of the new one. The log keeps its last ``kept`` changes: a storage
/// that has not read it for longer reads every key again, once.
///
/// Install it once per table, with a connection that may write the file (a migration, say):
/// ```swift
/// try database.write { db in try SQLiteChangeLog.install(on: "book", in: db) }
/// ```
/// Without it, a storage reads every key again at each commit. A change of the file's
/// schema (a column added, a trigger dropped) makes the storages read every key once;
/// install the log again after a column is added, so that its rows keep that column too.
///
/// Rows that `INSERT OR REPLACE` and `UPDATE OR REPLACE` replace (SQLite runs no delete
/// trigger for them) are logged before the statement: those of the same rowid or the same
/// values of a `UNIQUE` constraint of columns. One replaced through a unique index on an
/// expression is found when its page is read (a page that comes back short makes the
/// storage read every key again).
public enum SQLiteChangeLog {
    /// How many changes a log keeps (each change's trigger drops those older).
    public static let kept: Int64 = 100_000

    /// The name of `table`'s log.
    public static func logTable(for table: String) -> String { "list_view_manager_log_" + table }

    /// The names of `table`'s triggers: after an insert, an update, a delete; before an
    /// insert and an update (the rows they may replace).
    static func triggerNames(for table: String) -> [String] {
        ["insert", "update", "delete", "insert_replacing", "update_replacing"].map { "list_view_manager_\(table)_\($0)" }
    }

    /// The statements that make `table`'s log (if it has none) and its triggers (in place of
    /// any it has), for a table whose `SELECT *` gives `columns`, whose rows `rowID` (`rowid`,
    /// or `_rowid_` or `oid` for a table with a column called `rowid`) tells apart, and whose
    /// `UNIQUE` constraints are on the columns of `uniqueKeys` (each compared with the
    /// collation of its index).
    ///
    /// SQLite runs no delete trigger for a row that `INSERT OR REPLACE` or `UPDATE OR REPLACE`
    /// deletes (unless `PRAGMA recursive_triggers` is on), so before each insert and update
    /// the rows it may replace (the same rowid, the same values of a unique key) are logged as
    /// deleted, with the row as it is; a storage finds those that stay where they were.
    public static func installSQL(table: String, columns: [String], rowID: String = "rowid",
                                  uniqueKeys: [[(column: String, collation: String)]] = []) -> [String] {
        let log = logTable(for: table).quotedSQLIdentifier
        let names = columns.map(\.quotedSQLIdentifier)
        let old = columns.map { "OLD.\($0.quotedSQLIdentifier)" }
        let recordOld = "INSERT INTO \(log) (lvm_operation, lvm_key\(names.map { ", " + $0 }.joined()))"
        // A seek on the log's key: nothing to delete costs one look.
        let prune = "DELETE FROM \(log) WHERE lvm_seq <= (SELECT max(lvm_seq) FROM \(log)) - \(kept);"
        let (insert, update, delete) = (triggerNames(for: table)[0], triggerNames(for: table)[1], triggerNames(for: table)[2])
        let (insertReplacing, updateReplacing) = (triggerNames(for: table)[3], triggerNames(for: table)[4])
        let target = table.quotedSQLIdentifier
        let conflicting = (["\(rowID) = NEW.\(rowID)"] + uniqueKeys.map { key in
            // Compared as the index compares them, with its collation.
            "(" + key.map { "\($0.column.quotedSQLIdentifier) = NEW.\($0.column.quotedSQLIdentifier) COLLATE \($0.collation.quotedSQLIdentifier)" }
                .joined(separator: " AND ") + ")"
        }).joined(separator: " OR ")
        let recordReplaced = "\(recordOld) SELECT 'DELETE', \(rowID)\(names.map { ", " + $0 }.joined()) FROM \(target)"
        return [
            """
            CREATE TABLE IF NOT EXISTS \(log) (
                lvm_seq INTEGER PRIMARY KEY AUTOINCREMENT,
                lvm_operation TEXT NOT NULL,
                lvm_key INTEGER NOT NULL\(names.map { ",\n    " + $0 }.joined())
            )
            """,
            "DROP TRIGGER IF EXISTS \(insert.quotedSQLIdentifier)",
            "DROP TRIGGER IF EXISTS \(update.quotedSQLIdentifier)",
            "DROP TRIGGER IF EXISTS \(delete.quotedSQLIdentifier)",
            "DROP TRIGGER IF EXISTS \(insertReplacing.quotedSQLIdentifier)",
            "DROP TRIGGER IF EXISTS \(updateReplacing.quotedSQLIdentifier)",
            """
            CREATE TRIGGER \(insert.quotedSQLIdentifier) AFTER INSERT ON \(target) BEGIN
                INSERT INTO \(log) (lvm_operation, lvm_key) VALUES ('INSERT', NEW.\(rowID));
                \(prune)
            END
            """,
            """
            CREATE TRIGGER \(update.quotedSQLIdentifier) AFTER UPDATE ON \(target) BEGIN
                \(recordOld) VALUES ('UPDATE', OLD.\(rowID)\(old.map { ", " + $0 }.joined()));
                INSERT INTO \(log) (lvm_operation, lvm_key) SELECT 'INSERT', NEW.\(rowID) WHERE NEW.\(rowID) IS NOT OLD.\(rowID);
                \(prune)
            END
            """,
            """
            CREATE TRIGGER \(insertReplacing.quotedSQLIdentifier) BEFORE INSERT ON \(target) BEGIN
                \(recordReplaced) WHERE \(conflicting);
            END
            """,
            """
            CREATE TRIGGER \(updateReplacing.quotedSQLIdentifier) BEFORE UPDATE ON \(target) BEGIN
                \(recordReplaced) WHERE \(rowID) IS NOT OLD.\(rowID) AND (\(conflicting));
            END
            """,
            """
            CREATE TRIGGER \(delete.quotedSQLIdentifier) AFTER DELETE ON \(target) BEGIN
                \(recordOld) VALUES ('DELETE', OLD.\(rowID)\(old.map { ", " + $0 }.joined()));
                \(prune)
            END
            """,
        ]
    }

    /// Installs the log and the triggers on `table` (again after a column is added or
    /// renamed: the log gains it; SQLite refuses to drop a column the triggers name, so take
    /// the log away first, `remove(from:in:)`, and install it again after), in the
    /// transaction open on `db` or in one of its own.
    /// - Throws: `SQLiteStorageError.noRowID` for a `WITHOUT ROWID` table, or one with a
    ///   column named `rowID`.
    public static func install(on table: String, rowID: String = "rowid", in db: Database) throws {
        let columns = try columnNames(of: table, in: db)
        let withoutRowID = try Bool.fetchOne(db, sql: "SELECT wr FROM pragma_table_list WHERE name = ?", arguments: [table]) ?? false
        guard !withoutRowID, !columns.contains(where: { $0.lowercased() == rowID.lowercased() }) else {
            throw SQLiteStorageError.noRowID(table: table, rowID: rowID)
        }
        var uniqueKeys: [[(column: String, collation: String)]] = []
        for index in try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?) WHERE \"unique\" AND NOT partial", arguments: [table]) {
            let key = try Row.fetchAll(db, sql: "SELECT name, coll FROM pragma_index_xinfo(?) WHERE key ORDER BY seqno", arguments: [index])
                .map { row -> (String?, String) in (row[0], row[1]) }
            // A key of an expression cannot be compared column by column, nor can a partial
            // index's rows be found by it: such a replaced row is found when its page is read.
            if !key.isEmpty, key.allSatisfy({ $0.0 != nil }) { uniqueKeys.append(key.map { ($0.0!, $0.1) }) }
        }
        try db.inSavepoint {
            let log = logTable(for: table)
            if let logged = try loggedColumns(of: table, in: db) {
                for column in columns where !logged.contains(column) {
                    try db.execute(sql: "ALTER TABLE \(log.quotedSQLIdentifier) ADD COLUMN \(column.quotedSQLIdentifier)")
                }
            }
            for statement in installSQL(table: table, columns: columns, rowID: rowID, uniqueKeys: uniqueKeys) { try db.execute(sql: statement) }
            return .commit
        }
    }

    /// The names of the columns `SELECT * FROM table` gives, in its order.
    static func columnNames(of table: String, in db: Database) throws -> [String] {
        try db.makeStatement(sql: "SELECT * FROM \(table.quotedSQLIdentifier) LIMIT 0").columnNames
    }

    /// Removes `table`'s triggers and its log: storages read every key at each commit again.
    public static func remove(from table: String, in db: Database) throws {
        try db.inSavepoint {
            for trigger in triggerNames(for: table) { try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger.quotedSQLIdentifier)") }
            try db.execute(sql: "DROP TABLE IF EXISTS \(logTable(for: table).quotedSQLIdentifier)")
            return .commit
        }
    }

    /// The columns of `table`'s log, or nil when it has none. (GRDB's `columns(in:)` and
    /// `tableExists` do not read a name with a double quote in it.)
    static func loggedColumns(of table: String, in db: Database) throws -> Set<String>? {
        let names = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_xinfo(?)", arguments: [logTable(for: table)])
        return names.isEmpty ? nil : Set(names)
    }

    // MARK: Reading

    /// Where a reader of `table`'s log is: the last change read, and the file's schema then
    /// (any change of the schema, a trigger dropped and made again included, is read as
    /// a change of every row).
    struct Position: Sendable, Equatable {
        let sequence: Int64
        let schemaVersion: Int
    }

    /// The position of the log of `table` now, or nil when the table is not followed (its
    /// triggers or its log are missing).
    static func position(of table: String, in db: Database) throws -> Position? {
        let names = triggerNames(for: table)
        let triggers = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name IN ("
                                            + names.map { _ in "?" }.joined(separator: ", ") + ")",
                                        arguments: StatementArguments([table] + names)) ?? 0
        guard triggers == names.count, try loggedColumns(of: table, in: db) != nil else { return nil }
        let sequence = try Int64.fetchOne(db, sql: "SELECT coalesce(max(lvm_seq), 0) FROM \(logTable(for: table).quotedSQLIdentifier)") ?? 0
        let schemaVersion = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        return Position(sequence: sequence, schemaVersion: schemaVersion)
    }

    /// A changed rowid, first in a batch: the change giving the row as it was, if any.
    struct Change: Sendable, Equatable {
        let key: Int64
        /// The sequence number of its first change in the batch when that change holds the
        /// row as it was (an update, a delete); nil when it was not a row before (an insert).
        let oldRow: Int64?
    }

    /// The rowids `table`'s changes after `position` touched, each once, and the position
    /// after them; nil when the log no longer holds every change since (pruned past it), or
    /// they touched more than `limit` rows.
    static func changes(of table: String, after position: Position, limit: Int, in db: Database) throws -> (changes: [Change], position: Position)? {
        let log = logTable(for: table).quotedSQLIdentifier
        // Pruned past the position: a change after it is gone (the sequence has no gaps:
        // a rolled-back transaction gives its numbers back).
        if let oldest = try Int64.fetchOne(db, sql: "SELECT min(lvm_seq) FROM \(log)"), oldest > position.sequence + 1,
           try Int64.fetchOne(db, sql: "SELECT max(lvm_seq) FROM \(log)").map({ $0 > position.sequence }) == true {
            return nil
        }
        var changes: [Change] = []
        var seen = Set<Int64>()
        var last = position.sequence
        let rows = try Row.fetchCursor(db, sql: "SELECT lvm_seq, lvm_operation, lvm_key FROM \(log) WHERE lvm_seq > ? ORDER BY lvm_seq",
                                       arguments: [position.sequence])
        while let row = try rows.next() {
            let (sequence, operation, key): (Int64, String, Int64) = (row[0], row[1], row[2])
            last = sequence
            guard seen.insert(key).inserted else { continue }
            if seen.count > limit { return nil }
            changes.append(Change(key: key, oldRow: operation == "INSERT" ? nil : sequence))
        }
        return (changes, Position(sequence: last, schemaVersion: position.schemaVersion))
    }
}
