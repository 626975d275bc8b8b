import Foundation
import ModelStorage
import PostgresNIO

/// A storage of a PostgreSQL query's rows that reads them a page at a time, as the list
/// shows them, and follows the server live: SQLiteStorage's `PagedQueryStorage` for a
/// database several people write to at once.
///
/// What it holds: the sections' values and row counts and every row's key in the query's
/// order (8 bytes a row), and the records of the pages read last (`maximumPages` pages of
/// `pageSize` rows). Its items are `PagedRow<Record>`s: a row whose page is not here is a
/// placeholder (`record` nil) until its page arrives, then an `updateItem` in place.
///
/// It follows the table through `LISTEN`: with the trigger of ``PostgresChangeLog`` on the
/// table, it reads every key once, then each commit that touches the table at once (bursts
/// are read together, `coalescingDelay`) from the log: the rows it changed, placed by the
/// server, and the held pages they are in, in one snapshot, shown as one update of the rows
/// inserted, deleted, moved and changed. Through PgBouncer's transaction pooling, where no
/// `LISTEN` holds, it looks in the log instead (``WakeUp/pollLog(every:)``). Without the
/// trigger it reads every key every `pollInterval` (``State/polling``). ``snapshot`` says which commits the rows include,
/// and ``onceReflecting(transaction:_:)`` waits for one.
///
/// No statement runs on the storage's thread. Errors are reported to `onError`, and
/// the rows stay as they were.
public final class PostgresQueryStorage<Record: PostgresRecordDecodable>: PagedStorage<Record, String?> {
    /// How the storage follows the server.
    public enum State: Equatable, Sendable {
        /// Connecting, before the rows' first read.
        case connecting
        /// Told of every commit at once (the table has the trigger).
        case live
        /// Reading the keys again every `pollInterval`: the table has no trigger.
        case polling
        /// The connection was lost: connecting again (`attempt` counts the tries), showing
        /// the rows as they were.
        case reconnecting(attempt: Int)
        /// Stopped: by `stopObserving`, or by an error that following cannot get past (the
        /// table dropped, say), reported to `onError`. The rows stay as they were.
        case stopped
    }

    /// How a storage following the change log learns that a commit changed its table.
    public enum WakeUp: Equatable, Sendable {
        /// `LISTEN`, on a connection of the storage's own: each commit is told at once.
        /// The server keeps a session for the storage as long as it follows the table. A
        /// replica (a hot standby) takes no `LISTEN`, and PgBouncer's transaction pooling
        /// takes one but does not keep it (found when two looks in the log, `pollInterval`
        /// apart, see changes not told): there the storage looks in the log every
        /// ``PostgresQueryStorage/replicaLookInterval`` instead (``PostgresQueryStorage/wakeUpInUse``).
        case listen
        /// A look in the log every `interval` for changes to the table after the storage's
        /// position (one indexed statement, no session held between statements): for
        /// PgBouncer in transaction pooling mode, which gives each transaction whichever
        /// server session is free, so that a `LISTEN` hears nothing. A commit is seen
        /// `interval` later at most.
        case pollLog(every: Duration)

        /// How often the log is looked in, or nil for `LISTEN`.
        var lookInterval: Duration? {
            switch self {
            case .listen: nil
            case .pollLog(let interval): interval
            }
        }
    }

    /// Where the rows are read.
    public let address: PostgresAddress
    /// The rows shown.
    public private(set) var query: PostgresListQuery

    /// Called when the rows or a page cannot be read; the rows stay as they were.
    public var onError: ((PostgresStorageError) -> Void)?
    /// Called when `state` changes.
    public var onStateChange: ((State) -> Void)?

    /// How the storage follows the server now.
    public private(set) var state = State.connecting {
        didSet {
            guard state != oldValue else { return }
            onStateChange?(state)
            if state == .stopped {
                // Nothing compares runs with the table now (the follower may have stopped on
                // an error).
                driftChecker?.cancel()
                driftChecker = nil
                let stopped = waiters.map(\.body) + lsnWaiters.map(\.body)
                (waiters, lsnWaiters) = ([], [])
                stopped.forEach { $0(false) }
            }
        }
    }

