import Foundation

extension KeyRead {
    /// The first rows of a query whose sections' row counts are estimates (a database's
    /// statistics, which cost nothing to read where counting every row costs a scan): the
    /// first rows' keys with their sections' values, `keys`, in order, and each section's
    /// estimated count, `estimates`, in order.
    ///
    /// The sections the first rows end before are counted from them, exactly; the one they
    /// end in has at least its first rows (all of them when `complete`: the first rows are
    /// every row); the sections after it have their estimates. Every key, read next, corrects
    /// the counts (`correction(to:)`). Nil when the estimates lack the section the first rows
    /// end in (they do not fit the rows), or there is no row.
    package static func firstRows(estimates: [(value: SectionValue, count: Int)], keys: [(key: Int64, section: SectionValue)],
                                  complete: Bool) -> KeyRead? {
        var counts: [(value: SectionValue, count: Int)] = []
        for row in keys {
            if let last = counts.indices.last, counts[last].value == row.section { counts[last].count += 1 } else { counts.append((row.section, 1)) }
        }
        if !complete {
            guard let last = counts.indices.last, let index = estimates.firstIndex(where: { $0.value == counts[last].value }) else { return nil }
            counts[last].count = max(counts[last].count, estimates[index].count)
            counts += estimates[(index + 1)...].filter { $0.count > 0 }
        }
        // A value twice would be two sections of one value: the estimates do not fit the rows.
        guard Set(counts.map(\.value)).count == counts.count else { return nil }
        return firstRows(counts: counts, keys: keys.map(\.key))
    }
}

extension RowPlaces {
    /// The update that turns these places, the first rows shown before every key was read
    /// (their counts perhaps estimates), into `every`, every key: each section kept gains or
    /// loses rows at its end (rows without a key yet, placeholders), sections come and go.
    /// Nil when a first row's key or place differs (then the list is reloaded): the first
    /// rows and every key are read in one snapshot, so they differ only where the counts
    /// were estimates. A section inserted shows a header where `hasHeader` says its value
    /// has one (as the storage's header models say on a reload).
    package func correction(to every: any RowPlaces<SectionValue>, hasHeader: (SectionValue) -> Bool) -> StorageUpdate? {
        // The first rows: the keys read from the first position on.
        var known = 0
        while known < rowCount, key(at: known) != nil { known += 1 }
        for position in 0..<known where key(at: position) != every.key(at: position) || indexPath(of: position) != every.indexPath(of: position) {
            return nil
        }
        if known > 0, let last = indexPath(of: known - 1), sectionValues[...last.section] != every.sectionValues[...last.section] { return nil }
        var current = sectionValues.indices.map { (value: sectionValues[$0], count: count(inSection: $0)) }
        let target = every.sectionValues.indices.map { (value: every.sectionValues[$0], count: every.count(inSection: $0)) }
        var update = StorageUpdate()
        var section = 0
        while section < target.count || section < current.count {
            if section < target.count, section < current.count, current[section].value == target[section].value {
                let (shown, now) = (current[section].count, target[section].count)
                if now > shown { update.append(.insertItems(section: section, items: shown..<now)) }
                if now < shown { update.append(.deleteItems(section: section, items: now..<shown)) }
                section += 1
            } else if section < current.count, !target[section...].contains(where: { $0.value == current[section].value }) {
                update.append(.deleteSection(section))
                current.remove(at: section)
            } else {
                update.append(.insertSection(section))
                if hasHeader(target[section].value) { update.append(.supplementary(.header, .insert, section: section)) }
                update.append(.insertItems(section: section, items: 0..<target[section].count))
                current.insert(target[section], at: section)
                section += 1
            }
        }
        return update
    }
}
