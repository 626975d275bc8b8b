import Foundation
import ModelStorage
import PostgresNIO

/// A PostgreSQL query's rows as runs: sections by the section column's value as text (nil
/// for NULL, and for the one section of a query without sections), runs bounded by a value
/// of the query's whole order, as text (`PostgresListQuery.orderTerms`).
typealias PostgresRuns = KeyRuns<String?, [String?]>

extension KeyRuns where SectionValue == String?, Bound == [String?] {
    /// The runs of `query`'s rows (each section's first row, then every `runSize`th, starts
    /// a run), their keys read, in the transaction open on `connection`.
    static func read(_ query: PostgresListQuery, runSize: Int, on connection: PostgresConnection) async throws -> PostgresRuns {
        let collected = RunCollector(sectioned: query.sectionBy != nil)
        try await connection.send(query.keysAndBoundsQuery(runSize: runSize).query) { row in try collected.add(row) }
        return PostgresRuns(sections: collected.sections())
    }

    /// Applies a batch's places (`PostgresPlacement`, of the rows as they were in these
    /// runs and as they are now): each changed row leaves the place it had, then takes its
    /// new one, so that the runs are the rows of the snapshot the places were read in.
    /// Returns the update that shows it: the rows inserted, deleted and moved (within and
    /// between runs; a row that kept its place is no change), then the sections left with no
    /// row deleted. Nil,
    /// changing nothing, when a row goes into a section the runs do not have, was in a run
    /// whose keys are not read, or has a place the runs do not (they differ from the rows the
    /// places were read against): then the keys are to be read again.
    mutating func apply(_ places: [PostgresPlacement.Place]) -> StorageUpdate? {
        var next = self
        guard let before = next.applying(places) else { return nil }
        // The runs changed as windows, diffed together so that a row that went to another
        // run is a move; each window's place is followed as the changes come.
        let changed = before.keys.sorted()
        var counts = changed.map { before[$0]?.count ?? 0 }
        func place(_ window: Int, _ item: Int) -> IndexPath {
            let run = changed[window]
            let section = next.section(ofRun: run)
            var start = next.start(ofRun: run) - next.start(ofSection: section)
            for earlier in changed.indices where changed[earlier] < run && next.section(ofRun: changed[earlier]) == section {
                start += counts[earlier] - next.runs[changed[earlier]].count
            }
            return IndexPath(item: start + item, section: section)
        }
        var update = StorageUpdate()
        for change in windowChanges(from: changed.map { before[$0] ?? [] }, to: changed.map { next.runs[$0].keys ?? [] }) {
            switch change {
            case .insert(let window, let items):
                let first = place(window, items.lowerBound)
                update.append(.insertItems(section: first.section, items: first.item..<(first.item + items.count)))
                counts[window] += items.count
            case .delete(let window, let items):
                let first = place(window, items.lowerBound)
                update.append(.deleteItems(section: first.section, items: first.item..<(first.item + items.count)))
                counts[window] -= items.count
            case .move(let fromWindow, let from, let toWindow, let to):
                let source = place(fromWindow, from)
                counts[fromWindow] -= 1
                update.append(.moveItem(from: source, to: place(toWindow, to)))
                counts[toWindow] += 1
            }
        }
        for section in (0..<next.sectionCount).reversed() where next.count(inSection: section) == 0 {
            update.append(.deleteSection(section))
        }
        next.removeEmptyRuns()
        self = next
        return update
    }

    /// Moves the rows of `places`; returns the keys each run changed had before, or nil when
    /// the places do not fit the runs (then they may be half changed).
    private mutating func applying(_ places: [PostgresPlacement.Place]) -> [Int: [Int64]]? {
        var before: [Int: [Int64]] = [:]
        func touch(_ run: Int) { if before[run] == nil { before[run] = runs[run].keys } }
        // Where each row was, found by its key in its run.
        // A row that kept its place stays (it must be there); the others leave.
        var leaving: [(run: Int, offset: Int)] = []
        for place in places {
            guard let run = place.oldRun else { continue }
            guard runs.indices.contains(run), let offset = offset(of: place.key, inRun: run) else { return nil }
            if !place.kept { leaving.append((run, offset)) }
        }
        guard places.allSatisfy({ $0.value == nil || ($0.newRun.map(runs.indices.contains) ?? false) }) else { return nil }
        // The last first, so that each place is still where it was; then the first first,
        // so that the rows before each are there when it comes.
        for (run, offset) in leaving.sorted(by: { ($0.run, $0.offset) > ($1.run, $1.offset) }) {
            touch(run)
            remove(fromRun: run, at: offset)
        }
        let arriving = places.filter { !$0.kept }.compactMap { place in place.newRun.map { (key: place.key, run: $0, offset: place.newOffset ?? 0) } }
        for row in arriving.sorted(by: { ($0.run, $0.offset) < ($1.run, $1.offset) }) {
            guard row.offset <= runs[row.run].count, runs[row.run].keys != nil else { return nil }
            touch(row.run)
            insert(row.key, intoRun: row.run, at: row.offset)
        }
        return before
    }
}

/// Collects the rows of `keysAndBoundsQuery` into runs as they arrive, on the connection's
/// thread (one row at a time, none held).
private final class RunCollector: @unchecked Sendable {
    private let sectioned: Bool
    private var done: [(value: String?, runs: [PostgresRuns.Run])] = []
    private var keys: [Int64] = []
    private var bound: [String?]?

    init(sectioned: Bool) {
        self.sectioned = sectioned
    }

    func add(_ row: PostgresRow) throws {
        let (key, starts) = try row.decode((Int64, String?).self)
        if let starts {
            endRun()
            bound = try JSONDecoder().decode([String?].self, from: Data(starts.utf8))
        }
        keys.append(key)
    }

    /// The sections and their runs, the last run ended.
    func sections() -> [(value: String?, runs: [PostgresRuns.Run])] {
        endRun()
        return done
    }

    private func endRun() {
        guard let bound else { return }
        let run = PostgresRuns.Run(bound: bound, keys: keys)
        let value = sectioned ? bound[0] : nil
        if let last = done.indices.last, done[last].value == value {
            done[last].runs.append(run)
        } else {
            done.append((value, [run]))
        }
        (keys, self.bound) = ([], nil)
    }
}