    private let session: PostgresSession<Record>
    private let coalescingDelay: Duration
    /// How often the keys are read again when the table has no trigger, and how often the
    /// trigger is looked for while listening.
    public let pollInterval: Duration
    /// How the storage learns of commits while the table has the trigger.
    public let wakeUp: WakeUp
    /// How it learns of them now: `wakeUp`, but for a storage reading a replica, or one
    /// whose notifications did not come (the server took its `LISTEN` but did not keep it,
    /// as PgBouncer's transaction pooling does), which look in the log every
    /// ``replicaLookInterval``.
    public private(set) var wakeUpInUse: WakeUp
    /// How often a storage with ``WakeUp/listen`` looks in the log when notifications cannot
    /// come: on a replica (which takes no `LISTEN`), or through a server that took the
    /// `LISTEN` and did not keep it (PgBouncer's transaction pooling).
    public static var replicaLookInterval: Duration { .milliseconds(100) }
    /// How often one run of rows (4,096) is compared with the table, round the runs, to
    /// find writes the log did not record; nil for never.
    public let driftCheckInterval: Duration?
    /// How many times a drift check found the rows shown differing from the table (a write
    /// the log did not record), each then repaired by a read of every key.
    public private(set) var driftsRepaired = 0
    /// The longest wait between two tries to connect again.
    private let longestReconnectionWait: Duration
    /// A change of query that the next read of the keys takes, and whether that read is
    /// compared with the one before.
    private var queryChange: (query: PostgresListQuery, comparable: Bool)?
    /// A read of the keys is under way; whether it has begun (its delay is over: a commit
    /// told before then is in it); and whether another was asked for meanwhile.
    private var readingKeys = false
    private var readBegan = false
    private var readAgain = false
    /// Listens for the trigger's notifications, or polls.
    private var follower: Task<Void, Never>?
    /// Compares a run with the table every `driftCheckInterval`.
    private var driftChecker: Task<Void, Never>?
    /// Counts the followers started and stopped: what a follower asks of the storage is done
    /// only while it is the current one (a stopped storage stays stopped).
    private var followGeneration = 0
    /// Whether `close` was called.
    private var isClosed = false
    /// What `onceReflecting` waits for: a transaction, and what to call.
    private var waiters: [(transaction: Int64, body: (Bool) -> Void)] = []
    /// What `onceReflecting(lsn:)` waits for: a place in the log, the reads begun before the
    /// call, and what to call.
    private var lsnWaiters: [(lsn: PostgresLSN, readsBefore: Int, body: (Bool) -> Void)] = []
    /// The reads of the keys begun so far.
    private var readsBegun = 0
    /// A read to try again after a failed one, and when.
    private var readAgainAfter: Duration?
    /// The reads made again, one after another, for waiters of a place in a replica's log
    /// (each waits twice as long as the one before, up to `pollInterval`).
    private var lsnRereads = 0

    /// The snapshot of the database the rows shown are of: that of the last read of their
    /// places (nil before the first). The rows include every commit it sees.
    public private(set) var snapshot: PostgresSnapshot?

