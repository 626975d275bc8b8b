import Foundation

/// Where every row of a paged query is: the sections (their values and row counts) and
/// every row's key (an SQLite rowid, a PostgreSQL integer key) in the query's order,
/// section after section. 8 bytes a row.
package struct KeyList<SectionValue: Hashable & Sendable>: Sendable {
    /// Each section's value (the database's NULL for the one section of an unsectioned
    /// query).
    package private(set) var sectionValues: [SectionValue]
    /// The position in `keys` of each section's first row, and the number of rows last.
    package private(set) var starts: [Int]
    /// Every rowid, in order.
    package private(set) var keys: [Int64]

    /// No section and no row: what a storage shows before its query is first read.
    package static var empty: KeyList { KeyList(sectionValues: [], starts: [0], keys: []) }

    private init(sectionValues: [SectionValue], starts: [Int], keys: [Int64]) {
        self.sectionValues = sectionValues
        self.starts = starts
        self.keys = keys
    }

    /// The sections of `counts` over `keys`.
    /// - Throws: `PagedQueryError.changedWhileRead` when the counts do not add up to the
    ///   keys (a write between the two reads, which share no transaction).
    package init(counts: [(value: SectionValue, count: Int)], keys: [Int64]) throws {
        var starts = [0]
        starts.reserveCapacity(counts.count + 1)
        for section in counts { starts.append(starts[starts.count - 1] + section.count) }
        guard starts[starts.count - 1] == keys.count else { throw PagedQueryError.changedWhileRead }
        self.init(sectionValues: counts.map(\.value), starts: starts, keys: keys)
    }

    /// The number of rows in `section` (0 for none).
    package func count(inSection section: Int) -> Int {
        sectionValues.indices.contains(section) ? starts[section + 1] - starts[section] : 0
    }

    /// The position in `keys` of the row at `indexPath`, or nil for none.
    package func position(of indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2, sectionValues.indices.contains(indexPath[0]),
              indexPath[1] >= 0, indexPath[1] < count(inSection: indexPath[0]) else { return nil }
        return starts[indexPath[0]] + indexPath[1]
    }

    /// The index path of the row at `position` in `keys`: O(log sections).
    package func indexPath(of position: Int) -> IndexPath? {
        guard keys.indices.contains(position) else { return nil }
        // The last section starting at or before `position` (empty sections share starts).
        var low = 0, high = sectionValues.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return IndexPath(item: position - starts[low], section: low)
    }
}

/// Why a paged query could not be read.
public enum PagedQueryError: Error, Equatable, CustomStringConvertible {
    /// The database changed between reading the sections' counts and the rowids; read again.
    case changedWhileRead

    public var description: String {
        switch self {
        case .changedWhileRead: tr("the database changed while it was read")
        }
    }
}
