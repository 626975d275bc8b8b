import Foundation

/// What one read of a paged query's keys brings to its storage.
package struct KeyRead<Record: Sendable, SectionValue: Hashable & Sendable>: Sendable {
    /// The sections and keys now.
    package let keys: any RowPlaces<SectionValue>
    /// The changes from the keys of the read before (or those shown when the query
    /// changed), or nil when the list is best reloaded: the first read of the storage (or its
    /// first rows; every key then follows as no change), or too many rows changed places.
    package let update: StorageUpdate?
    /// The rows of the pages the storage held when the read began, at their places in
    /// `keys`, read with the keys (in one transaction where the database has them).
    package let pages: [Int: [(Int64, Record)]]
    /// Whether the read was of the changed rows alone (from a change log), not of every key.
    package let changesOnly: Bool
    /// The rows a read of the changes alone found changed: those whose pages it did not read
    /// are forgotten (their records may be old), and read again when shown.
    package let changedKeys: [Int64]
    /// Where the changed rows that are rows now are (counted across sections), with the
    /// record of each read with the keys, if it was: a record is kept where the row's page is
    /// kept, as a page read with the keys is; a page kept whose changed row came without one
    /// is read again.
    package let changedRecords: [Int64: (position: Int, record: Record?)]
    /// The records of rows read with the keys for pages of several sizes (the storages of a
    /// PostgreSQL feed), from which each storage's `pages` are made (`withPages`).
    package let rowsRead: [Int64: Record]
    /// Whether `keys` are the first rows' alone (`FirstKeys`), told before every key is read
    /// so that the list shows its first screen at once; the read of every key follows, in
    /// the same snapshot, as an update with no change.
    package let firstRowsOnly: Bool

    package init(keys: any RowPlaces<SectionValue>, update: StorageUpdate?, pages: [Int: [(Int64, Record)]], changesOnly: Bool = false,
                 changedKeys: [Int64] = [], changedRecords: [Int64: (position: Int, record: Record?)] = [:], rowsRead: [Int64: Record] = [:],
                 firstRowsOnly: Bool = false) {
        self.keys = keys
        self.update = update
        self.pages = pages
        self.changesOnly = changesOnly
        self.changedKeys = changedKeys
        self.changedRecords = changedRecords
        self.rowsRead = rowsRead
        self.firstRowsOnly = firstRowsOnly
    }

    /// The first rows of a query, told before every key is read: its sections' `counts`, the
    /// first rows' `keys`, and the records of the first `pages`, if read. Nil when the query has
    /// no row (nothing to show early).
    package static func firstRows(counts: [(value: SectionValue, count: Int)], keys: [Int64],
                                  pages: [Int: [(Int64, Record)]] = [:]) -> KeyRead? {
        guard counts.contains(where: { $0.count > 0 }) else { return nil }
        return KeyRead(keys: FirstKeys(counts: counts, firstKeys: keys), update: nil, pages: pages, firstRowsOnly: true)
    }

    /// The pages whose records a read of the first rows brings with their keys, pages being
    /// `size` rows: those of the first `firstRecordsRead` rows whose keys are all among the
    /// first `keysRead` of `rowCount` rows.
    package static func firstPages(size: Int, keysRead: Int, rowCount: Int) -> Range<Int> {
        let size = max(1, size)
        let keyed = keysRead >= rowCount ? (rowCount + size - 1) / size : keysRead / size
        return 0..<min(keyed, (firstRecordsRead + size - 1) / size)
    }

    /// This read, its `pages` those of `held` (of `size` rows) whose every row `rowsRead` has.
    package func withPages(_ held: Set<Int>, size: Int) -> KeyRead {
        guard !rowsRead.isEmpty else { return self }
        var pages: [Int: [(Int64, Record)]] = [:]
        for page in held {
            let keys = self.keys.places(ofPage: page, size: size).compactMap(self.keys.key(at:))
            let rows = keys.compactMap { key in rowsRead[key].map { (key, $0) } }
            if !rows.isEmpty, rows.count == keys.count { pages[page] = rows }
        }
        return KeyRead(keys: keys, update: update, pages: pages, changesOnly: changesOnly, changedKeys: changedKeys,
                       changedRecords: changedRecords)
    }
}

