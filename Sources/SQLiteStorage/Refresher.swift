import Foundation
import GRDB

/// The fetching machinery, shared with GRDB's and the timer's threads: coalesces change
/// signals into fetches run one at a time on a serial queue, and polls `data_version`.
final class Refresher<Record: Sendable>: @unchecked Sendable {
    private let database: any DatabaseWriter
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let coalescingDelay: DispatchTimeInterval
    private let pollInterval: DispatchTimeInterval?
    /// A read-only connection of its own: `PRAGMA data_version` changes on it when any
    /// other connection (the storage's `database` included) commits to the file.
    private let pollConnection: DatabaseQueue?
    private let queue = DispatchQueue(label: "SQLiteStorage.fetch")
    private let lock = NSLock()
    // Guarded by `lock`.
    private var fetch: @Sendable (Database) throws -> [Record]
    /// Counts `replaceFetch` calls: a result fetched with an earlier closure is dropped.
    private var fetchGeneration = 0
    private var fetchPending = false
    private var dirty = false
    private var stopped = false
    private var timer: DispatchSourceTimer?
    // Used on `queue` only.
    private var lastDataVersion: Int?

    /// Receives each fetch's result, where `schedule` runs blocks. Set once, before any signal.
    var deliver: (@Sendable (Result<[Record], Error>) -> Void)?

    init(database: any DatabaseWriter, fetch: @escaping @Sendable (Database) throws -> [Record],
         pollInterval: Duration?, coalescingDelay: Duration,
         schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) throws {
        self.database = database
        self.fetch = fetch
        self.schedule = schedule
        self.coalescingDelay = .nanoseconds(Int(coalescingDelay.nanoseconds))
        if let pollInterval {
            self.pollInterval = .nanoseconds(max(1, Int(pollInterval.nanoseconds)))
            var configuration = Configuration()
            configuration.readonly = true
            configuration.label = "SQLiteStorage.poll"
            configuration.busyMode = .timeout(1)
            let connection = try DatabaseQueue(path: database.path, configuration: configuration)
            pollConnection = connection
            lastDataVersion = try connection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        } else {
            self.pollInterval = nil
            pollConnection = nil
        }
    }

    func startPolling() {
        guard let pollInterval, pollConnection != nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + pollInterval, repeating: pollInterval, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.poll() }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    func stop() {
        let timer = lock.withLock {
            stopped = true
            // A fetch under way is not applied after the storage stopped observing.
            fetchGeneration += 1
            defer { self.timer = nil }
            return self.timer
        }
        timer?.cancel()
    }

    /// Runs on `queue`: a cheap read of `data_version`; a change means another
    /// connection committed.
    private func poll() {
        guard let pollConnection else { return }
        let version = try? pollConnection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        guard let version, version != lastDataVersion else { return }
        lastDataVersion = version
        signal()
    }

    /// The database may have changed: fetch after `coalescingDelay`, or once more after
    /// the fetch already waiting or running.
    func signal() {
        let start = lock.withLock { () -> Bool in
            if stopped { return false }
            if fetchPending { dirty = true; return false }
            fetchPending = true
            return true
        }
        if start { queue.asyncAfter(deadline: .now() + coalescingDelay) { [weak self] in self?.runFetch() } }
    }

    /// Fetches with `fetch` from now on. Results of fetches made with the previous closure
    /// that are not yet delivered are dropped; call it where `schedule` runs blocks.
    func replaceFetch(_ fetch: @escaping @Sendable (Database) throws -> [Record]) {
        lock.withLock {
            self.fetch = fetch
            fetchGeneration += 1
        }
    }

    private func runFetch() {
        let (fetch, generation) = lock.withLock { () -> (@Sendable (Database) throws -> [Record], Int) in
            dirty = false
            return (self.fetch, fetchGeneration)
        }
        let result = Result { try database.read { db in try fetch(db) } }
        if let deliver {
            schedule { [weak self] in
                // Checked where results are applied, so none can arrive after a replacement.
                guard let self, lock.withLock({ fetchGeneration == generation }) else { return }
                deliver(result)
            }
        }
        let again = lock.withLock { () -> Bool in
            if dirty && !stopped { dirty = false; return true }
            fetchPending = false
            return false
        }
        if again { queue.asyncAfter(deadline: .now() + coalescingDelay) { [weak self] in self?.runFetch() } }
    }
}

extension Duration {
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
