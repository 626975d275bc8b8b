import Foundation
import PostgresNIO

/// A table as the server describes it: its columns, their types, and the integer column
/// that tells its rows apart. What an app needs to show a table it does not know in
/// advance (a viewer), before it makes a `PostgresListQuery` of it.
///
/// ```swift
/// let connection = try await address.connect()
/// let table = try await PostgresTable.read("book", connection: connection)
/// guard let key = table.integerKey else { … }   // a table the storage cannot follow
/// ```
public struct PostgresTable: Sendable, Equatable {
    /// A column and its type.
    public struct Column: Sendable, Equatable {
        /// The column's name.
        public let name: String
        /// Its type as PostgreSQL writes it (`text`, `integer`, `character varying(40)`).
        public let type: String

        /// A column named `name` of type `type`.
        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }

        /// Whether the column holds text (`text`, `character varying`, `character`, `name`,
        /// `citext`): a row's title, say.
        public var holdsText: Bool {
            ["text", "name", "citext"].contains(type) || type.hasPrefix("character")
        }
    }

    /// The table's name.
    public let name: String
    /// Its columns, in the table's order.
    public let columns: [Column]
    /// The column that tells rows apart, for `PostgresListQuery.key`: the primary key when
    /// it is one integer column, else the first integer column that is unique on its own
    /// and never NULL; nil when there is none.
    public let integerKey: String?

    /// A table as given; ``read(_:connection:)`` reads one from the server instead.
    public init(name: String, columns: [Column], integerKey: String?) {
        self.name = name
        self.columns = columns
        self.integerKey = integerKey
    }

    /// Reads the table `name` (spelled as the server spells it, as every identifier here is
    /// quoted) through `connection`.
    /// - Throws: `PostgresStorageError.unknownTable` when the database has no such table.
    public static func read(_ name: String, connection: PostgresConnection) async throws(PostgresStorageError) -> PostgresTable {
        try await mappingErrors {
            var columns: [Column] = []
            var primaryKey: String?
            var uniqueKeys: [String] = []
            let integers: Set = ["smallint", "integer", "bigint"]
            for row in try await connection.send(columnsQuery(of: name)) {
                let (column, type, isPrimaryKey, isUniqueAndNotNull) = try row.decode((String, String, Bool, Bool).self)
                columns.append(Column(name: column, type: type))
                guard integers.contains(type) else { continue }
                if isPrimaryKey { primaryKey = column }
                if isUniqueAndNotNull { uniqueKeys.append(column) }
            }
            return PostgresTable(name: name, columns: columns, integerKey: primaryKey ?? uniqueKeys.first)
        }
    }

    /// Connects to `address` and reads the table `name` of its current schema (the first
    /// on its `search_path`, `public` by default), or its only table when `name` is nil.
    /// - Parameters:
    ///   - name: the table's name, or nil for the schema's only table.
    ///   - address: the server, database and user.
    ///   - environment: where `PGPASSWORD` and `PGPASSFILE` are looked up.
    /// - Throws: `PostgresStorageError.unknownTable` (naming the tables there) when the
    ///   schema has no table `name`, or several and `name` is nil; the connection's errors.
    public static func read(_ name: String?, at address: PostgresAddress,
                            environment: [String: String] = ProcessInfo.processInfo.environment) async throws(PostgresStorageError) -> PostgresTable {
        let connection = try await address.connect(environment: environment)
        do {
            let table = try await read(try await tableName(name, connection: connection, database: address.database), connection: connection)
            try? await connection.close()
            return table
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// `name` if the connection's current schema has that table, or its only table when
    /// `name` is nil.
    private static func tableName(_ name: String?, connection: PostgresConnection, database: String) async throws(PostgresStorageError) -> String {
        let names = try await names(connection: connection)
        let list = names.joined(separator: ", ")
        if let name {
            guard names.contains(name) else {
                throw .unknownTable(names.isEmpty ? tr("database %@ has no table %@; it has no tables", database, name)
                                                  : tr("database %@ has no table %@; tables: %@", database, name, list))
            }
            return name
        }
        guard names.count == 1 else {
            throw .unknownTable(names.isEmpty ? tr("database %@ has no tables", database)
                                              : tr("database %@ has several tables, and none was named; tables: %@", database, list))
        }
        return names[0]
    }

    /// The names of the tables of the connection's current schema (the first on its
    /// `search_path`, `public` by default), in order.
    public static func names(connection: PostgresConnection) async throws(PostgresStorageError) -> [String] {
        try await mappingErrors {
            var names: [String] = []
            let rows = try await connection.send("""
                SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY 1
                """)
            for row in rows { names.append(try row.decode(String.self)) }
            return names
        }
    }

    /// Each column's name, type, whether it alone is the primary key, and whether it is
    /// unique on its own (a unique index of it alone, not partial) and never NULL.
    private static func columnsQuery(of table: String) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(table.quotedIdentifier)
        return PostgresQuery(unsafeSQL: """
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod),
                   EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND i.indnatts = 1 AND i.indkey[0] = a.attnum),
                   a.attnotnull AND EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisunique AND i.indnatts = 1
                                            AND i.indkey[0] = a.attnum AND i.indpred IS NULL)
            FROM pg_attribute a WHERE a.attrelid = $1::text::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
            """, binds: bindings)
    }
}
