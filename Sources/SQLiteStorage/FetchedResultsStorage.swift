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
/// GLib main loop drains through GtkKit's `MainQueue`). Use the storage itself
/// on the main thread (or wherever `schedule` runs its blocks).
///
/// A query that cannot be prepared or run (bad SQL, an unknown table or column, a row the
/// record cannot decode) throws from `init`. A fetch that fails later (a table dropped, a
/// file removed) leaves the content as it was and is reported to `onError`, and so is
/// another file moved to the database's path (`SQLiteStorageError.fileReplaced`: the
/// storage's connections still read the file they opened).
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

    /// The result of the last fetch, as a snapshot (sorted by `sortOrder`, when set).
    public private(set) var currentSnapshot: ListSnapshot<SectionID, Record>

    /// An order for each section's records in place of the query's (a table view sorted by
    /// a clicked column, say), nil (the default) for the query's own. Setting it shows the
    /// current result in the new order at once, as moves; later fetches, those of a new
    /// request included, are sorted the same way: while it is set, a request's own order
    /// decides only between records it finds equal (sorting is stable).
    public var sortOrder: ((Record, Record) -> Bool)? {
        didSet { show(fetched) }
    }

    /// The result of the last fetch, in the query's order.
    private var fetched: ListSnapshot<SectionID, Record>

    /// How many fetches have been applied, the first one and those of `setRequest` included.
    public private(set) var fetchCount = 1

    private let makeSnapshot: ([Record]) -> ListSnapshot<SectionID, Record>
    private let refresher: Refresher<[Record]>
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
    ///   - pollInterval: how often to look for writes from other connections (nil: never); a
    ///     write to the database's files is looked at at once too (Linux's inotify), unless nil.
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
        fetched = makeSnapshot(records)
        currentSnapshot = fetched
        memory.apply(currentSnapshot)
        refresher = Refresher(
            database: database, fetch: fetch, pollInterval: pollInterval,
            coalescingDelay: coalescingDelay, schedule: schedule)
        try refresher.connectNow()
        let box = WeakBox(self)
        refresher.deliver = { result in box.object?.receive(result) }
        observe(region)
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

    /// Shows the rows of another request (a search, another order), sectioned as before.
    ///
    /// Fetches at once, on the calling thread, and applies the result as a snapshot: the
    /// delegate is told only what differs (rows that went or came, rows that changed or
    /// moved), not to reload. Later changes are fetched with the new request, and the
    /// tables it reads are observed instead; a fetch of the old request still under way is
    /// dropped. Call it where the storage lives (the main thread by default).
    /// - Parameter request: the rows to show, in order.
    /// - Throws: the `DatabaseError` of a request that cannot be prepared or run; the
    ///   content and the request stay as they were.
    public func setRequest(_ request: some FetchRequest<Record> & Sendable) throws {
        let fetch: @Sendable (Database) throws -> [Record] = { db in try request.fetchAll(db) }
        let (records, region) = try database.read { db in
            (try fetch(db), try request.databaseRegion(db))
        }
        refresher.replaceFetch(fetch)
        if observation != nil { observe(region) }
        apply(records)
    }

    /// Signals the refresher right after each commit through `database` that touches
    /// `region` (replacing any earlier observation).
    private func observe(_ region: DatabaseRegion) {
        observation?.cancel()
        let refresher = self.refresher
        observation = DatabaseRegionObservation(tracking: region).start(
            in: database,
            onError: { _ in refresher.signal() },
            onChange: { _ in refresher.signal() })
    }

    private func receive(_ result: Result<[Record], Error>) {
        switch result {
        case .success(let records):
            apply(records)
        case .failure(let error):
            onError?(error)
            fetchCount += 1
            onFetch?()
        }
    }

    private func apply(_ records: [Record]) {
        show(makeSnapshot(records))
        fetchCount += 1
        onFetch?()
    }

    /// Shows `snapshot` (a fetch's result), sorted by `sortOrder`.
    private func show(_ snapshot: ListSnapshot<SectionID, Record>) {
        fetched = snapshot
        var sorted = snapshot
        if let sortOrder {
            // The standard library's sort is stable.
            for index in sorted.sections.indices { sorted.sections[index].items.sort(by: sortOrder) }
        }
        currentSnapshot = sorted
        memory.apply(sorted)
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
