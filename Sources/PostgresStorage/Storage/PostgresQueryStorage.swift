import Foundation
import ModelStorage
import PostgresNIO

/// A storage of a PostgreSQL query's rows that reads them a page at a time, as the list
/// shows them, and follows the server live: SQLiteStorage's `PagedQueryStorage` for a
/// database several people write to at once.
///
/// What it holds: the sections' values and row counts and every row's key in the query's
/// order (packed, a few bytes a row at most), and the records of the pages read last (`maximumPages` pages of
/// `pageSize` rows). Its items are `PagedRow<Record>`s: a row whose page is not here is a
/// placeholder (`record` nil) until its page arrives, then an `updateItem` in place.
///
/// It follows the table through `LISTEN`: with the trigger of ``PostgresChangeLog`` on the
/// table, it reads every key once, then each commit that touches the table at once (the rest
/// of a burst is read together, after `coalescingDelay`) from the log: the rows it changed, placed by the
/// server, and the records of those in its pages, in one snapshot, shown as one update of the rows
/// inserted, deleted, moved and changed. Through PgBouncer's transaction pooling, where no
/// `LISTEN` holds, it looks in the log instead (``WakeUp/pollLog(every:)``). Without the
/// trigger it reads every key every `pollInterval` (``State/polling``). ``snapshot`` says which commits the rows include,
/// and ``onceReflecting(transaction:_:)`` waits for one.
///
/// The storages of a process that show the same query on the same server with the same
/// settings share their following: one session reads the keys and each commit once for all
/// of them (with the records of the changed rows in any of their pages), and each takes the
/// result in turn as its update; their pages are read on up to four shared connections. A
/// storage made later is given the rows as they are.
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
    public enum WakeUp: Hashable, Sendable {
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
    /// Called when `state` changes, and when ``wakeUpInUse`` does.
    public var onStateChange: ((State) -> Void)?

    /// How the storage follows the server now.
    public private(set) var state = State.connecting {
        didSet {
            guard state != oldValue else { return }
            onStateChange?(state)
            if state == .stopped {
                let stopped = waiters.map(\.body) + lsnWaiters.sorted { $0.key < $1.key }.map(\.value.body)
                (waiters, lsnWaiters) = ([], [:])
                stopped.forEach { $0(false) }
            }
        }
    }

    /// The feed the storage takes its reads from, shared with every storage of the process
    /// that shows the same query on the same server the same way (nil once closed).
    private var feed: PostgresFeed<Record>?
    /// The storage's number in its feed (a new one at each join, unique in the process:
    /// what an earlier feed, or an earlier join, still tells is dropped).
    private var subscription = 0
    /// The query of the rows shown (that of the last read taken), which a new query's
    /// first read is compared with when it reads the same records.
    private var shownQuery: PostgresListQuery?
    /// Whether the storage takes its feed's reads (not after `stopObserving`).
    private var subscribed = false
    /// Whether it takes one read and leaves: a stopped storage asked to read (`refresh`,
    /// `setQuery`).
    private var readOnce = false
    /// Whether the first rows of the read under way are shown: its pages are read after its
    /// snapshot, and need no read again when every key arrives.
    private var firstRowsShown = false
    /// Where the page reads find the feed, emptied by `close`.
    private let pageSession = PostgresPageSession<Record>()
    private let environment: [String: String]
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
    /// Whether `close` was called.
    private var isClosed = false
    /// What `onceReflecting` waits for: a transaction, and what to call.
    private var waiters: [(transaction: Int64, body: (Bool) -> Void)] = []
    /// What `onceReflecting(lsn:)` waits for, by the number the feed knows the wait by: a
    /// place in the log, and what to call.
    private var lsnWaiters: [Int: (lsn: PostgresLSN, body: (Bool) -> Void)] = [:]
    private var nextLSNWait = 0

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
    ///   - coalescingDelay: how long a notification waits before its read when a read began
    ///     less than that long ago, so that the commits of a burst are read together (the
    ///     first commit after a quiet spell is read at once).
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
        self.environment = environment
        self.coalescingDelay = coalescingDelay
        self.pollInterval = pollInterval
        self.wakeUp = wakeUp
        wakeUpInUse = wakeUp
        self.driftCheckInterval = driftCheckInterval
        self.longestReconnectionWait = longestReconnectionWait
        super.init(pageSize: pageSize, maximumPages: maximumPages, schedule: schedule, header: header)
        let pageSession = pageSession
        readPages { keys, done in
            guard let (feed, lane) = pageSession.feed else { return done(.failure(PostgresStorageError.closed)) }
            Task {
                do throws(PostgresStorageError) {
                    done(.success(try await feed.session.readRows(keys, lane: lane)))
                } catch {
                    done(.failure(error))
                }
            }
        } failed: { [weak self] error in
            guard let self, !isClosed else { return }
            onError?(PostgresStorageError(error))
        }
        join(PostgresFeeds.shared.feed(for: feedKey(query)), comparing: false, once: false)
        searchIfAsked(by: query)
    }

    /// Lets type-ahead find search the rows on the server when `query` names a column to
    /// search in (`searchBy`): on the pages' connections of the feed the storage reads from
    /// when a search begins, with its query.
    private func searchIfAsked(by query: PostgresListQuery) {
        guard let column = query.searchBy else { return makeMatchReader = nil }
        let pageSession = pageSession
        makeMatchReader = {
            let feed = pageSession.feed
            return { text, anywhere, scope, done in
                guard let (feed, lane) = feed else { return done(.failure(PostgresStorageError.closed)) }
                Task {
                    do throws(PostgresStorageError) {
                        done(.success(try await feed.session.readMatches(of: text, in: column, anywhere: anywhere, scope: scope, lane: lane)))
                    } catch {
                        done(.failure(error))
                    }
                }
            }
        }
    }

    deinit {
        if let feed, subscribed {
            let number = subscription
            feed.schedule { $0.leave(number) }
        }
    }

    /// What makes storages share a feed, for this storage showing `query`.
    private func feedKey(_ query: PostgresListQuery) -> PostgresFeed<Record>.Key {
        PostgresFeed.Key(address: address, query: query.withoutSearch, environment: environment, record: ObjectIdentifier(Record.self),
                         coalescingDelay: coalescingDelay, pollInterval: pollInterval, wakeUp: wakeUp,
                         driftCheckInterval: driftCheckInterval, longestReconnectionWait: longestReconnectionWait,
                         largestUpdate: largestUpdate)
    }

    /// Takes the reads of `feed` from now on: given the rows' places as they are, compared
    /// with the rows shown when `comparing` (else by reloading), then every read after; or,
    /// `once`, a read begun now, and no more.
    private func join(_ feed: PostgresFeed<Record>, comparing: Bool, once: Bool) {
        let number = PostgresFeeds.shared.nextSubscriberNumber()
        (self.feed, subscription, subscribed, readOnce, firstRowsShown) = (feed, number, true, once, false)
        pageSession.feed = (feed, number)
        let query = feed.query
        let box = WeakBox(self)
        let schedule = schedule
        let subscriber = PostgresFeed<Record>.Subscriber(heldPages: rows.heldPages, pageSize: rows.pageSize) { event in
            schedule {
                guard let storage = box.object, storage.subscribed, storage.subscription == number else { return }
                if case .read = event { storage.shownQuery = query }
                storage.take(event)
            }
        }
        let shown = comparing && isLoaded ? rows.places : nil
        let waits = lsnWaiters.sorted { $0.key < $1.key }.map { (wait: $0.key, lsn: $0.value.lsn) }
        feed.schedule { feed in
            feed.join(subscriber, comparingWith: shown, number: number, fresh: once)
            // Waits for a place in the log, asked of the feed left, are asked of this one.
            for (wait, lsn) in waits { feed.waitForLSN(lsn, subscriber: number, wait: wait) }
        }
    }

    /// Stops taking the feed's reads (the feed stays, for the pages).
    private func leaveFeed() {
        guard let feed, subscribed else { return }
        subscribed = false
        let number = subscription
        feed.schedule { $0.leave(number) }
    }

    /// Takes what the feed tells.
    private func take(_ event: PostgresFeed<Record>.Event) {
        switch event {
        case .state(let state, let wakeUp):
            if state == .stopped {
                // The feed stopped for good (its error was told first): the storage takes
                // nothing more from it, but still reads its pages on its connections.
                subscribed = false
                readOnce = false
            }
            guard !readOnce else { return }
            let (stateChanged, wakeUpChanged) = (state != self.state, wakeUp != wakeUpInUse)
            wakeUpInUse = wakeUp
            self.state = state
            // `state`'s change was told by its `didSet`.
            if wakeUpChanged && !stateChanged { onStateChange?(state) }
        case .error(let error):
            if !isClosed { onError?(error) }
        case .driftRepaired:
            if !readOnce { driftsRepaired += 1 }
        case .read(let read, let snapshot):
            self.snapshot = snapshot
            show(read)
            // After a read of every key, the records kept may be old where places are not.
            if !read.changesOnly, read.update != nil, !firstRowsShown { rows.readKeptPagesAgain(except: Set(read.pages.keys)) }
            firstRowsShown = false
            callWaitersReflected()
            if readOnce {
                readOnce = false
                leaveFeed()
            }
        case .firstRows(let read):
            // Set first: the delegate told may stop the storage (`stopObserving`).
            firstRowsShown = true
            show(read)
        case .reflected(let waits):
            for wait in waits.sorted() { lsnWaiters.removeValue(forKey: wait)?.body(true) }
        }
    }

    /// Stops following the server; the rows stay as they are (pages are still read). A
    /// storage showing its first rows takes the read of every key under way first (else the
    /// rows further down would stay without their keys).
    public func stopObserving() {
        if firstRowsShown, subscribed { readOnce = true } else { leaveFeed() }
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
        guard state != .stopped, let feed, subscribed else { return body(false) }
        nextLSNWait += 1
        let (wait, number) = (nextLSNWait, subscription)
        lsnWaiters[wait] = (lsn, body)
        feed.schedule { $0.waitForLSN(lsn, subscriber: number, wait: wait) }
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
        pageSession.feed = nil
        feed = nil
    }

    /// Shows the rows of `query` instead, as the changes from the rows shown (or by
    /// reloading when it reads other records).
    public func setQuery(_ query: PostgresListQuery) {
        // Only what type-ahead find looks in changed: the rows are the same, from the same feed.
        if query != self.query, query.withoutSearch == self.query.withoutSearch {
            self.query = query
            return searchIfAsked(by: query)
        }
        // Compared with the rows shown, not with a query given since whose rows are not.
        let comparable = isLoaded && shownQuery.map { query.table == $0.table && query.columns == $0.columns && query.key == $0.key } == true
        self.query = query
        guard !isClosed else { return }
        // A stopped storage shows the new query's rows once, and stays stopped.
        let following = state != .stopped
        leaveFeed()
        join(PostgresFeeds.shared.feed(for: feedKey(query)), comparing: comparable, once: !following)
        searchIfAsked(by: query)
    }

    /// Reads the rows' places again now.
    public func refresh() {
        guard !isClosed, let feed else { return }
        if subscribed {
            feed.schedule { $0.readKeys(after: .zero) }
        } else {
            // The feed of the query now (the one left may have stopped for good).
            join(PostgresFeeds.shared.feed(for: feedKey(query)), comparing: true, once: true)
        }
    }
}
