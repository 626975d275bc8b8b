import Foundation
import ModelStorage
import PostgresNIO

/// A `PostgresQueryStorage`'s side of the server: its connection (made when first needed,
/// and again after it is lost), and the reads of keys and pages, off the storage's thread.
actor PostgresSession<Record: PostgresRecordDecodable> {
    let address: PostgresAddress
    private let environment: [String: String]
    private let logger = Logger.silent
    private var connection: PostgresConnection?
    private var connecting: Task<PostgresConnection, Error>?
    /// The query read, its columns' names once known, and the keys of the last read.
    private var query: PostgresListQuery
    private var columns: [String]?
    private var last: KeyList<String?>?
    private var largestUpdate: Int

    init(address: PostgresAddress, query: PostgresListQuery, environment: [String: String], largestUpdate: Int) {
        self.address = address
        self.query = query
        self.environment = environment
        self.largestUpdate = largestUpdate
    }

    /// The connection, made if there is none (or it was lost): one connection at a time,
    /// however many reads ask for it while it is being made.
    func connected() async throws(PostgresStorageError) -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if let connecting { return try await Self.value(of: connecting) }
        let (address, environment, logger) = (address, environment, logger)
        let attempt = Task { try await address.connect(environment: environment, logger: logger) }
        connecting = attempt
        defer { connecting = nil }
        let made = try await Self.value(of: attempt)
        if let lost = connection { try? await lost.close() }
        connection = made
        return made
    }

    /// Throws when the connection is lost (and cannot be made again).
    func checkConnection() async throws(PostgresStorageError) {
        _ = try await connected()
    }

    /// The connection `attempt` made, or the error it met.
    private static func value(of attempt: Task<PostgresConnection, Error>) async throws(PostgresStorageError) -> PostgresConnection {
        try await mappingErrors { try await attempt.value }
    }

    /// Closes the connection.
    func close() async {
        let connection = try? await connecting?.value ?? self.connection
        try? await connection?.close()
        self.connection = nil
    }

    /// Reads `query` from now on; its first read is compared with the last read (the keys
    /// shown: reads are shown in turn) when `comparable`, or reloads the list.
    func setQuery(_ query: PostgresListQuery, comparable: Bool, largestUpdate: Int) {
        if query.table != self.query.table || query.columns != self.query.columns { columns = nil }
        self.query = query
        self.largestUpdate = largestUpdate
        if !comparable { last = nil }
    }

    /// Reads the sections, every key, and the rows of `heldPages` (of `pageSize` rows), in
    /// one snapshot of the database, with the changes from the last read.
    func readKeys(heldPages: Set<Int>, pageSize: Int) async throws(PostgresStorageError) -> KeyRead<Record, String?> {
        let connection = try await connected()
        return try await mappingErrors {
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                var counts: [(value: String?, count: Int)] = []
                for try await (value, count) in try await run(query.countsQuery, on: connection).decode((String?, Int).self) {
                    counts.append((value, count))
                }
                if query.sectionBy == nil, counts.isEmpty { counts = [(nil, 0)] }
                let keys = try await readKeys(on: connection, expected: last?.keys.count ?? 0)
                let list = try KeyList(counts: counts, keys: keys)
                var pages: [Int: [(Int64, Record)]] = [:]
                if last != nil {
                    for page in heldPages where page * pageSize < keys.count {
                        pages[page] = try await rows(Array(keys[(page * pageSize)..<min((page + 1) * pageSize, keys.count)]), on: connection)
                    }
                }
                try await connection.query("COMMIT", logger: logger)
                defer { last = list }
                return KeyRead(keys: list, update: last.flatMap { list.update(from: $0, limit: largestUpdate, noSection: nil) }, pages: pages)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Every key of the query, in order. Read row by row on the connection's own thread
    /// as the rows arrive (PostgresNIO's callback form: a third less time than its row
    /// sequence, which hands each row across threads).
    private func readKeys(on connection: PostgresConnection, expected: Int) async throws -> [Int64] {
        let collected = KeyCollector(key: query.key, capacity: expected)
        _ = try await connection.query(query.keysQuery.query, logger: logger) { row in try collected.add(row) }.get()
        return collected.keys
    }

    /// The records of the rows `keys`.
    func readRows(_ keys: [Int64]) async throws(PostgresStorageError) -> [(Int64, Record)] {
        let connection = try await connected()
        return try await mappingErrors { try await rows(keys, on: connection) }
    }

    private func rows(_ keys: [Int64], on connection: PostgresConnection) async throws -> [(Int64, Record)] {
        let columns = try await columnNames(on: connection)
        var rows: [(Int64, Record)] = []
        rows.reserveCapacity(keys.count)
        for try await row in try await run(query.rowsQuery(keys: keys, columns: columns), on: connection) {
            var cells = row.makeIterator()
            guard let keyCell = cells.next() else { continue }
            let key = try keyCell.decode(Int64.self)
            var values: [String?] = []
            values.reserveCapacity(columns.count)
            while let cell = cells.next() { values.append(try cell.decode(String?.self)) }
            rows.append((key, try Record(key: key, columns: columns, values: values)))
        }
        return rows
    }

    /// The columns read: the query's, or every column of its table (read once).
    private func columnNames(on connection: PostgresConnection) async throws -> [String] {
        if let columns = query.columns ?? columns { return columns }
        var names: [String] = []
        for try await name in try await run(query.columnNamesQuery, on: connection).decode(String.self) { names.append(name) }
        columns = names
        return names
    }

    private func run(_ sql: PostgresListQuery.SQL, on connection: PostgresConnection) async throws -> PostgresRowSequence {
        try await connection.query(sql.query, logger: logger)
    }

    /// Waits for notifications on `channel`, calling `received` with each one's payload,
    /// until the connection is lost (thrown) or the task is cancelled.
    func listen(on channel: String, _ received: @Sendable (String) -> Void) async throws(PostgresStorageError) {
        let connection = try await connected()
        try await mappingErrors {
            try await connection.listen(on: channel) { notifications in
                for try await notification in notifications { received(notification.payload) }
            }
        }
    }

    /// Whether the query's table has the change trigger (`PostgresChangeNotifications`).
    func hasChangeTrigger() async throws(PostgresStorageError) -> Bool {
        let connection = try await connected()
        return try await mappingErrors {
            let sql = PostgresChangeNotifications.triggerPresentQuery(table: query.table)
            for try await present in try await run(sql, on: connection).decode(Bool.self) { return present }
            return false
        }
    }
}

/// The keys of a read, gathered on the connection's event loop as its rows arrive, and
/// read once the query has ended (the future's completion orders the two).
private final class KeyCollector: @unchecked Sendable {
    private(set) var keys: [Int64] = []
    private let key: String

    init(key: String, capacity: Int) {
        self.key = key
        keys.reserveCapacity(capacity)
    }

    /// Adds the key of `row` (one `int8` column, in binary: 8 bytes, big-endian).
    func add(_ row: PostgresRow) throws {
        var cells = row.makeIterator()
        guard var bytes = cells.next()?.bytes, let value = bytes.readInteger(as: Int64.self) else {
            throw PostgresStorageError.server(message: "a row's key (column \(key)) is NULL", sqlState: "22004")
        }
        keys.append(value)
    }
}
