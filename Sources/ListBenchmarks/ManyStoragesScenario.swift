import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport

/// `--many-storages STORAGES SECONDS ROWS`: STORAGES storages in this one process following
/// one table of ROWS rows through PgBouncer (transaction pooling, 20 server sessions at most
/// each), half reading the primary and half a streaming replica, while one connection writes
/// to the primary about 100 commits a second for SECONDS seconds: a new title for a random
/// row (a move), a row deleted and another inserted, and ten times a second a stamp in the
/// first row's note. Each storage holds its first page and looks in the log every 100 ms
/// (`WakeUp.pollLog`); no drift check. Each stamp is timed, for every storage, from just
/// before its statement is sent to the main loop's first sight of it in the storage's held
/// row. Reports the stamps' median and 99th percentile across all storages, the most server
/// sessions seen on the primary and on the replica (sampled every second), the process's CPU
/// time, the reads of every key after opening, and how many storages end equal to the table
/// (every key in order, and the first page's titles) once each reflects a last commit.
enum ManyStoragesScenario {
    @MainActor
    static func run(storages count: Int, seconds: Int, rows: Int) -> Measurement? {
        let name = "postgres_many_storages"
        raiseOpenFileLimit()
        let primary: PostgresTestServer, replica: PostgresTestServer
        let bouncers: [PgBouncerTestServer]
        do {
            primary = try PostgresTestServer()
            try primary.psql("""
                CREATE TABLE book (id bigint PRIMARY KEY, title text NOT NULL, note text NOT NULL DEFAULT '');
                INSERT INTO book (id, title) SELECT i, 'book ' || lpad(i::text, 9, '0') FROM generate_series(1, \(rows)) i;
                CREATE INDEX book_title ON book (title, id);
                """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
            try primary.psql("VACUUM ANALYZE book")
            replica = try PostgresTestServer(replicaOf: primary)
            bouncers = try [primary, replica].map { try PgBouncerTestServer(for: $0, poolSize: 20, maximumClients: 2 * count + 100) }
        } catch {
            writeToStandardError("list-benchmarks: no servers for \(name): \(error)")
            return nil
        }
        defer {
            bouncers.forEach { $0.stop() }
            replica.stop()
            primary.stop()
        }
        let environment = ["PGPASSWORD": PostgresTestServer.ownerPassword, "PGPASSFILE": "/nonexistent"]
        let query = PostgresListQuery(table: "book", columns: ["title", "note"], orderBy: [.init("title")])
        let storages = (0..<count).map { index in
            PostgresQueryStorage<PostgresRecord>(address: bouncers[index % 2].address(), query: query, environment: environment,
                                                 wakeUp: .pollLog(every: .milliseconds(100)), driftCheckInterval: nil)
        }
        var errors: [String] = []
        for storage in storages { storage.onError = { errors.append("\($0)") } }
        let first = IndexPath(item: 0, section: 0)
        let opening = ContinuousClock.now
        guard runMainLoop(until: { storages.allSatisfy { $0.state == .live && $0.isLoaded } }, seconds: 600) else {
            writeToStandardError("list-benchmarks: \(name): the storages did not open: \(errors.prefix(3))")
            return nil
        }
        storages.forEach { _ = $0.item(at: first) }
        guard runMainLoop(until: { storages.allSatisfy { $0.record(at: first) != nil } }, seconds: 600) else { return nil }
        let openSeconds = milliseconds(of: ContinuousClock.now - opening) / 1000
        writeToStandardError("list-benchmarks: \(name): \(count) storages open in \(openSeconds) s; writing for \(seconds) s")
        let readsBefore = storages.map(\.keyReadCount).reduce(0, +)

        let writer = PostgresLatencyScenario.Writer(address: primary.address(), environment: environment)
        var sent: [ContinuousClock.Instant] = []
        // For each stamp, the storages that have shown it and when.
        var seen: [[ContinuousClock.Instant?]] = []
        var latest = Array(repeating: -1, count: count)
        var nextCommit = ContinuousClock.now, nextSample = ContinuousClock.now
        var commits = 0, nextKey = rows + 1
        var sessions = (primary: 0, replica: 0)
        var generator = SystemRandomNumberGenerator()
        let cpuBefore = cpuMilliseconds()
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            RunLoop.main.run(until: Date().addingTimeInterval(0.0005))
            let now = ContinuousClock.now
            for (index, storage) in storages.enumerated() {
                guard let note = storage.record(at: first)?["note"], note.hasPrefix("stamp "), let stamp = Int(note.dropFirst(6)),
                      stamp > latest[index], stamp < seen.count else { continue }
                for earlier in (latest[index] + 1)...stamp { seen[earlier][index] = now }
                latest[index] = stamp
            }
            if now >= nextCommit, writer.isIdle {
                nextCommit = max(nextCommit + .milliseconds(10), now - .milliseconds(100))
                commits += 1
                if commits % 10 == 0 {
                    sent.append(.now)
                    seen.append(Array(repeating: nil, count: count))
                    writer.run(["UPDATE book SET note = 'stamp \(sent.count - 1)' WHERE id = 1"])
                } else if commits % 2 == 0 {
                    let key = Int.random(in: 2...rows, using: &generator)
                    writer.run(["UPDATE book SET title = 'book \(String(format: "%09d", Int.random(in: 2...rows, using: &generator))) moved' WHERE id = \(key)"])
                } else {
                    nextKey += 1
                    writer.run(["DELETE FROM book WHERE id = \(Int.random(in: 2...rows, using: &generator))",
                                "INSERT INTO book (id, title) VALUES (\(nextKey), 'book \(String(format: "%09d", Int.random(in: 2...rows, using: &generator))) new')"])
                }
            }
            if now >= nextSample {
                nextSample = now + .seconds(1)
                sessions.primary = max(sessions.primary, serverSessions(on: primary))
                sessions.replica = max(sessions.replica, serverSessions(on: replica))
            }
        }
        let cpu = (cpuMilliseconds() - cpuBefore) / 1000
        _ = runMainLoop(until: { writer.isIdle }, seconds: 30)
        writer.close()

        writeToStandardError("list-benchmarks: \(name): \(commits) commits; waiting for every storage to reflect a last one")
        // A last commit: once every storage reflects it, each is compared with the table.
        var reflected = 0
        if (try? primary.psql("UPDATE book SET note = 'last' WHERE id = 1")) != nil,
           let lsn = (try? primary.psql("SELECT pg_current_wal_insert_lsn()::text")).flatMap(PostgresLSN.init) {
            for storage in storages { storage.onceReflecting(lsn: lsn) { if $0 { reflected += 1 } } }
        }
        _ = runMainLoop(until: { reflected == count }, seconds: 300)
        let tableKeys = ((try? primary.psql("SELECT id FROM book ORDER BY title, id")) ?? "").split(separator: "\n").compactMap { Int64($0) }
        let firstTitles = ((try? primary.psql("SELECT title FROM book ORDER BY title, id LIMIT 100")) ?? "").split(separator: "\n").map(String.init)
        let equal = storages.filter { storage in
            storage.numberOfItems(inSection: 0) == tableKeys.count
                && tableKeys.indices.allSatisfy { storage.key(at: IndexPath(item: $0, section: 0)) == tableKeys[$0] }
                && firstTitles.indices.allSatisfy { position in
                    storage.record(at: IndexPath(item: position, section: 0)).map { $0["title"] == firstTitles[position] } ?? true
                }
        }.count
        let latencies = zip(sent, seen).flatMap { sent, seen in seen.compactMap { $0.map { milliseconds(of: $0 - sent) } } }.sorted()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)]
        }
        if !errors.isEmpty { writeToStandardError("list-benchmarks: \(name): \(errors.count) errors, such as \(errors.prefix(3))") }
        let keyReads = storages.map(\.keyReadCount).reduce(0, +) - readsBefore
        storages.forEach { $0.close() }
        return Measurement(scenario: name, n: rows, wallMilliseconds: percentile(0.5), extra: [
            ("storages", Double(count)),
            ("seconds", Double(seconds)),
            ("open_s", openSeconds),
            ("commits_per_s", Double(commits) / Double(seconds)),
            ("stamps", Double(sent.count)),
            ("stamp_sightings", Double(latencies.count)),
            ("median_ms", percentile(0.5)),
            ("p99_ms", percentile(0.99)),
            ("max_ms", latencies.last ?? .nan),
            ("primary_sessions_max", Double(sessions.primary)),
            ("replica_sessions_max", Double(sessions.replica)),
            ("cpu_s", cpu),
            ("key_reads", Double(keyReads)),
            ("reflected", Double(reflected)),
            ("equal", Double(equal)),
        ])
    }

    /// The client sessions on `server` other than `psql`'s own.
    private static func serverSessions(on server: PostgresTestServer) -> Int {
        Int((try? server.psql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")) ?? "") ?? 0
    }

    /// Lets this process (and the PgBouncers it starts) hold a socket per connection.
    private static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}
