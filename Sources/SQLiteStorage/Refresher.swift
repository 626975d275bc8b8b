import Foundation
import GRDB
import GRDBSQLite

/// The fetching machinery, shared with GRDB's and the timer's threads: coalesces change
/// signals into fetches run one at a time on a serial queue, and polls `data_version` and
/// whether the database's path still names the file polled.
final class Refresher<Value: Sendable>: @unchecked Sendable {
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let coalescingDelay: DispatchTimeInterval
    private let pollInterval: DispatchTimeInterval?
    /// A read-only connection of its own: `PRAGMA data_version` changes on it when any
    /// other connection (the storage's `database` included) commits to the file. Used on
    /// `queue` only, after `connectNow()`; nil once another file has the path, until
    /// `replaceDatabase`.
    private var pollConnection: DatabaseQueue?
    private let queue = DispatchQueue(label: "SQLiteStorage.fetch")
    private let lock = NSLock()
    // Guarded by `lock`.
    private var database: any DatabaseWriter
    private var fetch: @Sendable (Database) throws -> Value
    /// Counts `replaceFetch` calls: a result fetched with an earlier closure is dropped.
    private var fetchGeneration = 0
    private var fetchPending = false
    private var dirty = false
    private var stopped = false
    private var timer: DispatchSourceTimer?
    /// Looks at once when a program writes the database's files (nil where inotify is not).
    private var watch: FileWatch?
    // Used on `queue` only.
    private var lastDataVersion: Int?

    /// Receives each fetch's result, where `schedule` runs blocks. Set once, before any signal.
    var deliver: (@Sendable (Result<Value, Error>) -> Void)?

    /// A refresher that opens its polling connection when polling starts, off the calling
    /// thread (`connectNow()` opens it at once).
    init(database: any DatabaseWriter, fetch: @escaping @Sendable (Database) throws -> Value,
         pollInterval: Duration?, coalescingDelay: Duration,
         schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.database = database
        self.fetch = fetch
        self.schedule = schedule
        self.coalescingDelay = .nanoseconds(Int(coalescingDelay.nanoseconds))
        self.pollInterval = pollInterval.map { .nanoseconds(max(1, Int($0.nanoseconds))) }
    }

    /// Opens the polling connection on the calling thread and takes the database's version
    /// from now, so that a write after the caller's first fetch is not missed.
    /// - Throws: the error of a file that cannot be opened.
    func connectNow() throws {
        guard pollInterval != nil else { return }
        (pollConnection, lastDataVersion) = try Self.connect(to: lock.withLock { database.path })
    }

    private static func connect(to path: String) throws -> (DatabaseQueue, Int?) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "SQLiteStorage.poll"
        configuration.busyMode = .timeout(1)
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        return (connection, try connection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") })
    }

    /// Polls `data_version` every `pollInterval`, after opening the polling connection
    /// (on the refresher's queue, before any fetch asked for later) unless `connectNow()` did.
    func startPolling() {
        guard let pollInterval else { return }
        let path = lock.withLock { database.path }
        queue.async { [self] in
            guard pollConnection == nil else { return }
            connectPolling(to: path)
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + pollInterval, repeating: pollInterval, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.poll() }
        lock.withLock { self.timer = timer }
        timer.resume()
        watchFiles(of: path)
    }

    /// Opens the polling connection to `path` and takes the database's version from now;
    /// runs on `queue`.
    private func connectPolling(to path: String) {
        do {
            (pollConnection, lastDataVersion) = try Self.connect(to: path)
        } catch {
            if let deliver { schedule { deliver(.failure(error)) } }
        }
    }