    /// A storage of `query`'s rows on the server at `address`.
    /// - Parameters:
    ///   - address: the server, database and user.
    ///   - query: the rows, their order and their sections.
    ///   - pageSize: the rows read at a time.
    ///   - maximumPages: the most pages kept (at least one screenful is needed).
    ///   - environment: where `PGPASSWORD` and `PGPASSFILE` are looked up.
    ///   - header: the header model of a section's value (by default its text).
    ///   - coalescingDelay: how long a notification waits before its read, so that commits
    ///     close behind it are read together.
    ///   - pollInterval: how often the keys are read again when the table has no trigger.
    ///   - wakeUp: how commits are learnt of while the table has the trigger: `LISTEN`, or
    ///     through PgBouncer's transaction pooling, a look in the log every so often.
    ///   - driftCheckInterval: how often a run of rows is compared with the table, to find
    ///     writes the log did not record (nil: never).
    ///   - longestReconnectionWait: the longest wait between two tries to connect again.
    ///   - schedule: where results are applied; `DispatchQueue.main.async` by default.
    public init(address: PostgresAddress, query: PostgresListQuery, pageSize: Int = 100, maximumPages: Int = 20,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                header: @escaping (String?) -> Any? = { $0 },
                coalescingDelay: Duration = .milliseconds(20), pollInterval: Duration = .seconds(2),
                wakeUp: WakeUp = .listen, driftCheckInterval: Duration? = .seconds(5), longestReconnectionWait: Duration = .seconds(5),
                schedule: @escaping Schedule = { DispatchQueue.main.async(execute: $0) }) {
        self.address = address
        self.query = query
        session = PostgresSession(address: address, query: query, environment: environment, largestUpdate: defaultLargestUpdate)
        self.coalescingDelay = coalescingDelay
        self.pollInterval = pollInterval
        self.wakeUp = wakeUp
        wakeUpInUse = wakeUp
        self.driftCheckInterval = driftCheckInterval
        self.longestReconnectionWait = longestReconnectionWait
        super.init(pageSize: pageSize, maximumPages: maximumPages, schedule: schedule, header: header)
        let session = session
        readPages { keys, done in
            Task {
                do throws(PostgresStorageError) {
                    done(.success(try await session.readRows(keys)))
                } catch {
                    done(.failure(error))
                }
            }
        } failed: { [weak self] error in
            guard let self, !isClosed else { return }
            onError?(PostgresStorageError(error))
        }
        // The first read comes once the follower knows how it will be told of commits.
        follow()
    }

    deinit {
        follower?.cancel()
        driftChecker?.cancel()
        let session = session
        Task { await session.close() }
    }

    /// Stops following the server; the rows stay as they are (pages are still read).
    public func stopObserving() {
        follower?.cancel()
        follower = nil
        driftChecker?.cancel()
        driftChecker = nil
        followGeneration += 1
        state = .stopped
    }

    /// Whether the rows shown include what the transaction `id` committed: `id` is the
    /// 64-bit id that `SELECT pg_current_xact_id()` gives in the writing transaction,
    /// before its `COMMIT` (false for a transaction still running, or rolled back and not
    /// yet ended in the rows' snapshot).
    public func reflects(transaction id: Int64) -> Bool {
        snapshot?.includes(transaction: id) ?? false
    }

    /// Calls `body` with true once the rows shown include what the transaction `id`
    /// committed (at once when they do now, else after the read that brings it, before the
    /// next), or with false when the storage stops following the server first (``State/stopped``):
    /// how a program that wrote waits to see its write (read your writes).
    public func onceReflecting(transaction id: Int64, _ body: @escaping (Bool) -> Void) {
        if reflects(transaction: id) {
            body(true)
        } else if state == .stopped {
            body(false)
        } else {
            waiters.append((id, body))
        }
    }

    /// Calls `body` with true once the rows shown include every commit whose record in the
    /// log ends at or before `lsn` (`SELECT pg_current_wal_insert_lsn()` after the `COMMIT`,
    /// on the primary), or with false when the storage stops following the server first: read your
    /// writes when the storage reads a replica, which shows a commit only once it has
    /// replayed it. On a replica, that is once a read's snapshot was taken after the replica
    /// replayed the log through `lsn` (the storage reads again until one is); on a primary,
    /// once a read begun after this call ends (the commit had ended before `lsn` was known).
    public func onceReflecting(lsn: PostgresLSN, _ body: @escaping (Bool) -> Void) {
        guard state != .stopped else { return body(false) }
        lsnWaiters.append((lsn, readsBegun, body))
        readKeys(after: .zero)
    }

    /// Calls the waiters whose commits the rows of the read `read` (its number among the
    /// reads begun) now include; reads again soon while some wait for a replica.
    private func callLSNWaitersReflected(afterRead read: Int) {
        guard let snapshot, !lsnWaiters.isEmpty else { return }
        func reflected(_ waiter: (lsn: PostgresLSN, readsBefore: Int, body: (Bool) -> Void)) -> Bool {
            snapshot.replayed.map { $0 >= waiter.lsn } ?? (read > waiter.readsBefore)
        }
        let done = lsnWaiters.filter(reflected)
        lsnWaiters.removeAll(where: reflected)
        done.forEach { $0.body(true) }
        guard !lsnWaiters.isEmpty else { return lsnRereads = 0 }
        lsnRereads += 1
        readKeys(after: min(.milliseconds(10) * (1 << min(lsnRereads - 1, 16)), pollInterval))
    }

