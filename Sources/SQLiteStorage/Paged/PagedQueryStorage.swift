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
public final class PagedQueryStorage<Record: FetchableRecord & Sendable>: Storage {
    /// A block that runs another block where the storage lives (the main thread by default).
    public typealias Schedule = @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Told about every change. Held weakly.
    public weak var delegate: StorageUpdating?

    /// The database the query reads (a `DatabasePool` lets pages be read while it is written).
    public let database: any DatabaseReader
    /// The rows shown.
    public private(set) var query: PagedQuery
    /// The rows read at a time.
    public let pageSize: Int
    /// The most pages kept.
    public var maximumPages: Int { cache.capacity }

    /// Called (where `schedule` runs blocks) after the rows' places are read and shown:
    /// once after the storage is made, and after each change of query.
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
    /// Whether the rows' places have been read.
    public private(set) var isLoaded = false

    private var keyList = KeyList.empty
    private var cache: PageCache<Record>
    /// Pages being read.
    private var reading: Set<Int> = []
    /// Counts the key lists shown: a page read for an earlier one is dropped.
    private var generation = 0
    private let header: (DatabaseValue) -> Any?
    private let schedule: Schedule
    /// Reads pages, one at a time, in the order asked.
    private let pageQueue = DispatchQueue(label: "SQLiteStorage.pages")
    /// Reads the rows' places.
    private let keyQueue = DispatchQueue(label: "SQLiteStorage.keys")

    /// A storage of `query`'s rows, read in pages of `pageSize`.
    /// - Parameters:
    ///   - database: a `DatabasePool` or `DatabaseQueue` on the file.
    ///   - query: the rows, their order and their sections.
    ///   - pageSize: the rows read at a time.
    ///   - maximumPages: the most pages kept (at least one screenful is needed).
    ///   - header: the header model of the section of this value (by default its text;
    ///     nil for the one section of an unsectioned query).
    ///   - schedule: where results are applied; `DispatchQueue.main.async` by default.
    public init(
        database: any DatabaseReader,
        query: PagedQuery,
        pageSize: Int = 100,
        maximumPages: Int = 20,
        header: @escaping (DatabaseValue) -> Any? = PagedQueryStorage.sectionTitle,
        schedule: @escaping Schedule = { DispatchQueue.main.async(execute: $0) }
    ) {
        self.database = database
        self.query = query
        self.pageSize = max(1, pageSize)
        cache = PageCache(capacity: maximumPages)
        self.header = header
        self.schedule = schedule
        load()
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
    /// places off the calling thread, then shows them (`onLoad`). Pages read for the old
    /// query are dropped.
    public func setQuery(_ query: PagedQuery) {
        self.query = query
        load()
    }

    // MARK: Reading

    /// Reads the sections and the rowids of `query`, then shows them.
    private func load() {
        generation += 1
        let (query, generation, database, capacity) = (query, generation, database, keyList.keys.count)
        let box = WeakBox(self)
        let schedule = schedule
        keyQueue.async {
            let result = Result {
                try database.read { db in try KeyList(counts: query.counts(db), keys: query.keys(db, capacity: capacity)) }
            }
            schedule { box.object?.show(result, generation: generation) }
        }
    }

    private func show(_ result: Result<KeyList, Error>, generation: Int) {
        guard generation == self.generation else { return }
        switch result {
        case .failure(let error):
            onError?(error)
        case .success(let keys):
            keyList = keys
            reading = []
            cache.removeAll()
            isLoaded = true
            delegate?.storageNeedsReloading()
            onLoad?()
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
            cache.keep(rows, as: page)
            var update = StorageUpdate()
            let start = page * pageSize
            for (offset, key) in keys.enumerated() {
                let position = start + offset
                guard keyList.keys.indices.contains(position), keyList.keys[position] == key,
                      let record = cache.record(key), let indexPath = keyList.indexPath(of: position) else { continue }
                update.appendItemUpdate(at: indexPath, model: PagedRow(id: key, record: record))
            }
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
    /// read (placeholders for the others, which it does not read).
    public func snapshot() -> any SectionedModels {
        PagedSnapshot(keyList: keyList, generation: generation, storage: self)
    }

    /// The records of the pages kept, and their number: what the storage holds in memory
    /// besides the rowids.
    public var pagesKept: Int { cache.pageCount }

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
            return PagedRow(id: key, record: storage.cache.record(key))
        }
        func headerModel(forSection section: Int) -> Any? {
            keyList.sectionValues.indices.contains(section) ? storage.header(keyList.sectionValues[section]) : nil
        }
        func footerModel(forSection section: Int) -> Any? { nil }
    }
}
