import Foundation
import GRDB
import ModelStorage

/// How many rows a run of a paged query starts with (`SQLiteRuns`).
let sqliteRunSize = 4096

/// Reads a query's rows again and again (each time the database changes), each read
/// compared with the one before. Used on the refresher's queue only: a new query gets a new
/// reader, whose first read is compared with the keys shown (`baseline`), if any.
///
/// When the table has a change log (`SQLiteChangeLog`), a read after the first reads the log
/// instead of every key: the rows the commits since changed, placed among the runs by
/// SQLite (`SQLitePlacement`). Every key is read again when the log does not say it all: no
/// log, a change of the file's schema, a log pruned past the last read, too many changes.
final class KeyReader<Record: FetchableRecord & Sendable>: @unchecked Sendable {
    private let query: PagedQuery
    private let pageSize: Int
    private let heldPages: HeldPages
    /// The most rows a read's changes may touch before it reloads the list instead.
    private let largestUpdate: Int
    /// The rows of the last read, as runs (their keys packed; changes from the log are
    /// applied to them), or as one list when the runs would not show its sections.
    private var last: SQLiteRuns?
    private var lastList: KeyList<DatabaseValue>?
    /// The keys shown when the reader was made, until its first read.
    private var baseline: KeyList<DatabaseValue>?
    /// Where the last read left the table's log, if it has one.
    private var position: SQLiteChangeLog.Position?
    /// Told the first rows of a read that reloads the list, before every key is read.
    private let firstRows: @Sendable (KeyRead<Record, DatabaseValue>) -> Void
    /// Whether the first rows come with the records of the first pages: when the database
    /// is not a pool, whose pages would wait behind the read of every key.
    private let firstRecords: Bool
    /// The runs of the last read, the log's position then and the number of the read, for
    /// the drift checks (on another queue); and whether one found the runs differing from the
    /// table (the next read then reads every key). Guarded by `checkLock`.
    private let checkLock = NSLock()
    private var checked: (runs: SQLiteRuns, position: SQLiteChangeLog.Position, read: Int)?
    private var readsDone = 0
    private var driftFound = false

    /// Whether the next read reads the changes from the table's change log, not every key:
    /// the last read found the log and holds runs to apply them to. Safe on any thread.
    var followsLog: Bool { checkLock.withLock { checked != nil } }

    /// A reader of `query`, whose first read is compared with `baseline` when given; else
    /// it tells `firstRows` the sections' counts and the first rows' keys before it reads
    /// every key.
    init(query: PagedQuery, pageSize: Int, heldPages: HeldPages, largestUpdate: Int, baseline: KeyList<DatabaseValue>? = nil, firstRecords: Bool = false,
         firstRows: @escaping @Sendable (KeyRead<Record, DatabaseValue>) -> Void = { _ in }) {
        self.query = query
        self.pageSize = pageSize
        self.heldPages = heldPages
        self.largestUpdate = largestUpdate
        self.baseline = baseline
        self.firstRows = firstRows
        self.firstRecords = firstRecords
    }

    /// Reads the changes since the last read from the log if it can, else every key; with
    /// the held pages' rows, in one transaction.
    func read(_ db: Database) throws -> KeyRead<Record, DatabaseValue> {
        let now = try SQLiteChangeLog.position(of: query.table, in: db)
        let drifted = checkLock.withLock { driftFound }
        let read: KeyRead<Record, DatabaseValue>
        if !drifted, let now, let position, let last, now.schemaVersion == position.schemaVersion, heldPages.shortPages.isEmpty,
           let changes = try readChanges(db, into: last, from: position) {
            read = changes
        } else {
            read = try readKeys(db, position: now)
        }
        // A drift found is repaired only by a read that succeeds; one found during a read that
        // began without one is read next time (no drift is found while one is owed).
        checkLock.withLock {
            if drifted { driftFound = false }
            readsDone += 1
            checked = self.position.flatMap { position in self.last.map { ($0, position, readsDone) } }
        }
        return read
    }