/// The pages a storage holds, as its key reads see them from their own thread, and the
/// pages that came back short, which the next key read checks against its keys.
package final class HeldPages: @unchecked Sendable {
    private let lock = NSLock()
    private var held: Set<Int> = []
    private var short: Set<Int> = []

    package init() {}

    package var pages: Set<Int> { lock.withLock { held } }

    package func set(_ pages: Set<Int>) { lock.withLock { held = pages } }

    /// Pages read with fewer rows than they have places (a row gone since the keys were
    /// read, or a damaged file), to be read again with the next read of the keys.
    package var shortPages: Set<Int> { lock.withLock { short } }

    /// Notes that `page` came back short.
    package func cameShort(_ page: Int) { _ = lock.withLock { short.insert(page) } }

    /// Notes that `pages` were read again with the keys.
    package func checked(_ pages: Set<Int>) { lock.withLock { short.subtract(pages) } }
}

/// The rows of a paged storage, which SQLite's and PostgreSQL's paged storages share:
/// where every row is (a `KeyList`), the records of the pages kept, the pages being read,
/// and the rows given out as placeholders. It lives where its storage lives; the storage
/// reads keys and pages from its database and hands the results here.
///
/// A row whose page is not kept is given out as a placeholder, and its page is asked for
/// (`readPage`); when the page arrives (`pageArrived`), each of its rows given out as a
/// placeholder, or whose record changed, becomes an `updateItem` with its record.
package final class PagedRows<Record: Equatable & Sendable, SectionValue: Hashable & Sendable> {
    /// Asks the storage to read the rows `keys`, page `page` of the key list of
    /// `generation`, and to hand them to `pageArrived`.
    package typealias PageRequest = (_ page: Int, _ keys: [Int64], _ generation: Int) -> Void

    /// Where every row is.
    package private(set) var places: any RowPlaces<SectionValue> = KeyList<SectionValue>.empty
    /// The rows read at a time.
    package let pageSize: Int
    /// The pages kept, for the storage's key reads.
    package let heldPages: HeldPages
    /// How many pages have arrived.
    package private(set) var pagesRead = 0
    /// Whether the rows' places have been read.
    package private(set) var isLoaded = false
    /// Counts the key lists shown by reloading: a page read for an earlier one is dropped.
    package private(set) var generation = 0
    /// Asks for a page.
    package var readPage: PageRequest = { _, _, _ in }

    private var cache: PageCache<Record>
    /// Pages being read.
    private var reading: Set<Int> = []
    /// The rows given out as placeholders, whose records are still to be shown.
    private var placeholdersGiven: Set<Int64> = []
    /// The positions of rows given out as placeholders before their keys were read (the
    /// first rows shown alone): their pages are read once the keys are.
    private var unkeyedGiven: Set<Int> = []
    /// Pages that could not be read (a connection lost, a database locked): read again
    /// after the next read of the keys that succeeds.
    private var failedPages: Set<Int> = []
    /// The reads of the keys shown so far; for each page being read, how many had been
    /// when it was asked for; and for each row a read changed while pages were being read,
    /// the read that did: such a page brings the row's record as it was before.
    private var keyReadsShown = 0
    private var askedAfter: [Int: Int] = [:]
    /// How many keys each page being read was asked for with (fewer than its rows before
    /// every key is read).
    private var keysAsked: [Int: Int] = [:]
    private var changedBy: [Int64: Int] = [:]

    package init(pageSize: Int, maximumPages: Int, heldPages: HeldPages = HeldPages()) {
        self.pageSize = max(1, pageSize)
        self.heldPages = heldPages
        cache = PageCache(capacity: maximumPages)
    }

    /// The most pages kept.
    package var maximumPages: Int { cache.capacity }
    /// How many pages are kept.
    package var pagesKept: Int { cache.pageCount }
    /// How many pages are being read now.
    package var pagesBeingRead: Int { reading.count }

    /// Takes a read of the keys: returns its changes, the records of the pages read with
    /// it included (`updateItem`s), or nil when the list must be reloaded (the first read,
    /// or too many changes), after which every page is read anew. Pages that could not be
    /// read are asked for again. `hasHeader` says whether a section's value has a header
    /// model (for a section that every key inserts after the first rows).
    package func show(_ read: KeyRead<Record, SectionValue>, hasHeader: (SectionValue) -> Bool = { _ in true }) -> StorageUpdate? {
        // First rows shown again (a read of every key failed after them) change nothing when
        // they are the rows shown; every key corrects the counts of the first rows shown
        // (estimates, perhaps) at the sections' ends, or reloads the list when a first row
        // differs.
        let previewing = !isLoaded && places.rowCount > 0
        if previewing, read.firstRowsOnly, Self.sameRows(places, read.keys, keysUpTo: firstKeysRead) {
            places = read.keys
            return StorageUpdate()
        }
        let correction = previewing && !read.firstRowsOnly && read.update != nil ? places.correction(to: read.keys, hasHeader: hasHeader) : nil
        let reload = read.update == nil || (previewing && !read.firstRowsOnly && correction == nil)
        if let correction, !correction.isEmpty { unkeyedGiven = Self.places(of: unkeyedGiven, from: places, in: read.keys) }
        places = read.keys
        keyReadsShown += 1
        defer { failedPages = [] }
        guard !reload, var update = correction ?? read.update else {
            generation += 1
            reading = []
            (askedAfter, changedBy, keysAsked) = ([:], [:], [:])
            (placeholdersGiven, unkeyedGiven) = ([], [])
            cache.removeAll()
            // The first rows may come with their records: the list's first screen at once.
            for (page, rows) in read.pages.sorted(by: { $0.key < $1.key }) where read.firstRowsOnly {
                cache.keep(rows, as: page)
                pagesRead += 1
            }
            heldPages.set(cache.pageNumbers)
            isLoaded = !read.firstRowsOnly
            return nil
        }
        isLoaded = true
        var stale: Set<Int> = []
        if !read.changedKeys.isEmpty {
            if !reading.isEmpty { for key in read.changedKeys { changedBy[key] = keyReadsShown } }
            let reread = Set(read.pages.values.joined().map(\.0))
            for key in read.changedKeys where !reread.contains(key) {
                guard let (position, record) = read.changedRecords[key], cache.holds(position / pageSize) else {
                    cache.forget(key)
                    continue
                }
                if let record {
                    keep(record, of: key, at: position, reporting: &update)
                } else {
                    cache.forget(key)
                    stale.insert(position / pageSize)
                }
            }
        }
        for (page, rows) in read.pages.sorted(by: { $0.key < $1.key }) { keep(rows, as: page, reporting: &update) }
        // A page being read is read again when it arrives, if a row changed meanwhile.
        for page in stale.sorted() where !reading.contains(page) { request(page) }
        for page in failedPages.sorted() where !reading.contains(page) && !cache.holds(page) { request(page) }
        giveKeys(reporting: &update)
        return update
    }

    /// The positions in `new` of the rows at `positions` in `old`: the same item of the
    /// section of the same value, where it still has that many rows.
    private static func places(of positions: Set<Int>, from old: any RowPlaces<SectionValue>, in new: any RowPlaces<SectionValue>) -> Set<Int> {
        let sections = Dictionary(new.sectionValues.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return Set(positions.compactMap { position in
            guard let indexPath = old.indexPath(of: position), let section = sections[old.sectionValues[indexPath.section]] else { return nil }
            return new.position(of: IndexPath(item: indexPath.item, section: section))
        })
    }

    /// Whether `a` and `b` have the same sections, the same counts, and the same keys at the
    /// first `keysUpTo` positions.
    private static func sameRows(_ a: any RowPlaces<SectionValue>, _ b: any RowPlaces<SectionValue>, keysUpTo: Int) -> Bool {
        a.sectionValues == b.sectionValues && a.sectionValues.indices.allSatisfy { a.count(inSection: $0) == b.count(inSection: $0) }
            && (0..<min(keysUpTo, a.rowCount)).allSatisfy { a.key(at: $0) == b.key(at: $0) }
    }

    /// The rows given out before their keys were read, whose keys are read now: each is an
    /// `updateItem` with its record (its page read first when it is not kept).
    private func giveKeys(reporting update: inout StorageUpdate) {
        var pages: Set<Int> = []
        for position in unkeyedGiven.sorted() {
            guard let key = places.key(at: position) else { continue }
            unkeyedGiven.remove(position)
            if let record = cache.record(key), let indexPath = places.indexPath(of: position) {
                update.appendItemUpdate(at: indexPath, model: PagedRow(id: key, record: record))
            } else {
                placeholdersGiven.insert(key)
                pages.insert(position / pageSize)
            }
        }
        for page in pages.sorted() where !reading.contains(page) { request(page) }
    }

    /// Takes a page read for the key list of `generation`: its rows' `updateItem`s, the
    /// error that kept it from being read, or nil when it was read for an earlier list.
    /// A page with fewer rows than places is kept as it came (its other rows stay
    /// placeholders) and noted for the next read of the keys, which reads it again.
    package func pageArrived(_ result: Result<[(Int64, Record)], Error>, page: Int, generation: Int) -> Result<StorageUpdate, Error>? {
        guard generation == self.generation else { return nil }
        reading.remove(page)
        let asked = askedAfter.removeValue(forKey: page) ?? keyReadsShown
        let keys = keysAsked.removeValue(forKey: page) ?? places(of: page).count
        if reading.isEmpty { changedBy = [:] }
        pagesRead += 1
        if case .failure = result { failedPages.insert(page) }
        return result.map { rows in
            var update = StorageUpdate()
            // A row a read changed after the page was asked for keeps the record that read
            // brought, if any; else the page is read again.
            var current: [(Int64, Record)] = []
            var readAgain = false
            for (key, record) in rows {
                if let changed = changedBy[key], changed > asked {
                    if let newer = cache.record(key) { current.append((key, newer)) } else { readAgain = true }
                } else {
                    current.append((key, record))
                }
            }
            keep(current, as: page, reporting: &update)
            if rows.count < keys {
                heldPages.cameShort(page)
                pageCameShort()
            }
            // Asked before its keys were all read, and they are now: read again, whole.
            if keys < places(of: page).count, places(of: page).compactMap(places.key(at:)).count > keys { readAgain = true }
            if readAgain { request(page) }
            return update
        }
    }

    /// Called when a page arrives with fewer rows than places: the keys are to be read
    /// again (with the page).
    package var pageCameShort: () -> Void = {}

    /// The positions of `page`'s rows.
    private func places(of page: Int) -> Range<Int> {
        places.places(ofPage: page, size: pageSize)
    }

    /// Keeps `rows` as `page`, and adds to `update` an `updateItem` for each of its rows
    /// still in its place that was given out as a placeholder, or whose record changed.
    private func keep(_ rows: [(Int64, Record)], as page: Int, reporting update: inout StorageUpdate) {
        var changed = Set<Int64>()
        for (key, record) in rows where cache.record(key).map({ $0 != record }) == true { changed.insert(key) }
        cache.keep(rows, as: page)
        heldPages.set(cache.pageNumbers)
        for position in places(of: page) {
            // A row the page did not bring stays a placeholder given out.
            guard let key = places.key(at: position), let record = cache.record(key),
                  placeholdersGiven.remove(key) != nil || changed.contains(key), let indexPath = places.indexPath(of: position) else { continue }
            update.appendItemUpdate(at: indexPath, model: PagedRow(id: key, record: record))
        }
    }

    /// Keeps `record` as the row `key`'s, at `position` in a page kept, and adds to `update`
    /// its `updateItem` when it was given out as a placeholder or its record changed (as
    /// `keep(_:as:reporting:)` does for a page).
    private func keep(_ record: Record, of key: Int64, at position: Int, reporting update: inout StorageUpdate) {
        // A row inserted has its record when the list asks for it: no update.
        let changed = cache.record(key).map { $0 != record } == true
        cache.keep(record, of: key, inPage: position / pageSize)
        guard placeholdersGiven.remove(key) != nil || changed, places.key(at: position) == key,
              let indexPath = places.indexPath(of: position) else { return }
        update.appendItemUpdate(at: indexPath, model: PagedRow(id: key, record: record))
    }

    /// Reads every page kept again (not those being read, nor those of `read`, which came
    /// with the keys): after a read of every key, whose rows' records may have changed where
    /// their places did not. Each record that changed is an `updateItem` when its page arrives.
    package func readKeptPagesAgain(except read: Set<Int> = []) {
        for page in cache.pageNumbers.subtracting(read).sorted() where !reading.contains(page) { request(page) }
    }

    /// The row at `position` (counted across sections), a placeholder when its page is
    /// not kept; asks for the page then. A placeholder with no key when its key is not read
    /// yet (its page is read once it is); nil past the last row.
    package func row(at position: Int) -> PagedRow<Record>? {
        guard position >= 0, position < places.rowCount else { return nil }
        guard let key = places.key(at: position) else {
            unkeyedGiven.insert(position)
            return PagedRow(id: nil, record: nil)
        }
        let page = position / pageSize
        if let record = cache.record(key) {
            cache.use(page)
            return PagedRow(id: key, record: record)
        }
        if !reading.contains(page) { request(page) }
        placeholdersGiven.insert(key)
        return PagedRow(id: key, record: nil)
    }

    /// Reads the pages of the rows at `positions` that are neither kept nor being read,
    /// before the list asks for those rows (they are about to be shown): nothing is given out,
    /// so their arrival updates no row.
    package func readAhead(_ positions: [Int]) {
        for position in positions where position >= 0 && position < places.rowCount {
            let page = position / pageSize
            guard !reading.contains(page), let key = places.key(at: position), cache.record(key) == nil else { continue }
            request(page)
        }
    }

    /// Asks for `page` of the keys now.
    private func request(_ page: Int) {
        let places = places(of: page)
        guard !places.isEmpty else { return }
        let keys = places.compactMap(self.places.key(at:))
        guard !keys.isEmpty else { return }
        reading.insert(page)
        askedAfter[page] = keyReadsShown
        keysAsked[page] = keys.count
        readPage(page, keys, generation)
    }

    // MARK: What the storage answers

    /// The row at `indexPath` (see `row(at:)`), or nil for none.
    package func item(at indexPath: IndexPath) -> PagedRow<Record>? {
        places.position(of: indexPath).flatMap(row(at:))
    }

    /// The value of `section`, if there is one.
    package func sectionValue(_ section: Int) -> SectionValue? {
        places.sectionValues.indices.contains(section) ? places.sectionValues[section] : nil
    }

    /// The key of the row at `indexPath`, or nil for none (reading nothing).
    package func key(at indexPath: IndexPath) -> Int64? {
        places.position(of: indexPath).flatMap(places.key(at:))
    }

    /// The record of the row at `indexPath` if its page is kept (reading nothing).
    package func record(at indexPath: IndexPath) -> Record? {
        places.position(of: indexPath).flatMap(places.key(at:)).flatMap(cache.record)
    }

    /// The rows' places as they are now, with `header` the header model of a section's
    /// value: its rows are those of the pages kept when it is read, and placeholders for
    /// the others, which are read (and updated in place) while the rows are still in those
    /// places.
    package func snapshot(header: @escaping (SectionValue) -> Any?) -> any SectionedModels {
        Snapshot(places: places, rows: self, header: header)
    }

    /// The rows at one moment.
    private struct Snapshot: SectionedModels {
        let places: any RowPlaces<SectionValue>
        let rows: PagedRows
        let header: (SectionValue) -> Any?

        func numberOfSections() -> Int { places.sectionCount }
        func numberOfItems(inSection section: Int) -> Int { places.count(inSection: section) }
        func item(at indexPath: IndexPath) -> Any? {
            guard let position = places.position(of: indexPath) else { return nil }
            guard let key = places.key(at: position) else { return rows.row(at: position) ?? PagedRow<Record>(id: nil, record: nil) }
            if let record = rows.cache.record(key) { return PagedRow(id: key, record: record) }
            if rows.places.key(at: position) == key { return rows.row(at: position) }
            return PagedRow<Record>(id: key, record: nil)
        }
        func headerModel(forSection section: Int) -> Any? {
            places.sectionValues.indices.contains(section) ? header(places.sectionValues[section]) : nil
        }
        func footerModel(forSection section: Int) -> Any? { nil }
    }
}
