import Foundation
import GRDB
import ModelStorage

/// A SQLite query's rows as runs (`KeyRuns`): sections by the section's value, runs of rows
/// found by position (no bound: SQLite places rows among sample rows of the runs instead).
typealias SQLiteRuns = KeyRuns<DatabaseValue, SQLiteRunStart>

/// A run's start, which SQLite's runs do not need (`SQLitePlacement` compares rows with rows).
struct SQLiteRunStart: Sendable {}

extension KeyRuns where SectionValue == DatabaseValue, Bound == SQLiteRunStart {
    /// The runs of `keys`: each section's rows in runs of `runSize`.
    init(_ keys: KeyList<DatabaseValue>, runSize: Int) {
        self.init(sections: keys.sectionValues.indices.map { section in
            let rows = keys.keys[keys.starts[section]..<keys.starts[section + 1]]
            let runs = stride(from: rows.startIndex, to: rows.endIndex, by: runSize).map {
                Run(bound: SQLiteRunStart(), keys: Array(rows[$0..<min($0 + runSize, rows.endIndex)]))
            }
            return (keys.sectionValues[section], runs)
        })
    }

    /// Splits the runs grown past twice `runSize` in two, until none is.
    mutating func splitLongRuns(runSize: Int) {
        var run = 0
        while run < runs.count {
            if runs[run].count > 2 * runSize { split(run: run, at: runs[run].count / 2, bound: SQLiteRunStart()) } else { run += 1 }
        }
    }
}

/// Where the rows a batch of commits changed were, and are, among a storage's runs, found by
/// SQLite without a read of every key: SQLite's own `ORDER BY` (the query's, with each
/// column's collation) sorts the changed rows (as they are, or as they were, from the change
/// log) together with sample rows of the runs (probes), a few dozen evenly spaced in the
/// positions each changed row may still be at; each sort narrows those positions 64 times,
/// so that a changed row is placed among N rows in log₆₄ N statements, each of them sorting
/// the batch and its probes alone.
struct SQLitePlacement {
    let query: PagedQuery
    /// The columns of `SELECT *` on the table now.
    let columns: [String]
    /// The log whose rows hold the changed rows as they were.
    let log: String
    /// The columns the log has.
    let logged: Set<String>

    /// The placement of `query`'s rows, with the table's and its log's columns read from `db`.
    init(query: PagedQuery, _ db: Database) throws {
        self.query = query
        columns = try SQLiteChangeLog.columnNames(of: query.table, in: db)
        log = SQLiteChangeLog.logTable(for: query.table)
        logged = try SQLiteChangeLog.loggedColumns(of: query.table, in: db) ?? []
        // A column added or renamed since the log was installed: its rows as they were lack
        // it, and cannot be placed (the storage reads every key until the log is installed
        // again).
        guard columns.allSatisfy(logged.contains) else { throw SQLitePlacementError.inconsistent }
    }

    /// The most probes taken in one stretch of positions at each step.
    static let fanOut = 64
    /// The most steps a placement takes before giving up (the runs do not fit the rows).
    private static let mostSteps = 16

    /// Where each of `changes` was in `runs` and is now: nil when the runs do not hold a
    /// changed row the log says was a row of the query, or a row is now in a section the
    /// runs do not have (then every key is to be read again).
    func places(of changes: [SQLiteChangeLog.Change], in runs: SQLiteRuns, _ db: Database) throws -> [RunPlace]? {
        let changed = Set(changes.map(\.key))
        // Where the rows were: placed as they were among the rows that did not change, then
        // found by key in the few places left.
        let wereRows = try rowsOfTheQuery(was: changes.compactMap(\.oldRow), db)
        let was = changes.filter { $0.oldRow.map(wereRows.contains) ?? false }
        let wereAt = try positions(of: was.map { .was($0.oldRow!, key: $0.key) }, among: runs, skipping: changed, db)
        var oldPlaces: [Int64: (run: Int, offset: Int)] = [:]
        var remaining = runs
        var leaving: [(run: Int, offset: Int)] = []
        for (change, range) in zip(was, wereAt) {
            guard let position = range.first(where: { runs.key(at: $0) == change.key }), let place = runs.locate(position) else { return nil }
            oldPlaces[change.key] = place
            leaving.append(place)
        }
        remaining.remove(leaving)
        // Where the rows are: placed among the rows left.
        let now = try rowsOfTheQuery(now: changes.map(\.key), db)
        let isRow = changes.filter { now[$0.key] != nil }
        // A range left with rows in it holds a changed row still in the runs (one that
        // `INSERT OR REPLACE` replaced with no delete trigger, say): read every key instead.
        let ranges = try positions(of: isRow.map { .now($0.key) }, among: remaining, skipping: changed, db)
        guard ranges.allSatisfy(\.isEmpty) else { return nil }
        let at = ranges.map(\.lowerBound)
        let tied = try order(isRow.map(\.key), tiedIn: at, db)
        var arrivals: [(key: Int64, run: Int, offset: Int, tie: Int)] = []
        for (index, change) in isRow.enumerated() {
            guard let place = remaining.place(at: at[index], section: now[change.key]!) else { return nil }
            arrivals.append((change.key, place.run, place.offset, tied[index]))
        }
        // Rows placed at one place go in their order, each after the ones before it.
        arrivals.sort { ($0.run, $0.offset, $0.tie) < ($1.run, $1.offset, $1.tie) }
        var newPlaces: [Int64: (run: Int, offset: Int)] = [:]
        var before = 0
        for (index, arrival) in arrivals.enumerated() {
            before = index > 0 && arrivals[index - 1].run == arrival.run ? before + 1 : 0
            newPlaces[arrival.key] = (arrival.run, arrival.offset + before)
        }
        return changes.map { change in
            let new = newPlaces[change.key]
            return RunPlace(key: change.key, oldRun: oldPlaces[change.key]?.run, newRun: new?.run, newOffset: new?.offset,
                            kept: false, isRow: new != nil)
        }
    }

