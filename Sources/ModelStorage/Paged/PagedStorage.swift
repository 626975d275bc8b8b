import Foundation

/// `PagedStorage.largestUpdate` until it is set.
package let defaultLargestUpdate = 20_000

/// What every paged storage is, whatever its database: the rows of a query read a page at
/// a time as the list shows them (SQLiteStorage's `PagedQueryStorage`, PostgresStorage's
/// `PostgresQueryStorage`, which read the keys and pages and hand them here).
///
/// Its items are `PagedRow<Record>`s: a row whose page is not here is a placeholder
/// (`record` nil), and its page is read; when the page arrives, each row given out as a
/// placeholder is an `updateItem` with its record, in place. Pages used longest ago are
/// dropped beyond `maximumPages`, so memory stays the keys (packed: under half a byte a row
/// in the table's own order, about 3 bytes in an order of its own) and a few screenfuls of
/// records however far the list scrolls.
open class PagedStorage<Record: Equatable & Sendable, SectionValue: Hashable & Sendable>: Storage {
    /// A block that runs another block where the storage lives (the main thread by default),
    /// blocks given in turn run in that order (a serial queue: a storage takes its reads in
    /// the order they were made).
    public typealias Schedule = @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Reads the records of the rows of some keys off the storage's thread, then hands them
    /// (or the error met) to the block it is given, on any thread.
    package typealias PageReader = @Sendable (_ keys: [Int64], _ done: @escaping @Sendable (Result<[(Int64, Record)], Error>) -> Void) -> Void

    /// Told about every change. Held weakly.
    public weak var delegate: StorageUpdating?
    /// Called after each read of the rows' places is shown: the first, each change of
    /// query, and each change in the database (whether or not it changed the rows). Not
    /// for the first rows shown before every key is read (`isLoaded`).
    public var onLoad: (() -> Void)?
    /// Called after the rows of a page are shown, with the page's number (rows
    /// `page * pageSize ..< (page + 1) * pageSize`, counted across sections).
    public var onPage: ((Int) -> Void)?
    /// How many reads of the rows' places have been shown.
    public private(set) var loadCount = 0
    /// How many of those read every key of the query. A storage following a database's
    /// change log reads every key when it opens and when it has to start again from the
    /// table (no log, a `TRUNCATE`, a log pruned past where it was); it reads the others from
    /// the log: the changed rows alone.
    public private(set) var keyReadCount = 0
    /// The most rows a change may move, insert or delete before the storage shows it by
    /// reloading the list instead (a new order of most rows, a bulk import): the list would
    /// spend longer on so many changes than on building its rows again. Taken by the next
    /// change of query.
    public var largestUpdate = defaultLargestUpdate

    /// The rows read at a time.
    public var pageSize: Int { rows.pageSize }
    /// The most pages kept.
    public var maximumPages: Int { rows.maximumPages }
    /// How many pages have been read.
    public var pagesRead: Int { rows.pagesRead }
    /// How many pages are being read now (a busy indicator's state).
    public var pagesBeingRead: Int { rows.pagesBeingRead }
    /// How many pages are kept: what the storage holds in memory besides the keys.
    public var pagesKept: Int { rows.pagesKept }
    /// Whether every row's place has been read. Before, the storage may already show its
    /// rows (their sections and count, and the first rows' keys, read first so that the
    /// list shows its first screen at once): a row further down is a placeholder with no
    /// key (`PagedRow.id` nil) until then.
    public var isLoaded: Bool { rows.isLoaded }

    package let rows: PagedRows<Record, SectionValue>
    /// Where the storage lives: reads are handed back through it.
    package let schedule: Schedule
    private let header: (SectionValue) -> Any?
    /// Told where the storage lives that a page could not be read (`readPages`), or a
    /// search failed.
    private(set) var readFailed: (Error) -> Void = { _ in }
    /// Makes the reader of one type-ahead search's matches (`searchItem`), of the query
    /// shown when it is made, when the query names what to search in; nil: the storage does
    /// not search.
    package var makeMatchReader: (() -> MatchReader)?
    /// Counts the searches begun: a search's steps stop once another begins.
    var searchCount = 0
    /// The searches begun before every key was read, asked again once they are.
    var searchesWaitingForKeys: [() -> Void] = []

