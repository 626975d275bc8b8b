import Foundation
import GRDB

/// Compares a paged storage's runs with its table every `interval`, one run after another,
/// off the storage's thread and off its reads' queue (a check never holds up a commit's read
/// on a pool): the writes the change log did not record (triggers turned off with
/// `SQLITE_DBCONFIG_ENABLE_TRIGGER`, as the `sqlite3` shell's `.dbconfig enable_trigger off`
/// does) are found, and `found` is called, after which the storage's next read reads every key.
final class DriftChecker: @unchecked Sendable {
    /// Compares the run of the given number (counted round the runs) with the table: whether
    /// they agree, nil when it cannot be told (no log, changes not read yet).
    typealias Check = @Sendable (_ db: Database, _ run: Int) throws -> Bool?

    private let queue = DispatchQueue(label: "SQLiteStorage.drift")
    private let lock = NSLock()
    // Guarded by `lock`.
    private var database: any DatabaseWriter
    private var check: Check
    private var timer: DispatchSourceTimer?
    // Used on `queue` only.
    private var run = 0

    init(database: any DatabaseWriter, check: @escaping Check) {
        self.database = database
        self.check = check
    }

    /// Checks every `interval` from now on, calling `found` (on the checker's queue) when a
    /// run differs from the table.
    func start(every interval: Duration, found: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(1, nanoseconds)), leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.checkOnce(found: found) }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    /// Checks with `check` in `database` from now on (a new query, another file).
    func replace(database: any DatabaseWriter, check: @escaping Check) {
        lock.withLock { (self.database, self.check) = (database, check) }
    }

    func stop() {
        lock.withLock {
            defer { timer = nil }
            return timer
        }?.cancel()
    }

    deinit { timer?.cancel() }

    /// One run compared; its errors are the reads' to report (a read meets them too). Only
    /// on a pool: on a queue, a check (a count of the section's rows, every row's with a
    /// condition) would hold up the storage's reads.
    private func checkOnce(found: @Sendable () -> Void) {
        let (database, check, run) = lock.withLock { (self.database, self.check, self.run) }
        guard database is DatabasePool else { return }
        guard let agrees = try? database.read({ db in try check(db, run) }) else { return }
        self.run += 1
        if !agrees { found() }
    }
}
