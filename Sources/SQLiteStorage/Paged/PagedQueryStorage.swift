import Foundation
import GRDB
import ModelStorage

/// A storage of a query's rows that reads them a page at a time, as the list shows them:
/// for tables of millions of rows, which `FetchedResultsStorage` would read whole.
///
/// What it holds:
/// - the sections' values and row counts, and every row's rowid in the query's order
///   (8 bytes a row), read off the calling thread when the storage is made or its query
///   changes;
/// - the records of the pages read last (`maximumPages` pages of `pageSize` rows).
///
/// Its items are `PagedRow<Record>`s. Asking for a row whose page is not here (GTK binding
/// it) gives a placeholder (`record` nil) and reads the page off the calling thread; when
/// the page arrives, each of its rows is an `updateItem` with its record: the list shows it
/// in place, with no splice. Pages used longest ago are dropped beyond `maximumPages`, so
/// memory stays bounded however far the list scrolls; a dropped row is read again when it
/// is shown again.
///
/// It follows the database as `FetchedResultsStorage` does: a commit through `database`
/// (at once) or from any other connection or process (found by polling `data_version`
/// every `pollInterval`) reads the rowids again, and the storage tells its delegate only
/// what changed, in one update: rows inserted, deleted or moved (a row whose section
/// changed too), sections that came or went, and `updateItem`s for the rows of the pages it
/// holds whose records changed (those pages are read again in the same transaction).
/// Bursts of commits are read once.
///
/// No query runs on the calling thread. The storage has no rows until its query is first
/// read (`onLoad`); a query that cannot be read is reported to `onError` and leaves the
/// rows as they were.
///
/// ```swift
/// let database = try DatabasePool(path: path)
/// let storage = PagedQueryStorage<Book>(
///     database: database, query: PagedQuery(table: "book", orderBy: "title", sectionBy: "genre"))
/// manager.storage = storage
/// manager.register(BookRow.self)   // ModelTransfer of PagedRow<Book>
/// ```
public final class PagedQueryStorage<Record: FetchableRecord & Equatable & Sendable>: Storage {
    /// A block that runs another block where the storage lives (the main thread by default).
    public typealias Schedule = @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Told about every change. Held weakly.
    public weak var delegate: StorageUpdating?

    /// The database the query reads, and whose writes are followed at once (a
    /// `DatabasePool` lets pages be read while it is written).
    public let database: any DatabaseWriter
    /// The rows shown.
    public private(set) var query: PagedQuery
    /// The rows read at a time.
    public let pageSize: Int
    /// The most pages kept.
    public var maximumPages: Int { cache.capacity }
    /// The most rows a change may move, insert or delete before the storage shows it by
    /// reloading the list instead (a new order of most rows, a bulk import): the list would
    /// spend longer on so many changes than on building its rows again. Taken by the next
    /// `setQuery(_:)`.
    public var largestUpdate = 20_000

    /// Called (where `schedule` runs blocks) after each read of the rows' places is shown:
    /// after the storage is made, after each change of query, and after each change in the
    /// database (whether or not it changed the rows).
    public var onLoad: (() -> Void)?
    /// Called (where `schedule` runs blocks) when the query or a page cannot be read; the
    /// rows stay as they were (a page's stay placeholders, read again when shown again).
    public var onError: ((Error) -> Void)?
    /// Called (where `schedule` runs blocks) after the rows of a page are shown, with the
    /// page's number (rows `page * pageSize ..< (page + 1) * pageSize`, counted across
    /// sections).
    public var onPage: ((Int) -> Void)?

    /// How many pages have been read.
    public private(set) var pagesRead = 0
    /// How many pages are being read now (a busy indicator's state).
    public var pagesBeingRead: Int { reading.count }
    /// Whether the rows' places have been read.
    public private(set) var isLoaded = false
    /// How many reads of the rows' places have been shown.
    public private(set) var loadCount = 0

    private var keyList = KeyList.empty
    private var cache: PageCache<Record>
    /// Pages being read.
    private var reading: Set<Int> = []
    /// The rows given out as placeholders, whose records are still to be shown.
    private var placeholdersGiven: Set<Int64> = []
    /// Counts the key lists shown: a page read for an earlier one is dropped.
    private var generation = 0
    private let header: (DatabaseValue) -> Any?
    private let schedule: Schedule
    /// Reads pages, one at a time, in the order asked.
    private let pageQueue = DispatchQueue(label: "SQLiteStorage.pages")
    /// Reads the rows' places when the storage is made, its query changes or the database
    /// changes.
    private let refresher: Refresher<KeyRead<Record>>
    /// The pages kept, for the refresher's reads.
    private let heldPages = HeldPages()
    private var observation: AnyDatabaseCancellable?
    /// Counts the observations started: one started before another is cancelled.
    private var observationCount = 0
    private var stopped = false

