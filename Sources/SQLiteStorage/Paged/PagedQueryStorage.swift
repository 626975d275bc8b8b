import Foundation
import GRDB
import ModelStorage

/// A storage of a query's rows that reads them a page at a time, as the list shows them:
/// for tables of millions of rows, which `FetchedResultsStorage` would read whole.
///
/// What it holds:
/// - the sections' values and row counts, and every row's rowid in the query's order
///   (packed, a few bytes a row at most), read off the calling thread when the storage is made or its query
///   changes (the counts and the first rows' rowids are shown first, while the others are
///   read, in the same snapshot; a row further down is a placeholder with no key until then);
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
/// (at once) or from any other connection or process (found at once through inotify, else by
/// polling `data_version` every `pollInterval`) reads the rows' places again (from the
/// table's change log when it has one, `SQLiteChangeLog`: the changed rows alone; else every
/// rowid), and the storage tells its delegate only what changed, in one update: rows
/// inserted, deleted or moved (a row whose section changed too), sections that came or went,
/// and `updateItem`s for the rows of the pages it holds whose records changed (those pages
/// are read again in the same transaction). Bursts of commits are read once.
///
/// No query runs on the calling thread. The storage has no rows until its query's first rows
/// are read (every key is then read next: `isLoaded`, `onLoad`); a query that cannot be read is reported to `onError` and leaves the
/// rows as they were; so does a damaged file whose table lists rows it cannot give
/// (`SQLiteStorageError.unreadableRows`). When another file takes the database's path (`mv new.db old.db`), the
/// storage reports `SQLiteStorageError.fileReplaced` to `onError` (the rows stay those of the
/// old file) and follows the new file once given a connection to it (`setDatabase(_:query:)`).
///
/// ```swift
/// let database = try DatabasePool(path: path)
/// let storage = PagedQueryStorage<Book>(
///     database: database, query: PagedQuery(table: "book", orderBy: "title", sectionBy: "genre"))
/// manager.storage = storage
/// manager.register(BookRow.self)   // ModelTransfer of PagedRow<Book>
/// ```
public final class PagedQueryStorage<Record: FetchableRecord & Equatable & Sendable>: PagedStorage<Record, DatabaseValue> {
    /// The database the query reads, and whose writes are followed at once (a
    /// `DatabasePool` lets pages be read while it is written).
    public private(set) var database: any DatabaseWriter
    /// The rows shown.
    public private(set) var query: PagedQuery

    /// Called (where `schedule` runs blocks) when the query or a page cannot be read; the
    /// rows stay as they were (a page's stay placeholders, read again when shown again).
    public var onError: ((Error) -> Void)?
    /// Reads pages, one at a time, in the order asked.
    private let pageQueue = DispatchQueue(label: "SQLiteStorage.pages")
    /// Runs type-ahead searches (`PagedQuery.searchBy`), beside the reads of pages.
    private let searchQueue = DispatchQueue(label: "SQLiteStorage.search")
    /// Reads the rows' places when the storage is made, its query changes or the database
    /// changes.
    private let refresher: Refresher<KeyRead<Record, DatabaseValue>>
    private var observation: AnyDatabaseCancellable?
    /// Counts the observations started: one started before another is cancelled.
    private var observationCount = 0
    private var stopped = false
    /// Whether to stop following once every key is read (stopped while the first rows
    /// were shown).
    private var stopWhenLoaded = false
    /// Counts the readers made (one a query): the first rows of an earlier one are dropped.
    private var readerCount = 0
    /// Compares a run with the table now and then, when the table has a change log.
    private let driftChecker: DriftChecker

    /// How many times a drift check found the rows differing from the table (writes the
    /// change log did not record), each repaired by the next read of every key, shown as the
    /// smallest update from the rows shown.
    public private(set) var driftsRepaired = 0

    /// Whether each commit is read from the table's change log (`SQLiteChangeLog`), not by a
    /// read of every rowid: the last read of the rows' places found the log (an unsectioned
    /// query with no row still reads its rowids again). Set before `onLoad` is called.
    public private(set) var followsChangeLog = false
    /// The reader of the query shown.
    private var reader: KeyReader<Record>?

