import Foundation
import GRDB

/// Compares a paged storage's runs with its table now and then, one run after another, off
/// the storage's thread and off its reads' queue (a check never holds up a commit's read on
/// a pool): the writes the change log did not record (triggers turned off with
/// `SQLITE_DBCONFIG_ENABLE_TRIGGER`, as the `sqlite3` shell's `.dbconfig enable_trigger off`
/// does) are found, and `found` is called, after which the storage's next read reads every key.
///
/// Checks run only on a `DatabasePool`: on a queue, a check (a count of a section's rows)
/// would hold up the storage's reads. They are spaced by `interval`, and by twenty times the
/// last check's own time at least, so that checks of a large table (whose counts read every
/// row) take a twentieth of one core at most.
final class DriftChecker: @unchecked Sendable {
    /// Compares the run of the given number (counted round the runs) with the table: whether
    /// they agree, nil when it cannot be told (no log, changes not read yet).
    typealias Check = @Sendable (_ db: Database, _ run: Int) throws -> Bool?

    /// A check's time is at most this part of the time between checks.
    private static let spacing = 20.0

    private let queue = DispatchQueue(label: "SQLiteStorage.drift")
    private let lock = NSLock()
    // Guarded by `lock`.
    private var database: any DatabaseWriter
    private var check: Check
    private var timer: DispatchSourceTimer?
    private var interval: TimeInterval = 0
    private var found: (@Sendable () -> Void)?
    // Used on `queue` only.
    private var run = 0

    init(database: any DatabaseWriter, check: @escaping Check) {
        self.database = database
        self.check = check
    }

    /// Checks every `interval` from now on (a thousandth of a second at least), calling
    /// `found` (on the checker's queue) when a run differs from the table.
    func start(every interval: Duration, found: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.checkOnce() }
        let earlier = lock.withLock { () -> DispatchSourceTimer? in
            let earlier = self.timer
            (self.timer, self.interval, self.found) = (timer, Self.seconds(interval), found)
            arm(after: self.interval)
            return earlier
        }
        earlier?.cancel()
        timer.resume()
    }

    /// Checks with `check` in `database` from now on (a new query, another file); the next
    /// check comes when it was to come, or `interval` from now when `database` is the first
    /// pool.
    func replace(database: any DatabaseWriter, check: @escaping Check) {
        lock.withLock {
            let wasPool = self.database is DatabasePool
            (self.database, self.check) = (database, check)
            if !wasPool { arm(after: interval) }
        }
    }

    func stop() {
        lock.withLock {
            defer { (timer, found) = (nil, nil) }
            return timer
        }?.cancel()
    }

    deinit { timer?.cancel() }

    /// Sets the timer to fire once, `seconds` from now, when the database is a pool (else
    /// never: a queue is not checked). Called holding `lock`.
    private func arm(after seconds: TimeInterval) {
        let deadline: DispatchTime = database is DatabasePool ? .now() + .nanoseconds(Int(seconds * 1e9)) : .distantFuture
        timer?.schedule(deadline: deadline, repeating: .never, leeway: .milliseconds(50))
    }

    /// One run compared; its errors are the reads' to report (a read meets them too). The
    /// next check comes `interval` later, or twenty times this one's time if longer.
    private func checkOnce() {
        let (database, check, found) = lock.withLock { (self.database, self.check, self.found) }
        guard let found, database is DatabasePool else { return }
        // The time the process ran: a suspend or a clock set meanwhile is not counted.
        let started = DispatchTime.now().uptimeNanoseconds
        let agrees = try? database.read { db in try check(db, run) }
        let took = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let stillFollowing = lock.withLock { () -> Bool in
            arm(after: min(max(interval, took * Self.spacing), Self.longest))
            return self.found != nil
        }
        guard let agrees, stillFollowing else { return }
        run += 1
        if !agrees { found() }
    }

    /// The longest time between checks: a year.
    private static let longest: TimeInterval = 365 * 86_400

    /// `duration` in seconds, between a thousandth of a second and a year.
    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return min(max(Double(seconds) + Double(attoseconds) * 1e-18, 0.001), longest)
    }
}