    /// `header` gives the header model of a section's value; `heldPages` is where the key
    /// reads find the pages kept; `schedule` runs blocks where the storage lives. The
    /// subclass reads pages with `readPages(with:)`, hands its reads of the keys to
    /// `show(_:)`.
    package init(pageSize: Int, maximumPages: Int, heldPages: HeldPages = HeldPages(), schedule: @escaping Schedule,
                 header: @escaping (SectionValue) -> Any?) {
        rows = PagedRows(pageSize: pageSize, maximumPages: maximumPages, heldPages: heldPages)
        self.schedule = schedule
        self.header = header
    }

    /// Reads the pages the list asks for with `read`, and shows each where the storage
    /// lives, or hands its error to `failed` there (the page's rows stay placeholders,
    /// read again when shown again).
    package func readPages(with read: @escaping PageReader, failed: @escaping (Error) -> Void) {
        readFailed = failed
        let (box, schedule) = (WeakBox(self), schedule)
        rows.readPage = { page, keys, generation in
            read(keys) { result in
                schedule {
                    guard let storage = box.object, let error = storage.show(result, page: page, generation: generation) else { return }
                    storage.readFailed(error)
                }
            }
        }
    }

    /// Shows a read of the rows' places: the first of a query by reloading, the others as
    /// the changes from the one before.
    package func show(_ read: KeyRead<Record, SectionValue>) {
        // The first rows, told before every key is read: shown, not yet loaded.
        if read.firstRowsOnly {
            // Nothing when they are the first rows shown already.
            guard rows.show(read) == nil else { return }
            delegate?.storageNeedsReloading()
            for page in read.pages.keys.sorted() { onPage?(page) }
            return
        }
        if let update = rows.show(read, hasHeader: { header($0) != nil }) {
            if !update.isEmpty { delegate?.storageDidPerformUpdate(update) }
        } else {
            delegate?.storageNeedsReloading()
        }
        loadCount += 1
        if !read.changesOnly { keyReadCount += 1 }
        if isLoaded, !searchesWaitingForKeys.isEmpty { runSearchesWaitingForKeys() }
        onLoad?()
    }

    /// Shows the records of a page read in the rows that still show its keys; returns the
    /// error that kept it from being read, if one did.
    private func show(_ result: Result<[(Int64, Record)], Error>, page: Int, generation: Int) -> Error? {
        switch rows.pageArrived(result, page: page, generation: generation) {
        case nil:
            return nil
        case .failure(let error)?:
            return error
        case .success(let update)?:
            if !update.isEmpty { delegate?.storageDidPerformUpdate(update) }
            onPage?(page)
            return nil
        }
    }

    // MARK: Storage

    public func numberOfSections() -> Int { rows.places.sectionCount }

    public func numberOfItems(inSection section: Int) -> Int { rows.places.count(inSection: section) }

    public func item(at indexPath: IndexPath) -> Any? { rows.item(at: indexPath) }

    public func headerModel(forSection section: Int) -> Any? { rows.sectionValue(section).flatMap(header) }

    public func footerModel(forSection section: Int) -> Any? { nil }

    /// The rows' places as they are now; its rows are those of the pages here when it is
    /// read, and placeholders for the others, which are read (and updated in place) while
    /// the storage's rows are still in those places.
    public func snapshot() -> any SectionedModels { rows.snapshot(header: header) }

    /// The key of the row at `indexPath` (an SQLite rowid, a PostgreSQL key), or nil for
    /// none (reading nothing).
    public func key(at indexPath: IndexPath) -> Int64? { rows.key(at: indexPath) }

    /// The record of the row at `indexPath` if its page is here (reading nothing).
    public func record(at indexPath: IndexPath) -> Record? { rows.record(at: indexPath) }
}

extension PagedStorage: IdentityLocating {
    /// The index path of the row whose key is `identity` (a row's `id`, described), looked up
    /// among the keys read: no page is read.
    public func indexPath(ofItemIdentifiedBy identity: String) -> IndexPath? {
        guard let key = Int64(identity), let position = rows.places.position(ofKey: key) else { return nil }
        return rows.places.indexPath(of: position)
    }
}

/// A storage that reads its items a page at a time, as they are shown: going through all of
/// its items would read every page (a type-ahead find does not).
public protocol ReadsItemsOnDemand: Storage {}

extension PagedStorage: ReadsItemsOnDemand {}

extension PagedStorage: ProgressivelyLoadingStorage {}

extension PagedStorage: PrefetchingStorage {
    /// Reads the pages of the rows at `indexPaths` that are not here yet, so that they show
    /// their records, not placeholders, when they are scrolled to.
    public func prefetchItems(at indexPaths: [IndexPath]) {
        rows.readAhead(indexPaths.compactMap(rows.places.position(of:)))
    }
}