    /// Looks for a commit (`poll`) each time a program writes the files of the database at
    /// `path`, from now on (in place of the files watched before).
    private func watchFiles(of path: String) {
        let queue = queue
        let watch = FileWatch(path: path, queue: queue) { [weak self] in
            // A write may come before its commit is seen (the WAL's index is updated after
            // the last frame is written, and shared memory tells no one): looked at again
            // shortly after.
            self?.poll()
            for delay in [5, 50] { queue.asyncAfter(deadline: .now() + .milliseconds(delay)) { [weak self] in self?.poll() } }
        }
        let old = lock.withLock {
            defer { self.watch = stopped ? nil : watch }
            return self.watch
        }
        old?.cancel()
        if lock.withLock({ stopped }) { watch?.cancel() }
    }

    func stop() {
        let (timer, watch) = lock.withLock {
            stopped = true
            // A fetch under way is not applied after the storage stopped observing.
            fetchGeneration += 1
            defer { (self.timer, self.watch) = (nil, nil) }
            return (self.timer, self.watch)
        }
        timer?.cancel()
        watch?.cancel()
    }

    /// Runs on `queue`: a cheap read of `data_version`; a change means another
    /// connection committed. Another file at the path (the file replaced) is reported once,
    /// and polling stops until `replaceDatabase`.
    private func poll() {
        guard let pollConnection else { return }
        if Self.pathNamesAnotherFile(pollConnection) {
            // Closed now: the new file's connections will share the journal files named
            // after the path, and this one would answer for the old file.
            self.pollConnection = nil
            let generation = lock.withLock { fetchGeneration }
            deliver(.failure(SQLiteStorageError.fileReplaced(path: pollConnection.path)), ifStill: generation)
            return
        }
        let version = try? pollConnection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        guard let version, version != lastDataVersion else { return }
        lastDataVersion = version
        signal()
    }

    /// Whether another file now has the path of the file `connection` has open (one that
    /// `rename(2)` put there): SQLite's `SQLITE_FCNTL_HAS_MOVED`, which is also true when
    /// nothing is at the path any more (a file deleted, which its connections still read:
    /// not replaced).
    private static func pathNamesAnotherFile(_ connection: DatabaseQueue) -> Bool {
        var moved: Int32 = 0
        connection.inDatabase { db in _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_HAS_MOVED, &moved) }
        return moved != 0 && FileManager.default.fileExists(atPath: connection.path)
    }

    /// Hands `result` to `deliver` where `schedule` runs blocks, unless `fetchGeneration`
    /// has changed from `generation` by then (checked there, so that none arrives after a
    /// replacement or a stop).
    private func deliver(_ result: Result<Value, Error>, ifStill generation: Int) {
        guard let deliver else { return }
        schedule { [weak self] in
            guard let self, lock.withLock({ fetchGeneration == generation }) else { return }
            deliver(result)
        }
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
    func replaceFetch(_ fetch: @escaping @Sendable (Database) throws -> Value) {
        lock.withLock {
            self.fetch = fetch
            fetchGeneration += 1
        }
    }

    /// Fetches from `database` with `fetch` from now on, and polls its file (through a
    /// connection opened on the refresher's queue, before any fetch asked for later) once
    /// the polling connection to the old one is closed. Results not yet delivered are
    /// dropped, as `replaceFetch` drops them.
    func replaceDatabase(_ database: any DatabaseWriter, fetch: @escaping @Sendable (Database) throws -> Value) {
        let stopped = lock.withLock {
            self.database = database
            self.fetch = fetch
            fetchGeneration += 1
            return self.stopped
        }
        guard pollInterval != nil, !stopped else { return }
        let path = database.path
        queue.async { [self] in
            pollConnection = nil
            connectPolling(to: path)
        }
        watchFiles(of: path)
    }

    private func runFetch() {
        // A fetch asked for before a stop and run after it is not made: it would take the
        // generation after the stop, and be delivered.
        let taken = lock.withLock { () -> (any DatabaseWriter, @Sendable (Database) throws -> Value, Int)? in
            dirty = false
            guard !stopped else {
                fetchPending = false
                return nil
            }
            return (self.database, self.fetch, fetchGeneration)
        }
        guard let (database, fetch, generation) = taken else { return }
        let result = Result { try database.read { db in try fetch(db) } }
        deliver(result, ifStill: generation)
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
