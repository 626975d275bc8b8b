import Foundation

/// Where every row of a paged query is, as its storage holds it: a `KeyList` (every key in
/// one array) or `KeyRuns` (runs, found in O(log runs), that a batch of changes moves rows
/// in without a read of every key).
package protocol RowPlaces<SectionValue>: Sendable {
    associatedtype SectionValue: Hashable & Sendable
    /// Each section's value.
    var sectionValues: [SectionValue] { get }
    /// The number of rows.
    var rowCount: Int { get }
    /// The number of rows in `section` (0 for none).
    func count(inSection section: Int) -> Int
    /// The position of the row at `indexPath`, or nil for none.
    func position(of indexPath: IndexPath) -> Int?
    /// The index path of the row at `position`, or nil for none.
    func indexPath(of position: Int) -> IndexPath?
    /// The key of the row at `position`, or nil for none (or a key not read).
    func key(at position: Int) -> Int64?
    /// Every key in order, when every key is read.
    var keyList: KeyList<SectionValue>? { get }
    /// The first position in `range` (the last, unless `forward`) whose key is one
    /// `isMatch` takes; rows whose keys are not read are passed over.
    func firstPosition(in range: Range<Int>, forward: Bool, where isMatch: (Int64) -> Bool) -> Int?
}

extension RowPlaces {
    /// The position of the row whose key is `key`, or nil for none (or a key not read): a
    /// look at each row's key in order, reading nothing.
    package func position(ofKey key: Int64) -> Int? {
        if let keys = (self as? KeyList<SectionValue>)?.keys { return keys.firstIndex(of: key) }
        return firstPosition(in: 0..<rowCount, forward: true) { $0 == key }
    }

    /// The number of sections.
    package var sectionCount: Int { sectionValues.count }

    /// The positions of page `page`'s rows, pages being `size` rows (empty past the end).
    package func places(ofPage page: Int, size: Int) -> Range<Int> {
        let start = min(page * size, rowCount)
        return start..<min(start + size, rowCount)
    }
}

extension KeyList: RowPlaces {
    package var rowCount: Int { keys.count }

    package func key(at position: Int) -> Int64? {
        keys.indices.contains(position) ? keys[position] : nil
    }

    package var keyList: KeyList<SectionValue>? { self }
}

extension KeyRuns: RowPlaces {
    package var keyList: KeyList<SectionValue>? {
        var keys: [Int64] = []
        keys.reserveCapacity(rowCount)
        for run in runs {
            guard let runKeys = run.keys else { return nil }
            keys += runKeys
        }
        return try? KeyList(counts: sectionValues.indices.map { (sectionValues[$0], count(inSection: $0)) }, keys: keys)
    }
}

/// How many rows' keys a storage reads first, to show before every key is read: more than
/// GTK binds on its first screens.
package let firstKeysRead = 500

/// How many of those rows' records an SQLite storage reads with them (a page waits behind the
/// read of every key on a connection that is not a pool): what GTK binds first.
package let firstRecordsRead = 200

/// The places a storage shows before it has read every key: each section's row count, and
/// the keys of the first rows (those of the others are not read yet).
package typealias FirstKeys<SectionValue: Hashable & Sendable> = KeyRuns<SectionValue, Void>

extension KeyRuns where Bound == Void {
    /// The sections of `counts`, the first rows' keys `keys` (at most the rows there are).
    package init(counts: [(value: SectionValue, count: Int)], firstKeys keys: [Int64]) {
        var left = keys[...]
        self.init(sections: counts.map { section in
            let known = Array(left.prefix(section.count))
            left = left.dropFirst(known.count)
            let rest = section.count - known.count
            return (section.value, (known.isEmpty ? [] : [Run(bound: (), keys: known)]) + (rest > 0 ? [Run(bound: (), count: rest)] : []))
        })
    }
}

extension RowPlaces {
    /// The first position from `start` to the last (`forward`) or to the first, going
    /// round the end and stopping short of `start` again, whose key (rows whose keys are
    /// not read are passed over) is one `isMatch` takes: a pass over the keys as they are
    /// kept, reading nothing.
    package func firstPosition(from start: Int, forward: Bool, where isMatch: (Int64) -> Bool) -> Int? {
        let count = rowCount
        guard count > 0 else { return nil }
        let start = min(max(start, 0), count - 1)
        if forward {
            return firstPosition(in: start..<count, forward: true, where: isMatch) ?? firstPosition(in: 0..<start, forward: true, where: isMatch)
        }
        return firstPosition(in: 0..<(start + 1), forward: false, where: isMatch)
            ?? firstPosition(in: (start + 1)..<count, forward: false, where: isMatch)
    }
}

extension KeyList {
    package func firstPosition(in range: Range<Int>, forward: Bool, where isMatch: (Int64) -> Bool) -> Int? {
        forward ? keys[range].firstIndex(where: isMatch) : keys[range].lastIndex(where: isMatch)
    }
}

extension KeyRuns {
    package func firstPosition(in range: Range<Int>, forward: Bool, where isMatch: (Int64) -> Bool) -> Int? {
        guard !range.isEmpty, let first = locate(range.lowerBound), let last = locate(range.upperBound - 1) else { return nil }
        let order = forward ? Array(first.run...last.run) : Array((first.run...last.run).reversed())
        for run in order {
            guard let keys = runs[run].keys else { continue }
            let start = start(ofRun: run)
            // The run's part in the range.
            let from = run == first.run ? first.offset : 0, to = run == last.run ? last.offset + 1 : keys.count
            // Packed keys are read forwards: backwards, the run's last match is kept.
            var offset = 0, last: Int?
            for key in keys {
                if offset >= to { break }
                if offset >= from, isMatch(key) {
                    if forward { return start + offset }
                    last = offset
                }
                offset += 1
            }
            if let last { return start + last }
        }
        return nil
    }
}