    /// Calls the waiters whose transactions the rows now include.
    private func callWaitersReflected() {
        guard let snapshot, !waiters.isEmpty else { return }
        let (reflected, waiting) = (waiters.filter { snapshot.includes(transaction: $0.transaction) },
                                    waiters.filter { !snapshot.includes(transaction: $0.transaction) })
        waiters = waiting
        reflected.forEach { $0.body(true) }
    }

    /// Stops following the server and closes the storage's connections: the rows stay as
    /// they are, and no more are read (a row not read stays a placeholder). For a list
    /// that is going away, before the storage itself does.
    public func close() {
        stopObserving()
        isClosed = true
        let session = session
        Task { await session.close() }
    }

    /// Shows the rows of `query` instead, as the changes from the rows shown (or by
    /// reloading when it reads other records).
    public func setQuery(_ query: PostgresListQuery) {
        let comparable = isLoaded && query.table == self.query.table && query.columns == self.query.columns && query.key == self.query.key
        let otherTable = query.table != self.query.table
        self.query = query
        // Taken by the next read of the keys, which compares with the read before it (the
        // keys shown) when the records are the same kind.
        queryChange = (query, comparable && queryChange?.comparable != false)
        if otherTable, state != .stopped {
            follower?.cancel()
            driftChecker?.cancel()
            follow()
        }
        readKeys(after: .zero)
    }

    /// Reads the rows' places again now.
    public func refresh() {
        readKeys(after: .zero)
    }

    // MARK: Following the server

    /// Listens for the trigger's notifications on the table, or polls when it has none, and
    /// reads the keys once it does either: the first read, or after a reconnection (or a
    /// trigger dropped or installed) what changed meanwhile, in one update. When the
    /// connection is lost, connects again after a growing wait (0.1 s doubling up to
    /// `longestReconnectionWait`); the first failure to reach the server is also an
    /// `onError`. Any other error ends the following (`onError`, `State.stopped`).
    private func follow() {
        followGeneration += 1
        let (session, schedule, table, pollInterval, longestWait, generation) =
            (session, schedule, query.table, pollInterval, longestReconnectionWait, followGeneration)
        let (lookInterval, replicaLookInterval) = (wakeUp.lookInterval, Self.replicaLookInterval)
        let box = WeakBox(self)
        /// Runs `body` where the storage lives, if this follower is still the current one.
        @Sendable func apply(_ body: @escaping @Sendable (PostgresQueryStorage) -> Void) {
            schedule {
                guard let storage = box.object, storage.followGeneration == generation else { return }
                body(storage)
            }
        }
        if let interval = driftCheckInterval { checkForDrift(every: interval, generation: generation) }
        follower = Task {
            var attempt = 0
            // Whether notifications come (a LISTEN not kept is found by the log's looks).
            var heard = true
            var reached = false
            while !Task.isCancelled {
                do throws(PostgresStorageError) {
                    let live = try await session.hasChangeTrigger(table: table)
                    (attempt, reached) = (0, true)
                    await session.setFollowsLog(live)
                    // A replica takes no LISTEN: its log is looked in instead.
                    let standby = await session.isStandby
                    let lookEvery = lookInterval ?? (standby || !heard ? replicaLookInterval : nil)
                    if live, let interval = lookEvery {
                        apply { storage in
                            storage.state = .live
                            storage.wakeUpInUse = .pollLog(every: interval)
                            storage.readKeys(after: .zero)
                        }
                        try await session.pollLog(of: table, every: interval) {
                            apply { storage in storage.readKeys(after: .zero) }
                        }
                    } else if live {
                        // Notifications that did not come: the server takes LISTEN but does
                        // not keep it (PgBouncer's transaction pooling). From then on, the
                        // log is looked in.
                        heard = try await !session.listen(on: PostgresChangeLog.channel, checkingTriggerOf: table, every: pollInterval) {
                            // Every commit from now on is told: what came before is read now.
                            apply { storage in
                                storage.state = .live
                                storage.wakeUpInUse = .listen
                                storage.readKeys(after: .zero)
                            }
                        } _: { payload in
                            guard payload == table else { return }
                            apply { storage in storage.readKeys(after: storage.coalescingDelay) }
                        }
                    } else {
                        apply { storage in
                            storage.state = .polling
                            storage.readKeys(after: .zero)
                        }
                        // Until the trigger is installed (then listened to).
                        while !Task.isCancelled {
                            try? await Task.sleep(for: pollInterval)
                            if try await session.hasChangeTrigger(table: table) { break }
                            apply { storage in storage.readKeys(after: .zero) }
                        }
                    }
                } catch where error.isConnectionProblem {
                    guard !Task.isCancelled else { return }
                    // Another connection may keep a LISTEN: found out again in two looks.
                    heard = true
                    attempt += 1
                    let (tries, firstFailure) = (attempt, !reached && attempt == 1)
                    apply { storage in
                        if firstFailure { storage.onError?(error) }
                        storage.state = .reconnecting(attempt: tries)
                    }
                    try? await Task.sleep(for: min(.milliseconds(100) * (1 << min(attempt - 1, 10)), longestWait))
                } catch {
                    apply { storage in
                        storage.onError?(error)
                        storage.state = .stopped
                    }
                    return
                }
            }
        }
    }

