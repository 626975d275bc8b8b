import Foundation

/// Where a row a batch of changes touched was, and is, among a storage's runs (`KeyRuns`):
/// what a live storage's database tells it, from its change log, instead of every key.
package struct RunPlace: Sendable, Equatable {
    package let key: Int64
    /// The run the row was in (before the batch), or nil when it was not a row of the
    /// query (new, or not matching its condition then).
    package let oldRun: Int?
    /// The run it is in now, or nil when it is not a row of the query now, or is one of a
    /// section the runs do not have (`isRow`).
    package let newRun: Int?
    /// The number of the query's rows now before it in its run; not needed (nil) for a row
    /// that kept its place.
    package let newOffset: Int?
    /// Whether the row was and is a row of the query with the same value of its order: it
    /// is where it was among the rows (its content alone may have changed), in the same run.
    package let kept: Bool
    /// Whether it is a row of the query now.
    package let isRow: Bool

    package init(key: Int64, oldRun: Int?, newRun: Int?, newOffset: Int?, kept: Bool, isRow: Bool) {
        self.key = key
        self.oldRun = oldRun
        self.newRun = newRun
        self.newOffset = newOffset
        self.kept = kept
        self.isRow = isRow
    }
}

extension KeyRuns {
    /// Applies a batch's places (of the rows as they were in these runs and as they are
    /// now: PostgresStorage's `PostgresPlacement`, SQLiteStorage's `SQLitePlacement`): each
    /// changed row leaves the place it had, then takes its new one, so that the runs are the
    /// rows of the snapshot the places were read in. Returns the update that shows it: the
    /// rows inserted, deleted and moved (within and between runs; a row that kept its place
    /// is no change), then the sections left with no row deleted; and the position of each
    /// changed row that is a row now. Nil, changing nothing,
    /// when a row goes into a section the runs do not have, was in a run whose keys are not
    /// read, or has a place the runs do not (they differ from the rows the places were read
    /// against): then the keys are to be read again.
    package mutating func apply(_ places: [RunPlace]) -> (update: StorageUpdate, positions: [Int64: Int])? {
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
        for change in windowChanges(from: changed.map { Array(before[$0] ?? []) }, to: changed.map { Array(next.runs[$0].keys ?? []) }) {
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
        // Where each changed row is now, counted across sections: positions stay what they
        // are when the runs left with no row go (run numbers do not).
        var positions: [Int64: Int] = [:]
        for place in places {
            guard let run = place.newRun, let offset = next.offset(of: place.key, inRun: run) else { continue }
            positions[place.key] = next.start(ofRun: run) + offset
        }
        next.removeEmptyRuns()
        self = next
        return (update, positions)
    }

    /// Moves the rows of `places`; returns the keys each run changed had before, or nil when
    /// the places do not fit the runs (then they may be half changed). Each run changed is
    /// unpacked once and packed again once.
    private mutating func applying(_ places: [RunPlace]) -> [Int: PackedKeys]? {
        // Where each row was, found by its key in its run.
        // A row that kept its place stays (it must be there); the others leave.
        var leaving: [(run: Int, offset: Int)] = []
        for place in places {
            guard let run = place.oldRun else { continue }
            guard runs.indices.contains(run), let offset = offset(of: place.key, inRun: run) else { return nil }
            if !place.kept { leaving.append((run, offset)) }
        }
        guard places.allSatisfy({ !$0.isRow || ($0.newRun.map(runs.indices.contains) ?? false) }) else { return nil }
        var changed: [Int: [Int64]] = [:]
        func unpack(_ run: Int) -> Bool {
            guard changed[run] == nil else { return true }
            guard let keys = runs[run].keys else { return false }
            changed[run] = Array(keys)
            return true
        }
        // The last first, so that each place is still where it was; then the first first,
        // so that the rows before each are there when it comes.
        for (run, offset) in leaving.sorted(by: { ($0.run, $0.offset) > ($1.run, $1.offset) }) {
            guard unpack(run) else { return nil }
            changed[run]!.remove(at: offset)
        }
        let arriving = places.filter { !$0.kept }.compactMap { place in place.newRun.map { (key: place.key, run: $0, offset: place.newOffset ?? 0) } }
        for row in arriving.sorted(by: { ($0.run, $0.offset) < ($1.run, $1.offset) }) {
            guard unpack(row.run), row.offset <= changed[row.run]!.count else { return nil }
            changed[row.run]!.insert(row.key, at: row.offset)
        }
        var before: [Int: PackedKeys] = [:]
        for (run, keys) in changed {
            before[run] = runs[run].keys
            setKeys(keys, ofRun: run)
        }
        return before
    }
}
