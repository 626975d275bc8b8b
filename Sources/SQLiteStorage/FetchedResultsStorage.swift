import Foundation
import GRDB
import ModelStorage

/// A storage showing the rows of an SQL query, kept up to date as the database changes:
/// the list's counterpart of Core Data's `NSFetchedResultsController`.
///
/// The storage fetches the request's rows, maps them to `Record`s, groups them into
/// sections by `sectionID` (in the order the query gives), and holds the result in a
/// `MemoryStorage`. When the database changes it fetches again and applies the new result
/// as a `ListSnapshot`, so its delegate is told only what changed: rows that appeared or
/// went are inserts and deletes, a row whose `id` stayed but whose content changed is an
/// `updateItem`, and a row that moved (to another place, or to another section) is a
/// `moveItem`.
///
/// It notices two kinds of writes:
/// - those made through `database` (the `DatabaseQueue` or `DatabasePool` it was given),
///   at once, through GRDB's `DatabaseRegionObservation` of the tables the query reads;
/// - those made by any other connection to the same file, in this process or another, by
///   polling `PRAGMA data_version` on a connection of its own every `pollInterval`.
///
/// A burst of writes is fetched once: while a fetch waits or runs, further changes only
/// ask for one more fetch after it. Fetches run off the main thread; their results are
/// applied through `schedule` (by default `DispatchQueue.main.async`, which an app on the
/// GLib main loop drains through ListViewManager's `MainQueue`). Use the storage itself
/// on the main thread (or wherever `schedule` runs its blocks).
///
/// A query that cannot be prepared or run (bad SQL, an unknown table or column, a row the
/// record cannot decode) throws from `init`. A fetch that fails later (a table dropped, a
/// file removed) leaves the content as it was and is reported to `onError`.
///
/// ```swift
/// struct Post: FetchableRecord, Identifiable, Equatable, Sendable {
///     var id: Int64; var title: String; var day: String
///     init(row: Row) { id = row["id"]; title = row["title"]; day = row["day"] }
/// }
/// let database = try DatabasePool(path: path)
/// let storage = try FetchedResultsStorage(
///     database: database,
///     request: SQLRequest<Post>(sql: "SELECT * FROM post ORDER BY day DESC, title"),
///     sectionedBy: { $0.day },
///     header: { $0 })
/// manager.storage = storage
/// ```
public final class FetchedResultsStorage<Record: FetchableRecord & Identifiable & Equatable & Sendable, SectionID: Hashable & Sendable>: Storage
where Record.ID: Sendable {
    /// A block that runs another block where the storage lives (the main thread by default).
    public typealias Schedule = @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Told about every change. Held weakly.
    public weak var delegate: StorageUpdating? {
        get { memory.delegate }
        set { memory.delegate = newValue }
    }

    /// The storage holding the current result; read it, but change it only through the
    /// database (a later fetch overwrites whatever else it holds).
    public let memory = MemoryStorage()

    /// The database the query reads, and whose writes are observed at once.
    public let database: any DatabaseWriter

    /// Called (where `schedule` runs blocks) when a fetch after the first fails; the
    /// content stays as it was. Fetching goes on with the next change.
    public var onError: ((Error) -> Void)?

    /// Called (where `schedule` runs blocks) after each fetch is applied, whether or not
    /// anything changed; tests and status displays use it.
    public var onFetch: (() -> Void)?

    /// The result of the last fetch, as a snapshot.
    public private(set) var currentSnapshot: ListSnapshot<SectionID, Record>

    /// How many fetches have been applied, the first one included.
    public private(set) var fetchCount = 1

    private let makeSnapshot: ([Record]) -> ListSnapshot<SectionID, Record>
    private let refresher: Refresher<Record>
    private var observation: AnyDatabaseCancellable?

    /// A storage of `request`'s rows, in sections.
    /// - Parameters:
    ///   - database: a `DatabaseQueue` or `DatabasePool` on a file.
    ///   - request: the rows, in order (`SQLRequest<Record>(sql:arguments:)`, or a query
    ///     interface request such as `Record.order(Column("day"))`).
    ///   - sectionID: the identity of a row's section (like `sectionNameKeyPath`). Rows
    ///     of one section should be adjacent in the query's order; sections come in the
    ///     order of their first row.
    ///   - header: the header model of the section with this identity, or nil for none.
    ///   - pollInterval: how often to look for writes from other connections (nil: never).
    ///   - coalescingDelay: how long a change waits before its fetch, so that writes
    ///     following it close behind are fetched together.
    ///   - schedule: where results are applied; `DispatchQueue.main.async` by default.
    /// - Throws: the `DatabaseError` of a query that cannot be prepared or run.
    public convenience init(
        database: any DatabaseWriter,
        request: some FetchRequest<Record> & Sendable,
        sectionedBy sectionID: @escaping (Record) -> SectionID,
        header: @escaping (SectionID) -> (any Equatable & Sendable)? = { _ in nil },
        pollInterval: Duration? = .milliseconds(250),
        coalescingDelay: Duration = .milliseconds(20),
        schedule: @escaping Schedule = { DispatchQueue.main.async(execute: $0) }
    ) throws {
        try self.init(database: database, request: request,
                      makeSnapshot: { ListSnapshot(items: $0, sectionedBy: sectionID, header: header) },
                      pollInterval: pollInterval, coalescingDelay: coalescingDelay, schedule: schedule)
    }

    /// A storage of `request`'s rows as `makeSnapshot` arranges them.
    init(
        database: any DatabaseWriter,
        request: some FetchRequest<Record> & Sendable,
        makeSnapshot: @escaping ([Record]) -> ListSnapshot<SectionID, Record>,
        pollInterval: Duration?,
        coalescingDelay: Duration,
        schedule: @escaping Schedule
    ) throws {
        self.database = database
        self.makeSnapshot = makeSnapshot
        let fetch: @Sendable (Database) throws -> [Record] = { db in try request.fetchAll(db) }
        // The first fetch, made here so that a malformed query throws at once.
        let (records, region) = try database.read { db in
            (try fetch(db), try request.databaseRegion(db))
        }
        currentSnapshot = makeSnapshot(records)
        memory.apply(currentSnapshot)
        refresher = try Refresher(
            database: database, fetch: fetch, pollInterval: pollInterval,
            coalescingDelay: coalescingDelay, schedule: schedule)
        let box = WeakBox(self)
        refresher.deliver = { result in box.object?.receive(result) }
        // Writes through `database` itself: signalled right after each commit touching
        // the tables the query reads.
        let refresher = self.refresher
        observation = DatabaseRegionObservation(tracking: region).start(
            in: database,
            onError: { _ in refresher.signal() },
            onChange: { _ in refresher.signal() })
        refresher.startPolling()
    }

    deinit {
        observation?.cancel()
        refresher.stop()
    }

    /// Fetches now (off the main thread), as if the database had changed.
    public func refetch() {
        refresher.signal()
    }

    /// Stops observing the database; the content stays as it is.
    public func stopObserving() {
        observation?.cancel()
        observation = nil
        refresher.stop()
    }

    private func receive(_ result: Result<[Record], Error>) {
        switch result {
        case .success(let records):
            let snapshot = makeSnapshot(records)
            currentSnapshot = snapshot
            memory.apply(snapshot)
        case .failure(let error):
            onError?(error)
        }
        fetchCount += 1
        onFetch?()
    }

    // MARK: Storage

    public func numberOfSections() -> Int { memory.numberOfSections() }
    public func numberOfItems(inSection section: Int) -> Int { memory.numberOfItems(inSection: section) }
    public func item(at indexPath: IndexPath) -> Any? { memory.item(at: indexPath) }
    public func headerModel(forSection section: Int) -> Any? { memory.headerModel(forSection: section) }
    public func footerModel(forSection section: Int) -> Any? { memory.footerModel(forSection: section) }
    public func snapshot() -> any SectionedModels { memory.snapshot() }

    /// The record at `indexPath`, or nil when there is none.
    public func record(at indexPath: IndexPath) -> Record? { memory.item(at: indexPath) as? Record }
}