    /// Compares a run with the table every `interval`, one run after another (when the
    /// table follows the log and has no change the storage has not read); on a difference,
    /// reads every key, which shows the smallest update from the rows shown.
    private func checkForDrift(every interval: Duration, generation: Int) {
        let (session, schedule) = (session, schedule)
        let box = WeakBox(self)
        driftChecker = Task {
            var run = 0
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                // Connection problems and other errors are the follower's to report.
                guard let agrees = try? await session.checkForDrift(run: run) else { continue }
                run += 1
                if !agrees {
                    schedule {
                        guard let storage = box.object, storage.followGeneration == generation else { return }
                        storage.driftsRepaired += 1
                        storage.readKeys(after: .zero)
                    }
                }
            }
        }
    }

    /// Reads the keys after `delay`, unless a read is under way: a notification told while
    /// that read waits out its delay is read by it; one told later, or a new query, is read
    /// once more after it.
    private func readKeys(after delay: Duration) {
        guard !isClosed else { return }
        guard !readingKeys else {
            if readBegan || queryChange != nil { readAgain = true }
            return
        }
        readingKeys = true
        readBegan = delay == .zero
        readsBegun += 1
        let read = readsBegun
        let (session, schedule, held, pageSize, largestUpdate, change) = (session, schedule, rows.heldPages, rows.pageSize, largestUpdate, queryChange)
        queryChange = nil
        let box = WeakBox(self)
        Task {
            if let change { await session.setQuery(change.query, comparable: change.comparable, largestUpdate: largestUpdate) }
            if delay > .zero {
                try? await Task.sleep(for: delay)
                // What is told from now on may be too late for this read's snapshot.
                await withCheckedContinuation { (began: CheckedContinuation<Void, Never>) in
                    schedule {
                        box.object?.readBegan = true
                        began.resume()
                    }
                }
            }
            let result: Result<(KeyRead<Record, String?>, PostgresSnapshot?), PostgresStorageError>
            do throws(PostgresStorageError) {
                let read = try await session.readKeys(heldPages: held.pages, pageSize: pageSize)
                result = .success((read, await session.snapshot))
            } catch {
                result = .failure(error)
            }
            schedule { box.object?.show(result, read: read) }
        }
    }

    private func show(_ result: Result<(KeyRead<Record, String?>, PostgresSnapshot?), PostgresStorageError>, read: Int) {
        readingKeys = false
        readBegan = false
        switch result {
        case .failure(let error):
            if !isClosed { onError?(error) }
            // Tried again while following (a lost connection is the follower's to mend):
            // nothing else may ask for a read, as a look in the log does not while the
            // position of the runs is gone.
            if state == .live || state == .polling { readAgainAfter = pollInterval }
        case .success(let (keyRead, snapshot)):
            self.snapshot = snapshot
            show(keyRead)
            callWaitersReflected()
            callLSNWaitersReflected(afterRead: read)
        }
        if readAgain {
            readAgain = false
            readKeys(after: coalescingDelay)
        } else if let delay = readAgainAfter {
            readKeys(after: delay)
        }
        readAgainAfter = nil
    }
}