    /// Reads every key, their changes since the last read, and the held pages' rows. Pages
    /// that came back short since the last read are read too: a page with fewer rows than the
    /// keys just read list for it (a rowid listed twice, or listed but not found) means a
    /// damaged file, `SQLiteStorageError.unreadableRows`.
    private func readKeys(_ db: Database, position: SQLiteChangeLog.Position?) throws -> KeyRead<Record, DatabaseValue> {
        let before = lastList ?? last?.keyList ?? baseline
        // A reload shows the first rows at once; every key, read next in the same snapshot,
        // then corrects the counts or changes nothing.
        let (toldFirstRows, counted) = before == nil ? try tellFirstRows(db) : (false, nil)
        let counts = try counted ?? query.counts(db)
        let keys = try KeyList(counts: counts, keys: query.keys(db, capacity: before?.keys.count ?? 0))
        let update = toldFirstRows ? StorageUpdate() : before.flatMap { keys.update(from: $0, limit: largestUpdate, noSection: .null) }
        // Held as runs, their keys packed (a few bytes a row), where changes are applied to
        // them and where every key is read again alike; unless they do not show the same
        // sections (an unsectioned query with no row is one empty section, which runs do not
        // keep).
        let runs = SQLiteRuns(keys, runSize: sqliteRunSize)
        let places: any RowPlaces<DatabaseValue> = runs.sectionCount == keys.sectionCount ? runs : keys
        let short = heldPages.shortPages
        let pages = try self.pages(before == nil ? short : heldPages.pages.union(short), of: places, db)
        heldPages.checked(short)
        (last, lastList, baseline, self.position) = (places as? SQLiteRuns, places as? KeyList<DatabaseValue>, nil, position)
        return KeyRead(keys: places, update: update, pages: pages)
    }

    /// Reads the log's changes after `position` and applies them to `runs`, with the rows of
    /// the held pages they touched; nil when every key is to be read instead (too many
    /// changes, a log pruned past `position`, rows the runs do not fit).
    private func readChanges(_ db: Database, into runs: SQLiteRuns, from position: SQLiteChangeLog.Position) throws -> KeyRead<Record, DatabaseValue>? {
        let limit = min(largestUpdate, Self.mostChangesPlaced)
        guard let (changes, next) = try SQLiteChangeLog.changes(of: query.table, after: position, limit: limit, in: db) else { return nil }
        var applied = runs
        var update = StorageUpdate()
        var touched: Set<Int> = []
        if !changes.isEmpty {
            // Any statement of the placement that fails (a query SQLite places as no one
            // tested) is a read of every key instead, whose own failure is reported.
            guard let places = try? SQLitePlacement(query: query, db).places(of: changes, in: runs, db),
                  let (applying, positions) = applied.apply(places) else { return nil }
            update = applying
            applied.splitLongRuns(runSize: sqliteRunSize)
            touched = Set(positions.values.map { $0 / pageSize })
        }
        let pages = try self.pages(touched.intersection(heldPages.pages), of: applied, db)
        (last, lastList, self.position) = (applied, nil, next)
        return KeyRead(keys: applied, update: update, pages: pages, changesOnly: true, changedKeys: changes.map(\.key))
    }

    /// Tells `firstRows` the first rows' keys (`firstKeysRead`) and the sections' counts,
    /// with (`firstRecords`) the records of the first pages (`KeyRead.firstPages`), when the
    /// query has a row. The counts are estimated where counting every row would hold the
    /// first rows up (`PagedQuery.estimatedCounts`; an estimate that fails, a statement
    /// SQLite cannot plan, or one that does not fit the first rows is a count instead), else
    /// counted. Returns whether it told them, and the counts if it counted.
    private func tellFirstRows(_ db: Database) throws -> (told: Bool, counts: [(value: DatabaseValue, count: Int)]?) {
        let keys = try query.firstKeysAndSections(db, limit: firstKeysRead)
        if let estimates = (try? query.estimatedCounts(db)) ?? nil,
           let read = KeyRead<Record, DatabaseValue>.firstRows(estimates: estimates, keys: keys, complete: keys.count < firstKeysRead) {
            firstRows(try withFirstRecords(read, keysRead: keys.count, db))
            return (true, nil)
        }
        let counts = try query.counts(db)
        guard let read = KeyRead<Record, DatabaseValue>.firstRows(counts: counts, keys: keys.map(\.key)) else { return (false, counts) }
        firstRows(try withFirstRecords(read, keysRead: keys.count, db))
        return (true, counts)
    }