extension FetchedResultsStorage where SectionID == Int {
    /// A storage of `request`'s rows in one section (section id 0), with an optional
    /// header model. See the sectioned initializer for the other parameters.
    public convenience init(
        database: any DatabaseWriter,
        request: some FetchRequest<Record> & Sendable,
        header: (any Equatable & Sendable)? = nil,
        pollInterval: Duration? = .milliseconds(250),
        coalescingDelay: Duration = .milliseconds(20),
        schedule: @escaping Schedule = { DispatchQueue.main.async(execute: $0) }
    ) throws {
        // Always one section, even for an empty result.
        try self.init(database: database, request: request,
                      makeSnapshot: { ListSnapshot(items: $0, section: 0, header: header) },
                      pollInterval: pollInterval, coalescingDelay: coalescingDelay, schedule: schedule)
    }
}

/// A weak reference that may cross threads; only dereferenced where `schedule` runs.
private final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}

/// The fetching machinery, shared with GRDB's and the timer's threads: coalesces change
/// signals into fetches run one at a time on a serial queue, and polls `data_version`.
final class Refresher<Record: Sendable>: @unchecked Sendable {
    private let database: any DatabaseWriter
    private let fetch: @Sendable (Database) throws -> [Record]
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let coalescingDelay: DispatchTimeInterval
    private let pollInterval: DispatchTimeInterval?
    /// A read-only connection of its own: `PRAGMA data_version` changes on it when any
    /// other connection (the storage's `database` included) commits to the file.
    private let pollConnection: DatabaseQueue?
    private let queue = DispatchQueue(label: "SQLiteStorage.fetch")
    private let lock = NSLock()
    // Guarded by `lock`.
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

    private func runFetch() {
        lock.withLock { dirty = false }
        let result = Result { try database.read { db in try fetch(db) } }
        if let deliver { schedule { deliver(result) } }
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