    // MARK: Sorting with probes

    /// A changed row: as it is (by its rowid), or as it was (by its change in the log).
    enum Row {
        case now(Int64)
        case was(Int64, key: Int64)

        var key: Int64 {
            switch self {
            case .now(let key), .was(_, let key): key
            }
        }
    }

    /// For each of `rows`, the positions in `runs` it is between: every row of `runs` before
    /// the range comes before it in the query's order, every row from its end after it, and
    /// within it are only rows of `skipping` (rows that changed, no probes), or none (then it
    /// goes at its start).
    private func positions(of rows: [Row], among runs: SQLiteRuns, skipping: Set<Int64>, _ db: Database) throws -> [Range<Int>] {
        var ranges = Array(repeating: 0..<runs.rowCount, count: rows.count)
        for _ in 0..<Self.mostSteps {
            // The probes of each range still holding one.
            var probes: [Int64: Int] = [:]
            var open: [Int] = []
            // Rows in one range share its probes, picked once.
            var picked: [Range<Int>: Bool] = [:]
            for (index, range) in ranges.enumerated() {
                let any = picked[range] ?? {
                    var any = false
                    for position in Self.probes(in: range) {
                        guard let key = runs.key(at: position), !skipping.contains(key) else { continue }
                        probes[key] = position
                        any = true
                    }
                    picked[range] = any
                    return any
                }()
                if any { open.append(index) }
            }
            if open.isEmpty { return ranges }
            let sorted = try sort(open.map { rows[$0] }, with: Array(probes.keys), db)
            // Each row's range shrinks to the probes on each side of it.
            var before: Int?
            var after: [Int64: Int] = [:]
            var lastBefore: [Int64: Int] = [:]
            var waiting: [Int64] = []
            for (key, isProbe) in sorted {
                if isProbe {
                    let position = probes[key]!
                    for row in waiting { after[row] = position }
                    waiting = []
                    before = position
                } else {
                    if let before { lastBefore[key] = before }
                    waiting.append(key)
                }
            }
            for index in open {
                let key = rows[index].key
                let low = max(ranges[index].lowerBound, lastBefore[key].map { $0 + 1 } ?? 0)
                let high = min(ranges[index].upperBound, after[key] ?? Int.max)
                guard low <= high else { throw SQLitePlacementError.inconsistent }
                ranges[index] = low..<high
            }
        }
        throw SQLitePlacementError.inconsistent
    }

    /// The positions of `range` to compare a row with: every one of a short range, else
    /// `fanOut` evenly spaced from its start.
    private static func probes(in range: Range<Int>) -> [Int] {
        guard range.count > fanOut else { return Array(range) }
        return (0..<fanOut).map { range.lowerBound + $0 * range.count / fanOut }
    }

    /// `rows` and the rows of `probes`, in the query's order: each rowid, and whether it is a
    /// probe's.
    private func sort(_ rows: [Row], with probes: [Int64], _ db: Database) throws -> [(Int64, Bool)] {
        let table = query.table.quotedSQLIdentifier
        let rowID = query.rowID
        let now = rows.compactMap { if case .now(let key) = $0 { key } else { nil } }
        let was = rows.compactMap { if case .was(let change, _) = $0 { change } else { nil } }
        let sql = """
            SELECT \(rowID), lvm_probe FROM (
                SELECT \(rowIDColumns(rowID)), 1 AS lvm_probe, * FROM \(table) WHERE \(rowID) IN (SELECT value FROM json_each(?))
                UNION ALL
                SELECT \(rowIDColumns(rowID)), 0, * FROM \(table) WHERE \(rowID) IN (SELECT value FROM json_each(?))
                UNION ALL
                SELECT \(rowIDColumns("lvm_key")), 0, \(loggedColumns) FROM \(log.quotedSQLIdentifier) WHERE lvm_seq IN (SELECT value FROM json_each(?))
            ) AS \(table) ORDER BY \(query.order)
            """
        let arguments: StatementArguments = [Self.json(probes), Self.json(now), Self.json(was)]
        var sorted: [(Int64, Bool)] = []
        let cursor = try GRDB.Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() { sorted.append((row[0], row[1])) }
        return sorted
    }

