import Foundation

/// Where the rows of a paged query are, as runs: consecutive rows of one section, each with
/// its row count, the value of the query's order it starts at (its bound, which the
/// database compares rows with to find their run), and its rows' keys once they are read.
///
/// What a live storage keeps so that a commit costs the rows it touched, not the rows there
/// are: a position and the run holding it are found in O(log runs) (a `CountTree` over the
/// runs' counts), a row inserted into or removed from a run costs O(log runs) plus the run's
/// keys, and a run whose keys were never read (or were dropped) costs its count and bound
/// alone. A section with no row has no run and is not a section.
package struct KeyRuns<SectionValue: Hashable & Sendable, Bound: Sendable>: Sendable {
    /// Consecutive rows of one section.
    package struct Run: Sendable {
        /// Where the run starts in the query's order: its first row, or a row before it.
        package var bound: Bound
        /// How many rows it holds.
        package fileprivate(set) var count: Int
        /// Their keys, in order, when read (`count` of them); nil when not.
        package fileprivate(set) var keys: PackedKeys?

        /// A run of `keys`, read.
        package init(bound: Bound, keys: some Collection<Int64>) {
            self.bound = bound
            count = keys.count
            self.keys = PackedKeys(keys)
        }

        /// A run of `count` rows whose keys are not read.
        package init(bound: Bound, count: Int) {
            self.bound = bound
            self.count = count
            keys = nil
        }
    }

    /// The runs, section after section.
    package private(set) var runs: [Run] = []
    /// Each section's value.
    package private(set) var sectionValues: [SectionValue] = []
    /// The index in `runs` of each section's first run, and the number of runs last.
    private var firstRuns: [Int] = [0]
    /// The runs' counts.
    private var counts = CountTree()

    /// No row.
    package init() {}

    /// The sections `sections`, each a value and its runs (a section with no row is left out).
    package init(sections: [(value: SectionValue, runs: [Run])]) {
        for section in sections where section.runs.contains(where: { $0.count > 0 }) {
            sectionValues.append(section.value)
            runs += section.runs.filter { $0.count > 0 }
            firstRuns.append(runs.count)
        }
        counts = CountTree(runs.map(\.count))
    }

    // MARK: Positions

    /// The number of rows.
    package var rowCount: Int { counts.total }

    /// The position of the first row of `section` (the row count for `sectionCount`).
    package func start(ofSection section: Int) -> Int { counts.prefix(firstRuns[section]) }

    /// The number of rows in `section` (0 for none).
    package func count(inSection section: Int) -> Int {
        sectionValues.indices.contains(section) ? start(ofSection: section + 1) - start(ofSection: section) : 0
    }

    /// The position of the first row of the run at `run`.
    package func start(ofRun run: Int) -> Int { counts.prefix(run) }

    /// The section the run at `run` belongs to.
    package func section(ofRun run: Int) -> Int {
        // The last section whose first run is at or before `run`.
        var low = 0, high = sectionValues.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstRuns[middle] <= run { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The runs of `section`.
    package func runs(ofSection section: Int) -> Range<Int> { firstRuns[section]..<firstRuns[section + 1] }

    /// The run holding the row at `position` and the row's offset in it, or nil for none.
    package func locate(_ position: Int) -> (run: Int, offset: Int)? {
        counts.locate(position).map { ($0.index, $0.offset) }
    }

    /// The position of the row at `indexPath`, or nil for none.
    package func position(of indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2, sectionValues.indices.contains(indexPath[0]), indexPath[1] >= 0,
              indexPath[1] < count(inSection: indexPath[0]) else { return nil }
        return start(ofSection: indexPath[0]) + indexPath[1]
    }

    /// The index path of the row at `position`, or nil for none.
    package func indexPath(of position: Int) -> IndexPath? {
        guard let (run, _) = locate(position) else { return nil }
        let section = section(ofRun: run)
        return IndexPath(item: position - start(ofSection: section), section: section)
    }

    /// The key of the row at `position`, or nil when there is none or its run's keys are
    /// not read.
    package func key(at position: Int) -> Int64? {
        guard let (run, offset) = locate(position) else { return nil }
        return runs[run].keys?[offset]
    }

    /// The offset of `key` in the run at `run`, if its keys are read and hold it: O(run).
    package func offset(of key: Int64, inRun run: Int) -> Int? {
        runs[run].keys?.firstIndex(of: key)
    }

    // MARK: Changes

    /// Inserts a row into the run at `run`, at `offset`: its key goes into the run's keys
    /// when they are read (`key` must then be given).
    package mutating func insert(_ key: Int64?, intoRun run: Int, at offset: Int) {
        precondition(offset >= 0 && offset <= runs[run].count, "offset out of the run")
        if runs[run].keys != nil {
            guard let key else { preconditionFailure("a run whose keys are read takes a key") }
            runs[run].keys!.insert(key, at: offset)
        }
        runs[run].count += 1
        counts.add(1, at: run)
    }

    /// Removes the row at `offset` of the run at `run`, and returns its key if the run's
    /// keys are read. A run left empty stays (its bound still places rows) until
    /// `removeEmptyRuns` or its section goes.
    @discardableResult
    package mutating func remove(fromRun run: Int, at offset: Int) -> Int64? {
        precondition(offset >= 0 && offset < runs[run].count, "offset out of the run")
        runs[run].count -= 1
        counts.add(-1, at: run)
        return runs[run].keys?.remove(at: offset)
    }

    /// Removes the rows at `places` (each a run and an offset in it, as they are before any
    /// goes), each run's keys packed again once: O(the runs' keys).
    package mutating func remove(_ places: [(run: Int, offset: Int)]) {
        var left: [Int: [Int64]] = [:]
        for (run, offset) in places.sorted(by: { ($0.run, $0.offset) > ($1.run, $1.offset) }) {
            precondition(offset >= 0 && offset < runs[run].count, "offset out of the run")
            guard let keys = runs[run].keys else {
                runs[run].count -= 1
                counts.add(-1, at: run)
                continue
            }
            if left[run] == nil { left[run] = Array(keys) }
            left[run]!.remove(at: offset)
        }
        for (run, keys) in left { setKeys(keys, ofRun: run) }
    }

    /// Gives the run at `run` its keys, read now: its count becomes theirs.
    package mutating func setKeys(_ keys: some Collection<Int64>, ofRun run: Int) {
        counts.add(keys.count - runs[run].count, at: run)
        runs[run].count = keys.count
        runs[run].keys = PackedKeys(keys)
    }

    /// Drops the keys of the run at `run` (its count and bound stay).
    package mutating func forgetKeys(ofRun run: Int) {
        runs[run].keys = nil
    }

    /// Splits the run at `run` before its row at `offset` (0 < offset < count): the rows
    /// from there make a new run, after it, starting at `bound`.
    package mutating func split(run: Int, at offset: Int, bound: Bound) {
        precondition(offset > 0 && offset < runs[run].count, "a split leaves rows on both sides")
        var tail = Run(bound: bound, count: runs[run].count - offset)
        if let keys = runs[run].keys {
            (runs[run].keys, tail.keys) = keys.split(at: offset)
        }
        runs[run].count = offset
        runs.insert(tail, at: run + 1)
        for section in (section(ofRun: run) + 1)..<firstRuns.count { firstRuns[section] += 1 }
        counts = CountTree(runs.map(\.count))
    }

    /// Makes a new section of `value`, at `index`, of one run with no row yet, which starts
    /// at `bound` (its keys, none, are read); it shows as a section once a row is inserted.
    package mutating func insertSection(_ value: SectionValue, at index: Int, bound: Bound) {
        let run = firstRuns[index]
        runs.insert(Run(bound: bound, keys: [Int64]()), at: run)
        sectionValues.insert(value, at: index)
        firstRuns.insert(run, at: index)
        for later in (index + 1)..<firstRuns.count { firstRuns[later] += 1 }
        counts = CountTree(runs.map(\.count))
    }

    /// Removes the runs with no row, and the sections left with none: O(runs).
    package mutating func removeEmptyRuns() {
        var kept: [Run] = []
        var values: [SectionValue] = []
        var starts = [0]
        for section in sectionValues.indices {
            let rows = runs[runs(ofSection: section)].filter { $0.count > 0 }
            guard !rows.isEmpty else { continue }
            kept += rows
            values.append(sectionValues[section])
            starts.append(kept.count)
        }
        guard kept.count != runs.count else { return }
        (runs, sectionValues, firstRuns) = (kept, values, starts)
        counts = CountTree(runs.map(\.count))
    }
}
