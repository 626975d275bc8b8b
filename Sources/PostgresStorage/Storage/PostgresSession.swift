import Foundation
import ModelStorage
import PostgresNIO

/// A `PostgresFeed`'s side of the server: its connections (each made when first needed,
/// and again after it is lost), and the reads of keys and pages, off the storages' threads.
/// The keys are read on a connection of their own, in a transaction; notifications, looks
/// in the log and the trigger's checks share another, which never holds one (a `LISTEN` is
/// in force as soon as it is answered; in a transaction, only at its end); drift checks
/// have a third; the pages the lists show are read on up to `rowLanes` more, which never
/// wait behind a read of every key (seconds at 10,000,000 rows).
actor PostgresSession<Record: PostgresRecordDecodable> {
    /// What a connection is for.
    enum Use: Hashable {
        /// The reads of the keys (and of the changed rows, in the same snapshot).
        case keys
        /// The notifications, the looks in the log, the checks of the trigger.
        case pages
        /// The drift checks (`checkForDrift(run:)`): a statement that may take the server a
        /// while on a large table, which must not hold up a notification (the server tells
        /// one only between statements) or a look in the log.
        case driftChecks
        /// The reads of pages the lists show: storage `n` of a feed reads on lane
        /// `n % rowLanes`.
        case rows(lane: Int)
    }

    /// The connections storages' pages are read on, at most.
    static var rowLanes: Int { 4 }

    let address: PostgresAddress
    private let environment: [String: String]
    private let logger = Logger.silent
    private var connections: [Use: PostgresConnection] = [:]
    private var connecting: [Use: Task<PostgresConnection, Error>] = [:]
    /// Whether `close` was called (every connection made is then closed).
    private var isClosed = false
    /// The query read, its columns' names once known, and the keys of the last read.
    private(set) var query: PostgresListQuery
    var columns: [String]?
    var last: (any RowPlaces<String?>)?
    var largestUpdate: Int
    /// Whether the table has the change log's trigger (the follower says): the keys are
    /// then read as runs, and each commit is read from the log and applied to them.
    var followsLog = false
    /// Where the log was last read, and how changed rows are placed among the runs.
    var logPosition: PostgresChangePosition?
    var placement: PostgresPlacement?
    /// The snapshot of the database the last read of the keys was of.
    var snapshot: PostgresSnapshot?
    /// Whether the server is a replica (a hot standby, `pg_is_in_recovery()`), as the last
    /// look at the table found: it takes no `LISTEN`.
    private(set) var isStandby = false
    /// Whether a drift check found the runs differing from the table: the next read reads
    /// every key, whatever a read of the log under way brings.
    var resyncOwed = false
    /// The notifications received so far.
    private var notificationsReceived = 0
    /// The reads of the keys under way (`readKeys`).
    private var readsUnderWay = 0
    /// Whether a read of the keys is under way.
    var isReading: Bool { readsUnderWay > 0 }
    /// The table id a look last reported as another table's (once each).
    private var replacementReported: Int64?
    /// The object id of the table the runs were read from (`readRuns`): the log is read on
    /// only while the table is that one, not one dropped and made again.
    var tableID: Int64?

    init(address: PostgresAddress, query: PostgresListQuery, environment: [String: String], largestUpdate: Int) {
        self.address = address
        self.query = query
        self.environment = environment
        self.largestUpdate = largestUpdate
    }

    /// The connection for `use`, made if there is none (or it was lost): one at a time,
    /// however many reads ask for it while it is being made.
    func connected(for use: Use) async throws(PostgresStorageError) -> PostgresConnection {
        guard !isClosed else { throw .closed }
        if let connection = connections[use], !connection.isClosed { return connection }
        if let attempt = connecting[use] { return try await Self.value(of: attempt) }
        let (address, environment, logger) = (address, environment, logger)
        let attempt = Task { try await address.connect(environment: environment, logger: logger) }
        connecting[use] = attempt
        defer { connecting[use] = nil }
        let made = try await Self.value(of: attempt)
        let lost = connections[use]
        connections[use] = made
        try? await lost?.close()
        // Closed while connecting: `close` has closed what it found, but not this one.
        if isClosed {
            try? await made.close()
            throw .closed
        }
        return made
    }

    /// The connection `attempt` made, or the error it met.
    private static func value(of attempt: Task<PostgresConnection, Error>) async throws(PostgresStorageError) -> PostgresConnection {
        try await mappingErrors { try await attempt.value }
    }

    /// Closes the connections, for good: no read makes another.
    func close() async {
        isClosed = true
        // A connection being made is closed by `connected`, which finds `isClosed` set.
        let open = connections.values
        connections = [:]
        for connection in open { try? await connection.close() }
    }

    /// Reads `query` from now on; its first read is compared with the last read (the keys
    /// shown: reads are shown in turn) when `comparable`, or reloads the list.
    func setQuery(_ query: PostgresListQuery, comparable: Bool, largestUpdate: Int) {
        if query.table != self.query.table || query.columns != self.query.columns { columns = nil }
        self.query = query
        self.largestUpdate = largestUpdate
        if !comparable { last = nil }
        // The next read reads every key of the new query.
        (logPosition, placement) = (nil, nil)
    }

    /// Says whether the table has the change log's trigger; without it, every read reads
    /// every key.
    func setFollowsLog(_ follows: Bool) {
        guard follows != followsLog else { return }
        followsLog = follows
        logPosition = nil
    }

    /// Reads what changed since the last read: from the change log when the table has its
    /// trigger and the log holds every change since (`readChanges`, with the records of the
    /// changed rows that land in a page of `held`: each storage's pages and their size),
    /// else every key, in one snapshot of the database.
    /// The first read of every key (no read before to compare with) tells `firstRows` the
    /// sections' counts and the first rows' keys first, from its snapshot.
    /// A read of the log that fails other than by a lost connection (a column renamed,
    /// retyped or dropped, a right revoked) is followed at once by a read of every key, with
    /// the order's types read again: what fails then is reported.
    func readKeys(held: [(pages: Set<Int>, size: Int)],
                  firstRows: @escaping @Sendable (KeyRead<Record, String?>) -> Void = { _ in }) async throws(PostgresStorageError) -> KeyRead<Record, String?> {
        readsUnderWay += 1
        defer { readsUnderWay -= 1 }
        if followsLog, logPosition != nil, !resyncOwed {
            do throws(PostgresStorageError) {
                if let read = try await readChanges(held: held) { return read }
            } catch where !error.isConnectionProblem {
                (logPosition, placement) = (nil, nil)
            }
        }
        let firstRows = last == nil ? firstRows : nil
        return followsLog ? try await readRuns(held: held, firstRows: firstRows) : try await readEveryKey(held: held, firstRows: firstRows)
    }

    /// Reads the sections, every key, and the records of the rows in `held` (each storage's
    /// pages, and their size), in one snapshot of the database, with the changes from the
    /// last read.
    private func readEveryKey(held: [(pages: Set<Int>, size: Int)],
                              firstRows: (@Sendable (KeyRead<Record, String?>) -> Void)?) async throws(PostgresStorageError) -> KeyRead<Record, String?> {
        let connection = try await connected(for: .keys)
        let columns = held.allSatisfy(\.pages.isEmpty) ? [] : try await columnNames()
        let (query, expected) = (query, last?.rowCount ?? 0)
        let ((list, rowsRead), snapshot) = try await mappingErrors {
            try await connection.whileOpen { connection in
                try await Self.inSnapshot(on: connection) {
                    let told = if let firstRows { try await Self.tellFirstRows(of: query, on: connection, to: firstRows) } else { nil as [(value: String?, count: Int)]? }
                    let counts = if let told { told } else { try await Self.counts(of: query, on: connection) }
                    let keys = try await Self.readKeys(of: query, on: connection, expected: expected)
                    let list = try KeyList(counts: counts, keys: keys)
                    return (list, try await Self.heldRows(held, of: list, query: query, columns: columns, on: connection))
                }
            }
        }
        self.snapshot = snapshot
        defer { last = list }
        return KeyRead(keys: list, update: last?.keyList.flatMap { list.update(from: $0, limit: largestUpdate, noSection: nil) }, pages: [:],
                       rowsRead: rowsRead)
    }

    /// Each section's value and row count (one section, of NULL, without sections).
    static func counts(of query: PostgresListQuery, on connection: PostgresConnection) async throws -> [(value: String?, count: Int)] {
        var counts: [(value: String?, count: Int)] = []
        for row in try await connection.send(query.countsQuery.query) { counts.append(try row.decode((String?, Int).self)) }
        if query.sectionBy == nil, counts.isEmpty { counts = [(nil, 0)] }
        return counts
    }

    /// Tells `firstRows` the first rows' keys (`firstKeysRead`) and the sections' counts,
    /// read in the transaction open on `connection`, when the query has a row. The counts are
    /// estimated from the server's statistics where they can be (`estimatedCounts`), so that
    /// the first rows do not wait for every row counted; else they are counted, and returned.
    static func tellFirstRows(of query: PostgresListQuery, on connection: PostgresConnection,
                              to firstRows: (KeyRead<Record, String?>) -> Void) async throws -> [(value: String?, count: Int)]? {
        var keys: [(key: Int64, section: String?)] = []
        func readKeys() async throws {
            for row in try await connection.send(query.firstKeysQuery(limit: firstKeysRead).query) { keys.append(try row.decode((Int64, String?).self)) }
        }
        if let estimates = try await estimatedCounts(of: query, on: connection) {
            try await readKeys()
            if let read = KeyRead<Record, String?>.firstRows(estimates: estimates, keys: keys, complete: keys.count < firstKeysRead) {
                firstRows(read)
                return nil
            }
        }
        let counts = try await Self.counts(of: query, on: connection)
        guard counts.contains(where: { $0.count > 0 }) else { return counts }
        if keys.isEmpty { try await readKeys() }
        if let read = KeyRead<Record, String?>.firstRows(counts: counts, keys: keys.map(\.key)) { firstRows(read) }
        return counts
    }

    /// Every key of `query`, in order. Read row by row on the connection's own thread as
    /// the rows arrive (PostgresNIO's callback form: a third less time than its row
    /// sequence, which hands each row across threads).
    private static func readKeys(of query: PostgresListQuery, on connection: PostgresConnection, expected: Int) async throws -> [Int64] {
        let collected = KeyCollector(key: query.key, capacity: expected)
        try await connection.send(query.keysQuery.query) { row in try collected.add(row) }
        return collected.keys
    }

    /// The records of the rows `keys`, read on the connection of `lane` (`Use.rows`).
    func readRows(_ keys: [Int64], lane: Int) async throws(PostgresStorageError) -> [(Int64, Record)] {
        let connection = try await connected(for: .rows(lane: lane % Self.rowLanes))
        let columns = try await columnNames()
        let query = query
        return try await mappingErrors {
            try await connection.whileOpen { connection in try await Self.rows(keys, of: query, columns: columns, on: connection) }
        }
    }

    /// The keys of the rows in `scope` whose `column` matches a type-ahead search
    /// (`PostgresListQuery.searchBy`), read on the connection of `lane` (`Use.rows`), beside
    /// the pages.
    func readMatches(of text: String, in column: String, anywhere: Bool, scope: MatchScope, lane: Int) async throws(PostgresStorageError) -> [Int64] {
        var query = query
        query.searchBy = column
        guard let sql = query.matchesQuery(of: text, anywhere: anywhere, in: scope) else { return [] }
        let connection = try await connected(for: .rows(lane: lane % Self.rowLanes))
        return try await mappingErrors {
            try await connection.whileOpen { connection in
                var keys: [Int64] = []
                for row in try await connection.send(sql.query) { keys.append(try row.decode(Int64.self)) }
                return keys
            }
        }
    }

    /// The records of the rows `keys` of `query`'s table: its key, then `columns`.
    static func rows(_ keys: [Int64], of query: PostgresListQuery, columns: [String],
                             on connection: PostgresConnection) async throws -> [(Int64, Record)] {
        var rows: [(Int64, Record)] = []
        rows.reserveCapacity(keys.count)
        for row in try await connection.send(query.rowsQuery(keys: keys, columns: columns).query) {
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

    /// The columns read: the query's, or every column of its table (read once, on the
    /// pages' connection).
    func columnNames() async throws(PostgresStorageError) -> [String] {
        if let columns = query.columns ?? columns { return columns }
        let connection = try await connected(for: .pages)
        let sql = query.columnNamesQuery
        let names = try await mappingErrors {
            try await connection.whileOpen { connection in
                var names: [String] = []
                for row in try await connection.send(sql.query) { names.append(try row.decode(String.self)) }
                return names
            }
        }
        columns = names
        return names
    }

    /// Listens on `channel`: calls `listening` once the server has answered the `LISTEN`
    /// (every commit from then on is notified), then `received` with each notification's
    /// payload, until the connection is lost (thrown) or the task is cancelled.
    func listen(on channel: String, listening: @escaping @Sendable () -> Void,
                _ received: @escaping @Sendable (String) -> Void) async throws(PostgresStorageError) {
        let connection = try await connected(for: .pages)
        try await mappingErrors {
            try await connection.whileOpen { connection in
                try await connection.listen(on: channel) { notifications in
                    listening()
                    for try await notification in notifications {
                        await self.countNotification()
                        received(notification.payload)
                    }
                }
            }
        }
    }

    /// `listen(on:listening:_:)` until the connection is lost or `table`'s trigger goes, as
    /// a `DROP TABLE` or `DROP TRIGGER` sends no notification: every `interval`, it looks
    /// in the log (`look(at:)`, throwing `unknownTable` when the table has gone), and
    /// returns false when the trigger has gone or the table was made again; true when two
    /// looks in a row find changes after the same position: notifications that did not come
    /// (a `LISTEN` through PgBouncer's transaction pooling hears nothing), which are then to
    /// be looked for in the log.
    nonisolated func listen(on channel: String, checkingTriggerOf table: String, every interval: Duration,
                            listening: @escaping @Sendable () -> Void,
                            _ received: @escaping @Sendable (String) -> Void) async throws(PostgresStorageError) -> Bool {
        try await mappingErrors {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await self.listen(on: channel, listening: listening, received)
                    return false
                }
                group.addTask {
                    // Changes after a position, and the notifications received, at the last look.
                    var pending: (position: PostgresChangePosition, notifications: Int)?
                    while true {
                        try await Task.sleep(for: interval)
                        let notifications = await self.notificationsReceived
                        switch try await self.look(at: table) {
                        case .gone: return false
                        case .nothing: pending = nil
                        case .changes(let position):
                            // Missed only when nothing was told between the looks and no
                            // read was under way (a slow read keeps the position too).
                            let reading = await self.isReading
                            if let pending, pending == (position, notifications), !reading { return true }
                            pending = (position, notifications)
                        }
                    }
                }
                // The first to end ends the other.
                let missed = try await group.next() ?? false
                group.cancelAll()
                return missed
            }
        }
    }

    /// Looks in the change log every `interval` for changes to `table` after the position
    /// of the last read, calling `changed` when there are, until the connection is lost
    /// (thrown), the task is cancelled, or the trigger goes or the table is made again
    /// (returns; `unknownTable` thrown when the table has gone). No `LISTEN`: each look is
    /// one statement, so it works through PgBouncer's transaction pooling.
    func pollLog(of table: String, every interval: Duration, changed: @escaping @Sendable () -> Void) async throws(PostgresStorageError) {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            switch try await look(at: table) {
            case .gone: return
            case .nothing: break
            case .changes: changed()
            }
        }
    }

    /// What a look in the change log finds.
    enum LogLook: Equatable {
        /// The trigger has gone, or the table was dropped and made again since the last read.
        case gone
        /// No change to the table after the last read's position (or no read yet).
        case nothing
        /// Changes to the table after the last read's position, `position`.
        case changes(after: PostgresChangePosition)
    }

    /// Counts a notification received.
    private func countNotification() { notificationsReceived += 1 }

    /// One statement: whether `table` has the change trigger and is the table the last
    /// read was of, and whether the log has changes to it after that read's position.
    /// - Throws: `unknownTable` when the table has gone; the connection's errors.
    func look(at table: String) async throws(PostgresStorageError) -> LogLook {
        let (position, readFrom) = (logPosition, tableID)
        let (present, found, changed) = try await lookRow(table: table, after: position)
        if !present { return .gone }
        // A table made again since the last read needs a read (it may have been made
        // without a commit to tell it): said once, not at each look until a read succeeds.
        if let readFrom, readFrom != found, replacementReported != found {
            replacementReported = found
            return .gone
        }
        return changed ? position.map { .changes(after: $0) } ?? .nothing : .nothing
    }

    /// Whether `table` has the change trigger (`PostgresChangeLog`); notes whether the
    /// server is a replica (`isStandby`).
    /// - Throws: `unknownTable` when the table has gone; the connection's errors.
    func hasChangeTrigger(table: String) async throws(PostgresStorageError) -> Bool {
        try await lookRow(table: table, after: nil).present
    }

    /// The look's statement (`PostgresChangeLog.lookQuery`) on the pages' connection:
    /// whether `table` has the trigger, its object id, and whether the log has changes to
    /// it after `position`; notes whether the server is a replica (`isStandby`).
    private func lookRow(table: String, after position: PostgresChangePosition?) async throws(PostgresStorageError)
        -> (present: Bool, tableID: Int64, changed: Bool) {
        let connection = try await connected(for: .pages)
        let sql = PostgresChangeLog.lookQuery(table: table, after: position)
        let (present, found, changed, standby) = try await mappingErrors {
            try await connection.whileOpen { connection in
                for row in try await connection.send(sql.query) { return try row.decode((Bool, Int64, Bool, Bool).self) }
                return (false, 0, false, false)
            }
        }
        isStandby = standby
        return (present, found, changed)
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
            throw PostgresStorageError.server(message: tr("a row's key (column %@) is NULL", key), sqlState: "22004")
        }
        keys.append(value)
    }
}