    /// For each of `keys` (rows as they are), its rank among the others placed at the same
    /// position `at`, in the query's order (0 for a row alone there).
    private func order(_ keys: [Int64], tiedIn at: [Int], _ db: Database) throws -> [Int] {
        var count: [Int: Int] = [:]
        for position in at { count[position, default: 0] += 1 }
        let tied = keys.indices.filter { count[at[$0]]! > 1 }
        guard !tied.isEmpty else { return Array(repeating: 0, count: keys.count) }
        let rank = Dictionary(uniqueKeysWithValues: try sort(tied.map { .now(keys[$0]) }, with: [], db).enumerated().map { ($1.0, $0) })
        return keys.map { rank[$0] ?? 0 }
    }

    /// The log's columns in the order of the table's `SELECT *`.
    private var loggedColumns: String {
        columns.map(\.quotedSQLIdentifier).joined(separator: ", ")
    }

    /// `key` under each name of the rowid the table leaves to it (`rowid`, `_rowid_`, `oid`,
    /// unless a column has it), for the query's condition and order to find it in a union,
    /// where SQLite has none.
    private func rowIDColumns(_ key: String) -> String {
        let taken = Set(columns.map { $0.lowercased() })
        return ["rowid", "_rowid_", "oid"].filter { !taken.contains($0) }.map { "\(key) AS \($0)" }.joined(separator: ", ")
    }

    /// The rowid and the section's value of each of `keys` that is a row of the query now.
    private func rowsOfTheQuery(now keys: [Int64], _ db: Database) throws -> [Int64: DatabaseValue] {
        guard !keys.isEmpty else { return [:] }
        let section = query.sectionBy ?? "NULL"
        // The condition first, so that the keys' parameter is numbered after its own, whether
        // they are `?` or `?NNN`.
        let sql = "SELECT \(query.rowID), \(section) FROM \(query.table.quotedSQLIdentifier) WHERE "
            + (query.filter.map { "(\($0)) AND " } ?? "") + "\(query.rowID) IN (SELECT value FROM json_each(?))"
        var rows: [Int64: DatabaseValue] = [:]
        let cursor = try GRDB.Row.fetchCursor(db, sql: sql, arguments: StatementArguments(query.arguments + [Self.json(keys).databaseValue]))
        while let row = try cursor.next() { rows[row[0]] = row[1] }
        return rows
    }

    /// Which of the logged changes `changes` hold a row that was a row of the query: matched
    /// its condition, each column compared with its own collation (the table's, which the
    /// first of the union gives the log's).
    private func rowsOfTheQuery(was changes: [Int64], _ db: Database) throws -> Set<Int64> {
        guard !changes.isEmpty else { return [] }
        guard let filter = query.filter else { return Set(changes) }
        let table = query.table.quotedSQLIdentifier
        let sql = """
            SELECT lvm_seq FROM (
                SELECT NULL AS lvm_seq, \(rowIDColumns(query.rowID)), * FROM \(table) WHERE 0
                UNION ALL
                SELECT lvm_seq, \(rowIDColumns("lvm_key")), \(loggedColumns) FROM \(log.quotedSQLIdentifier)
                WHERE lvm_seq IN (\(changes.map(String.init).joined(separator: ",")))
            ) AS \(table) WHERE (\(filter))
            """
        // The changes' numbers are written in (integers): the condition's arguments alone are bound.
        return Set(try Int64.fetchAll(db, sql: sql, arguments: StatementArguments(query.arguments)))
    }

    private static func json(_ keys: [Int64]) -> String {
        "[" + keys.map(String.init).joined(separator: ",") + "]"
    }
}

/// The runs do not fit the rows SQLite placed: read every key instead.
enum SQLitePlacementError: Error {
    case inconsistent
}

extension KeyRuns where SectionValue == DatabaseValue {
    /// The run and offset a row of section `section` takes at `position` (the number of rows
    /// before it): after the row before it when that row is of its section, else in a run of
    /// its section with no row left, else before the row at `position`; nil when the runs
    /// have no section of that value.
    func place(at position: Int, section: DatabaseValue) -> (run: Int, offset: Int)? {
        let previous = position > 0 ? locate(position - 1) : nil
        let next = position < rowCount ? locate(position) : nil
        if let previous, sectionValues[self.section(ofRun: previous.run)] == section { return (previous.run, previous.offset + 1) }
        let emptied = (previous.map { $0.run + 1 } ?? 0)..<(next?.run ?? runs.count)
        if let run = emptied.first(where: { runs[$0].count == 0 && sectionValues[self.section(ofRun: $0)] == section }) { return (run, 0) }
        if let next, sectionValues[self.section(ofRun: next.run)] == section { return next }
        return nil
    }
}