    /// A storage of `query`'s rows, read in pages of `pageSize`.
    /// - Parameters:
    ///   - database: a `DatabasePool` or `DatabaseQueue` on the file.
    ///   - query: the rows, their order and their sections.
    ///   - pageSize: the rows read at a time.
    ///   - maximumPages: the most pages kept (at least one screenful is needed).
    ///   - header: the header model of the section of this value (by default its text;
    ///     nil for the one section of an unsectioned query).
    ///   - pollInterval: how often to look for writes from other connections (nil: never);
    ///     a look is one `PRAGMA data_version` on a connection of its own.
    ///   - coalescingDelay: how long a change waits before its read, so that writes
    ///     following it close behind are read together.
    ///   - schedule: where results are applied; `DispatchQueue.main.async` by default.
    public init(
        database: any DatabaseWriter,
        query: PagedQuery,
        pageSize: Int = 100,
        maximumPages: Int = 20,
        header: @escaping (DatabaseValue) -> Any? = PagedQueryStorage.sectionTitle,
        pollInterval: Duration? = .milliseconds(100),
        coalescingDelay: Duration = .milliseconds(20),
        schedule: @escaping Schedule = { DispatchQueue.main.async(execute: $0) }
    ) {
        self.database = database
        self.query = query
        self.pageSize = max(1, pageSize)
        cache = PageCache(capacity: maximumPages)
        self.header = header
        self.schedule = schedule
        let reader = KeyReader<Record>(query: query, pageSize: self.pageSize, heldPages: heldPages, largestUpdate: largestUpdate)
        refresher = Refresher(database: database, fetch: reader.read, pollInterval: pollInterval,
                              coalescingDelay: coalescingDelay, schedule: schedule)
        let box = WeakBox(self)
        refresher.deliver = { result in box.object?.show(result) }
        refresher.startPolling()
        observeTable()
        refresher.signal()
    }

    deinit {
        observation?.cancel()
        refresher.stop()
    }

    /// Stops following the database; the rows stay as they are (pages are still read).
    public func stopObserving() {
        stopped = true
        observation?.cancel()
        observation = nil
        refresher.stop()
    }

    /// The text of a section's value, as its header model (nil for `NULL`, the value of
    /// the one section of an unsectioned query).
    public static func sectionTitle(_ value: DatabaseValue) -> Any? {
        switch value.storage {
        case .null: nil
        case .int64(let integer): "\(integer)"
        case .double(let real): "\(real)"
        case .string(let text): text
        case .blob(let data): "\(data.count) bytes"
        }
    }

    /// Shows the rows of `query` instead (another search, another order): reads their
    /// places off the calling thread, then shows them (`onLoad`) as the changes from the
    /// rows shown (rows that went, came or moved), or by reloading when most rows changed
    /// places or the query reads other columns or another table (its records differ).
    public func setQuery(_ query: PagedQuery) {
        let sameRecords = isLoaded && query.table == self.query.table && query.columns == self.query.columns && query.rowID == self.query.rowID
        self.query = query
        let reader = KeyReader<Record>(query: query, pageSize: pageSize, heldPages: heldPages, largestUpdate: largestUpdate,
                                       baseline: sameRecords ? keyList : nil)
        refresher.replaceFetch(reader.read)
        if !stopped { observeTable() }
        refresher.signal()
    }

    /// Reads the rows' places again now, as if the database had changed.
    public func refresh() {
        refresher.signal()
    }

    // MARK: Reading

    /// Signals the refresher right after each commit through `database` that touches the
    /// query's table (replacing any earlier observation). The observation starts off the
    /// calling thread (GRDB reads the schema for it, and waits for the writer); a commit
    /// meanwhile is found by polling.
    private func observeTable() {
        observation?.cancel()
        observation = nil
        observationCount += 1
        let (refresher, database, table, count, schedule) = (refresher, database, query.table, observationCount, schedule)
        let box = WeakBox(self)
        pageQueue.async {
            let observation = DatabaseRegionObservation(tracking: Table(table)).start(
                in: database,
                onError: { _ in refresher.signal() },
                onChange: { _ in refresher.signal() })
            schedule {
                guard let storage = box.object, storage.observationCount == count, !storage.stopped else { return observation.cancel() }
                storage.observation = observation
            }
        }
    }

    /// Shows a read of the rows' places: the first of a query by reloading, the others as
    /// the changes from the one before.
    private func show(_ result: Result<KeyRead<Record>, Error>) {
        switch result {
        case .failure(let error):
            onError?(error)
            return
        case .success(let read):
            keyList = read.keys
            if var update = read.update {
                for (page, rows) in read.pages.sorted(by: { $0.key < $1.key }) { keep(rows, as: page, reporting: &update) }
                if !update.isEmpty { delegate?.storageDidPerformUpdate(update) }
            } else {
                generation += 1
                reading = []
                placeholdersGiven = []
                cache.removeAll()
                heldPages.set([])
                isLoaded = true
                delegate?.storageNeedsReloading()
            }
        }
        loadCount += 1
        onLoad?()
    }