    /// `read`, the first rows, with the records of the first pages when `firstRecords`.
    private func withFirstRecords(_ read: KeyRead<Record, DatabaseValue>, keysRead: Int, _ db: Database) throws -> KeyRead<Record, DatabaseValue> {
        guard firstRecords else { return read }
        let first = KeyRead<Record, DatabaseValue>.firstPages(size: pageSize, keysRead: keysRead, rowCount: read.keys.rowCount)
        return KeyRead(keys: read.keys, update: nil, pages: try pages(Set(first), of: read.keys, db), firstRowsOnly: true)
    }

    /// Compares the run of number `run` (counted round the runs of the last read) with the
    /// table, when the log has no change after the last read (the runs are then the table's
    /// rows): its rows, with the last of the run before and the first of the run after in its
    /// section, must be rows of its section in that order; its section must have as many
    /// rows as the runs say; and no row may lie in a section the runs do not have, before
    /// the run's section when it is the section's first run, after it when it is the last
    /// run (any row, when there is no run). Nil when it cannot be told (no log, changes not
    /// read yet, a read since); false when they differ, and the next read reads every key.
    /// Safe on any thread.
    ///
    /// A row's other values changed unrecorded (its place and section the same) are not
    /// found: they show when its page is next read.
    func checkForDrift(_ db: Database, run: Int) throws -> Bool? {
        guard let (runs, position, read) = checkLock.withLock({ checked }),
              try SQLiteChangeLog.position(of: query.table, in: db) == position else { return nil }
        let agrees = try runs.runs.isEmpty ? !query.hasRow(db, inSectionsAfter: nil, before: nil) : agree(runs, run: run % runs.runs.count, db)
        guard !agrees else { return true }
        // Unless a read has taken other runs since, or a drift found is still to be read (the
        // run is checked again next time: a check that tells nothing does not move on).
        return checkLock.withLock {
            guard checked?.read == read, !driftFound else { return nil }
            driftFound = true
            return false
        }
    }

    /// Whether the run at `index` of `runs` agrees with the table (`checkForDrift`).
    private func agree(_ runs: SQLiteRuns, run index: Int, _ db: Database) throws -> Bool {
        let section = runs.section(ofRun: index)
        let sectionRuns = runs.runs(ofSection: section)
        guard var expected = runs.runs[index].keys.map(Array.init) else { return true }
        if index > sectionRuns.lowerBound, let before = runs.runs[index - 1].keys?.last { expected.insert(before, at: 0) }
        if index + 1 < sectionRuns.upperBound, let after = runs.runs[index + 1].keys?.first { expected.append(after) }
        let value = runs.sectionValues[section]
        guard try query.rowIDs(db, of: expected, inSection: value) == expected,
              try query.count(db, inSection: value) == runs.count(inSection: section) else { return false }
        guard query.sectionBy != nil else { return true }
        if index == sectionRuns.lowerBound,
           try query.hasRow(db, inSectionsAfter: section > 0 ? runs.sectionValues[section - 1] : nil, before: value) { return false }
        if index + 1 == runs.runs.count, try query.hasRow(db, inSectionsAfter: value, before: nil) { return false }
        return true
    }

    /// Beyond this many changed rows, reading every key costs less than placing them.
    private static var mostChangesPlaced: Int { 5_000 }

    /// The rows of `pages` at their places in `runs`.
    /// - Throws: `SQLiteStorageError.unreadableRows` for a page with fewer rows than places.
    private func pages(_ pages: Set<Int>, of runs: any RowPlaces<DatabaseValue>, _ db: Database) throws -> [Int: [(Int64, Record)]] {
        var read: [Int: [(Int64, Record)]] = [:]
        for page in pages.sorted() {
            let keys = runs.places(ofPage: page, size: pageSize).compactMap(runs.key(at:))
            guard !keys.isEmpty else { continue }
            let rows = try query.rows(db, keys: keys, as: Record.self)
            guard rows.count == keys.count else { throw SQLiteStorageError.unreadableRows(table: query.table) }
            read[page] = rows
        }
        return read
    }
}
