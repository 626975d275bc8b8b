import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport
import Synchronization

/// `--pgbench SCALE CLIENTS SECONDS [RATE]`: a storage following a table under a standard write
/// load that no one here wrote. `pgbench -i -s SCALE` makes `pgbench_accounts` (100,000 rows
/// a unit of scale), the change log's trigger is put on it, and a `PostgresQueryStorage`
/// follows it (sections by `bid`, rows in `aid` order, its first page held). Then `pgbench`
/// runs its TPC-B-like load with CLIENTS clients for SECONDS seconds (RATE transactions a
/// second at most, when given: pgbench's `-R`) while another
/// connection stamps the first row (`filler`) ten times a second; each stamp is timed from
/// just before its statement is sent to the main loop's first sight of it in the storage's
/// held row. Reports the stamps' median and 99th percentile, the load's commits a second, the
/// process's CPU time per commit, the reads of every key after opening, and whether the
/// storage ends equal to the table (each section's count and sum of keys, and the held rows'
/// balances), checked once the storage reflects a last transaction.
enum PostgresLoadScenario {
    @MainActor
    static func run(scale: Int, clients: Int, seconds: Int, rate: Int? = nil) -> Measurement? {
        let name = "postgres_pgbench_s\(scale)_c\(clients)" + (rate.map { "_r\($0)" } ?? "")
        let server: PostgresTestServer
        do {
            server = try PostgresTestServer()
            try server.pgbench(["-i", "-q", "-s", String(scale)])
            try server.psql(PostgresChangeLog.installSQL(table: "pgbench_accounts", key: "aid").joined(separator: ";\n"))
            try server.psql("VACUUM ANALYZE pgbench_accounts")
        } catch {
            writeToStandardError("list-benchmarks: no PostgreSQL server with pgbench's tables for \(name): \(error)")
            return nil
        }
        defer { server.stop() }
        let environment = ["PGPASSWORD": PostgresTestServer.ownerPassword, "PGPASSFILE": "/nonexistent"]
        let storage = PostgresQueryStorage<PostgresRecord>(
            address: server.address(),
            query: PostgresListQuery(table: "pgbench_accounts", columns: ["abalance", "filler"], key: "aid", sectionBy: "bid"),
            environment: environment)
        var errors: [String] = []
        storage.onError = { errors.append("\($0)") }
        let first = IndexPath(item: 0, section: 0)
        guard runMainLoop(until: { storage.state == .live && storage.isLoaded }) else {
            writeToStandardError("list-benchmarks: \(name): the storage did not open: \(errors)")
            return nil
        }
        _ = storage.item(at: first)
        guard runMainLoop(until: { storage.record(at: first) != nil }) else { return nil }
        let readsBefore = storage.keyReadCount

        // The load, on a thread of its own.
        let load = Mutex<String?>(nil)
        DispatchQueue.global().async {
            // At RATE transactions a second at most (pgbench's -R), when given.
            let limit = rate.map { ["-R", String($0)] } ?? []
            let output = (try? server.pgbench(["-n", "-c", String(clients), "-j", "2"] + limit + ["-T", String(seconds)])) ?? "pgbench failed"
            load.withLock { $0 = output }
        }
        let stamper = PostgresLatencyScenario.Writer(address: server.address(), environment: environment)
        var sent: [ContinuousClock.Instant] = []
        var seen: [ContinuousClock.Instant?] = []
        /// When each stamp's commit was answered.
        var committed: [ContinuousClock.Instant?] = []
        var nextStamp = ContinuousClock.now
        let cpuBefore = cpuMilliseconds()
        while load.withLock({ $0 == nil }) {
            RunLoop.main.run(until: Date().addingTimeInterval(0.0005))
            // The newest stamp shown covers every one before it.
            if let shown = storage.record(at: first)?["filler"]?.trimmingCharacters(in: .whitespaces),
               shown.hasPrefix("stamp "), let stamp = Int(shown.dropFirst(6)), stamp < seen.count {
                let now = ContinuousClock.now
                for earlier in 0...stamp where seen[earlier] == nil { seen[earlier] = now }
            }
            if stamper.isIdle, let last = committed.indices.last, committed[last] == nil { committed[last] = stamper.lastFinished }
            if ContinuousClock.now >= nextStamp, stamper.isIdle {
                nextStamp = ContinuousClock.now + .milliseconds(100)
                sent.append(.now)
                seen.append(nil)
                committed.append(nil)
                stamper.run(["UPDATE pgbench_accounts SET filler = 'stamp \(sent.count - 1)' WHERE aid = 1"])
            }
        }
        let cpu = (cpuMilliseconds() - cpuBefore) / 1000
        let output = load.withLock { $0 } ?? ""

        // A last transaction: once the rows reflect it, they are compared with the table.
        var reflected: Bool?
        if let id = try? server.psql("BEGIN; UPDATE pgbench_accounts SET filler = 'last' WHERE aid = 1; SELECT pg_current_xact_id(); COMMIT;")
            .split(separator: "\n").compactMap({ Int64($0) }).first {
            storage.onceReflecting(transaction: id) { reflected = $0 }
        }
        _ = runMainLoop(until: { reflected != nil }, seconds: 120)
        stamper.close()
        let equal = reflected == true && isEqualToTheTable(storage, server: server)
        let latencies = zip(sent, seen).compactMap { sent, seen in seen.map { milliseconds(of: $0 - sent) } }.sorted()
        // From the commit answered, not the statement sent: what the storage adds.
        let afterCommit = zip(committed, seen).compactMap { committed, seen in
            committed.flatMap { committed in seen.map { max(0, milliseconds(of: $0 - committed)) } }
        }.sorted()
        func percentile(_ p: Double, of latencies: [Double]) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)]
        }
        let tps = output.split(separator: "\n").first { $0.hasPrefix("tps = ") }
            .flatMap { Double($0.dropFirst(6).prefix { $0 != " " }) } ?? 0
        let commits = tps * Double(seconds)
        // pgbench's own mean time a transaction: the server's state under the load.
        let pgbenchLatency = output.split(separator: "\n").first { $0.hasPrefix("latency average = ") }
            .flatMap { Double($0.dropFirst(18).prefix { $0 != " " }) } ?? .nan
        if !errors.isEmpty { writeToStandardError("list-benchmarks: \(name): \(errors)") }
        storage.close()
        return Measurement(scenario: name, n: scale * 100_000, wallMilliseconds: percentile(0.5, of: latencies), extra: [
            ("clients", Double(clients)),
            ("seconds", Double(seconds)),
            ("load_tps", tps),
            ("stamps", Double(sent.count)),
            ("stamps_seen", Double(latencies.count)),
            ("median_ms", percentile(0.5, of: latencies)),
            ("p99_ms", percentile(0.99, of: latencies)),
            ("max_ms", latencies.last ?? .nan),
            ("after_commit_median_ms", percentile(0.5, of: afterCommit)),
            ("after_commit_p99_ms", percentile(0.99, of: afterCommit)),
            ("after_commit_max_ms", afterCommit.last ?? .nan),
            ("pgbench_latency_ms", pgbenchLatency),
            ("cpu_s", cpu),
            ("cpu_ms_per_commit", commits > 0 ? cpu * 1000 / commits : .nan),
            ("key_reads", Double(storage.keyReadCount - readsBefore)),
            ("equal", equal ? 1 : 0),
        ])
    }

    /// Whether the storage's sections have the table's counts and sums of keys, and its held
    /// rows the table's balances.
    @MainActor
    private static func isEqualToTheTable(_ storage: PostgresQueryStorage<PostgresRecord>, server: PostgresTestServer) -> Bool {
        guard let table = try? server.psql("SELECT count(*) || ' ' || sum(aid) FROM pgbench_accounts GROUP BY bid ORDER BY bid") else { return false }
        var shown: [String] = []
        var held: [(Int64, String)] = []
        for section in 0..<storage.numberOfSections() {
            var sum: Int64 = 0
            let count = storage.numberOfItems(inSection: section)
            for item in 0..<count {
                let place = IndexPath(item: item, section: section)
                guard let key = storage.key(at: place) else { return false }
                sum += key
                if let balance = storage.record(at: place)?["abalance"] { held.append((key, balance)) }
            }
            shown.append("\(count) \(sum)")
        }
        guard shown == table.split(separator: "\n").map(String.init), !held.isEmpty else { return false }
        let keys = held.map { String($0.0) }.joined(separator: ",")
        let balances = (try? server.psql("SELECT string_agg(abalance::text, ',' ORDER BY aid) FROM pgbench_accounts WHERE aid IN (\(keys))")) ?? ""
        return balances == held.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ",")
    }
}