    /// Keeps `rows` as `page`, and adds to `update` an `updateItem` for each of its rows
    /// still in its place that was given out as a placeholder, or whose record changed.
    private func keep(_ rows: [(Int64, Record)], as page: Int, reporting update: inout StorageUpdate) {
        var changed = Set<Int64>()
        for (key, record) in rows where cache.record(key).map({ $0 != record }) == true { changed.insert(key) }
        cache.keep(rows, as: page)
        heldPages.set(cache.pageNumbers)
        let start = page * pageSize
        for position in start..<min(start + pageSize, keyList.keys.count) {
            let key = keyList.keys[position]
            guard placeholdersGiven.remove(key) != nil || changed.contains(key), let record = cache.record(key),
                  let indexPath = keyList.indexPath(of: position) else { continue }
            update.appendItemUpdate(at: indexPath, model: PagedRow(id: key, record: record))
        }
    }

    /// The row at `position` (counted across sections), a placeholder when its page is
    /// not here; asks for the page then.
    private func row(at position: Int) -> PagedRow<Record> {
        let key = keyList.keys[position]
        let page = position / pageSize
        if let record = cache.record(key) {
            cache.use(page)
            return PagedRow(id: key, record: record)
        }
        read(page)
        placeholdersGiven.insert(key)
        return PagedRow(id: key, record: nil)
    }

    /// Reads `page` off the calling thread, unless it is being read.
    private func read(_ page: Int) {
        guard !reading.contains(page) else { return }
        reading.insert(page)
        let start = page * pageSize
        let keys = Array(keyList.keys[start..<min(start + pageSize, keyList.keys.count)])
        let (query, generation, database) = (query, generation, database)
        let box = WeakBox(self)
        let schedule = schedule
        pageQueue.async {
            let result = Result { try database.read { db in try query.rows(db, keys: keys, as: Record.self) } }
            schedule { box.object?.show(result, page: page, keys: keys, generation: generation) }
        }
    }

    /// Keeps a page read and shows its records in the rows that still show its rowids.
    private func show(_ result: Result<[(Int64, Record)], Error>, page: Int, keys: [Int64], generation: Int) {
        guard generation == self.generation else { return }
        reading.remove(page)
        pagesRead += 1
        switch result {
        case .failure(let error):
            onError?(error)
        case .success(let rows):
            var update = StorageUpdate()
            keep(rows, as: page, reporting: &update)
            if !update.isEmpty { delegate?.storageDidPerformUpdate(update) }
            onPage?(page)
        }
    }

    // MARK: Storage

    public func numberOfSections() -> Int { keyList.sectionCount }

    public func numberOfItems(inSection section: Int) -> Int { keyList.count(inSection: section) }

    public func item(at indexPath: IndexPath) -> Any? {
        keyList.position(of: indexPath).map(row(at:))
    }

    public func headerModel(forSection section: Int) -> Any? {
        keyList.sectionValues.indices.contains(section) ? header(keyList.sectionValues[section]) : nil
    }

    public func footerModel(forSection section: Int) -> Any? { nil }

    /// The rows' places as they are now; its rows are those of the pages here when it is
    /// read, and placeholders for the others, which are read (and updated in place) while
    /// the storage's rows are still in those places.
    public func snapshot() -> any SectionedModels {
        PagedSnapshot(keyList: keyList, generation: generation, storage: self)
    }

    /// The records of the pages kept, and their number: what the storage holds in memory
    /// besides the rowids.
    public var pagesKept: Int { cache.pageCount }

    /// The rowid of the row at `indexPath`, or nil for none (reading nothing).
    public func rowID(at indexPath: IndexPath) -> Int64? {
        keyList.position(of: indexPath).map { keyList.keys[$0] }
    }

    /// The record of the row at `indexPath` if its page is here (reading nothing).
    public func record(at indexPath: IndexPath) -> Record? {
        keyList.position(of: indexPath).flatMap { cache.record(keyList.keys[$0]) }
    }

    /// A storage's rows at one moment.
    private struct PagedSnapshot: SectionedModels {
        let keyList: KeyList
        let generation: Int
        let storage: PagedQueryStorage

        func numberOfSections() -> Int { keyList.sectionCount }
        func numberOfItems(inSection section: Int) -> Int { keyList.count(inSection: section) }
        func item(at indexPath: IndexPath) -> Any? {
            guard let position = keyList.position(of: indexPath) else { return nil }
            let key = keyList.keys[position]
            if let record = storage.cache.record(key) { return PagedRow(id: key, record: record) }
            if storage.keyList.keys.indices.contains(position), storage.keyList.keys[position] == key {
                return storage.row(at: position)
            }
            return PagedRow<Record>(id: key, record: nil)
        }
        func headerModel(forSection section: Int) -> Any? {
            keyList.sectionValues.indices.contains(section) ? storage.header(keyList.sectionValues[section]) : nil
        }
        func footerModel(forSection section: Int) -> Any? { nil }
    }
}