    /// A storage of `query`'s rows, read in pages of `pageSize`.
    /// - Parameters:
    ///   - database: a `DatabasePool` or `DatabaseQueue` on the file.
    ///   - query: the rows, their order and their sections.
    ///   - pageSize: the rows read at a time.
    ///   - maximumPages: the most pages kept (at least one screenful is needed).
    ///   - header: the header model of the section of this value (by default its text;
    ///     nil for the one section of an unsectioned query).
    ///   - pollInterval: how often to look for writes from other connections (nil: never; a
    ///     write to the database's files is looked at at once too, through Linux's inotify);
    ///     a look is one `PRAGMA data_version` on a connection of its own.
    ///   - coalescingDelay: how long a change waits before its read, so that writes
    ///     following it close behind are read together.
    ///   - driftCheckInterval: how often, when the table has a change log and `database` is a
    ///     `DatabasePool`, a run of rows (4,096 or so, with its section's count) is compared
    ///     with the table off the storage's reads, to find writes the log did not record
    ///     (triggers turned off); nil: never. A check taking long waits twenty times its
    ///     time before the next.
    ///   - schedule: where results are applied; `DispatchQueue.main.async` by default.
    public init(
        database: any DatabaseWriter,
        query: PagedQuery,
        pageSize: Int = 100,
        maximumPages: Int = 20,
        header: @escaping (DatabaseValue) -> Any? = PagedQueryStorage.sectionTitle,
        pollInterval: Duration? = .milliseconds(100),
        coalescingDelay: Duration = .milliseconds(20),
        driftCheckInterval: Duration? = .seconds(5),
        schedule: @escaping Schedule = { DispatchQueue.main.async(execute: $0) }
    ) {
        self.database = database
        self.query = query
        let heldPages = HeldPages()
        let reader = KeyReader<Record>(query: query, pageSize: max(1, pageSize), heldPages: heldPages, largestUpdate: defaultLargestUpdate)
        refresher = Refresher(database: database, fetch: reader.read, pollInterval: pollInterval,
                              coalescingDelay: coalescingDelay, schedule: schedule)
        driftChecker = DriftChecker(database: database, check: reader.checkForDrift)
        super.init(pageSize: pageSize, maximumPages: maximumPages, heldPages: heldPages, schedule: schedule, header: header)
        let box = WeakBox(self)
        refresher.deliver = { result in box.object?.show(result) }
        let pageQueue = pageQueue
        readPages { keys, done in
            // The query and the database of the rows asked for, read where the storage lives.
            guard let storage = box.object else { return }
            let (query, database) = (storage.query, storage.database)
            pageQueue.async {
                done(Result { try database.read { db in try query.rows(db, keys: keys, as: Record.self) } }
                    .mapError { PageReadError(error: $0, database: ObjectIdentifier(database)) })
            }
        } failed: { [weak self] error in
            guard let self else { return }
            guard let pageError = error as? PageReadError else {
                onError?(error)
                return
            }
            // A read from the database before `setDatabase` (its page is read again).
            guard pageError.database == ObjectIdentifier(database) else { return }
            onError?(pageError.error)
        }
        // A page with fewer rows than places: a row deleted since the keys were read, or a
        // damaged file, which the next read of the keys tells apart.
        rows.pageCameShort = { [refresher] in refresher.signal() }
        searchIfAsked(by: query)
        let first = makeReader(of: query, baseline: nil, database: database)
        refresher.replaceFetch(first.read)
        driftChecker.replace(database: database, check: first.checkForDrift)
        if let driftCheckInterval {
            driftChecker.start(every: driftCheckInterval) { [refresher] in
                // Shown where the storage lives; the read of every key follows.
                schedule { box.object?.driftsRepaired += 1 }
                refresher.signal()
            }
        }
        refresher.startPolling()
        observeTable()
        refresher.signal()
    }

    deinit {
        observation?.cancel()
        refresher.stop()
        driftChecker.stop()
    }

    /// Stops following the database; the rows stay as they are (pages are still read). A
    /// storage showing its first rows reads every key first (else the rows further down
    /// would stay without their keys).
    public func stopObserving() {
        stopped = true
        observation?.cancel()
        observation = nil
        driftChecker.stop()
        if !isLoaded, numberOfSections() > 0 { return stopWhenLoaded = true }
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
        read(query, from: nil)
    }

    /// Reads the rows of `query` from `database` instead, and follows its file from now on:
    /// a connection to the file opened again after another file took its path
    /// (`SQLiteStorageError.fileReplaced`), say. Shown as `setQuery(_:)` shows a query: as the
    /// changes from the rows shown, rows whose records differ updated in place. Open the
    /// new connection once the old one is closed: connections of one process to two files
    /// at one path would share the journal files named after it.
    public func setDatabase(_ database: any DatabaseWriter, query: PagedQuery) {
        read(query, from: database)
    }

    /// Shows the rows of `query`, read from `newDatabase` when given (else from `database`).
    private func read(_ query: PagedQuery, from newDatabase: (any DatabaseWriter)?) {
        // Only what type-ahead find looks in changed: the rows are the same.
        if newDatabase == nil, query != self.query, query.rowsAreThoseOf(self.query) {
            self.query = query
            return searchIfAsked(by: query)
        }
        let sameRecords = isLoaded && query.table == self.query.table && query.columns == self.query.columns && query.rowID == self.query.rowID
        self.query = query
        searchIfAsked(by: query)
        let reader = makeReader(of: query, baseline: sameRecords ? rows.places.keyList : nil, database: newDatabase ?? database)
        if let newDatabase {
            database = newDatabase
            refresher.replaceDatabase(newDatabase, fetch: reader.read)
        } else {
            refresher.replaceFetch(reader.read)
        }
        driftChecker.replace(database: database, check: reader.checkForDrift)
        if !stopped { observeTable() }
        refresher.signal()
    }

    /// Lets type-ahead find search the rows in SQL when `query` names what to search in
    /// (`searchBy`): each search reads the query and the database shown when it begins.
    private func searchIfAsked(by query: PagedQuery) {
        guard query.searchBy != nil else { return makeMatchReader = nil }
        let searchQueue = searchQueue
        makeMatchReader = { [unowned self] in
            let (query, database) = (self.query, self.database)
            return { text, anywhere, scope, done in
                searchQueue.async {
                    done(Result { try database.read { db in try query.matches(db, of: text, anywhere: anywhere, in: scope) } })
                }
            }
        }
    }

    /// A reader of `query`'s rows in `database`, its first read compared with `baseline` if
    /// given, else showing the first rows before every key is read (with the records of the
    /// first pages when `database` is not a pool: its pages wait behind the read of every key).
    private func makeReader(of query: PagedQuery, baseline: KeyList<DatabaseValue>?, database: any DatabaseWriter) -> KeyReader<Record> {
        readerCount += 1
        let (box, schedule, number) = (WeakBox(self), schedule, readerCount)
        let reader = KeyReader<Record>(query: query, pageSize: pageSize, heldPages: rows.heldPages, largestUpdate: largestUpdate,
                                       baseline: baseline, firstRecords: !(database is DatabasePool)) { read in
            schedule {
                guard let storage = box.object, storage.readerCount == number else { return }
                storage.show(read)
            }
        }
        self.reader = reader
        return reader
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

    /// Shows a read of the rows' places, or its error.
    private func show(_ result: Result<KeyRead<Record, DatabaseValue>, Error>) {
        switch result {
        case .failure(let error): onError?(error)
        case .success(let read):
            followsChangeLog = reader?.followsLog ?? false
            show(read)
        }
        if stopWhenLoaded {
            stopWhenLoaded = false
            refresher.stop()
        }
    }

    /// The rowid of the row at `indexPath`, or nil for none (reading nothing).
    public func rowID(at indexPath: IndexPath) -> Int64? { key(at: indexPath) }
}

/// Why a page could not be read, and the database it was read from.
private struct PageReadError: Error {
    let error: Error
    let database: ObjectIdentifier
}
