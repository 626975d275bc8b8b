import Foundation

/// A sectioned storage seen as one flat list of rows, as GTK 4.8's list views need it:
/// for each section an optional header row, its item rows, and an optional footer row.
///
/// Finding the row at a position, or the position of a row, costs O(log sections).
/// `apply(_:)` turns a `StorageUpdate` into the shortest ordered list of splices to emit,
/// with content-only changes reported apart, at a cost proportional to what changed.
///
/// ```swift
/// var layout = FlatLayout(storage: storage)
/// // in storageDidPerformUpdate(_ update:)
/// let changes = layout.apply(update)
/// for splice in changes.splices { emitItemsChanged(splice) }
/// for position in changes.updatedPositions { updateRowInPlace(position) }
/// ```
public struct FlatLayout {
    var table: SectionTable
    private var nextSectionID = 0

    /// Creates the layout of `storage` as it is now.
    public init(storage: SectionedModels, options: FlatLayoutOptions = FlatLayoutOptions()) {
        table = SectionTable(options: options)
        table.replaceAll(with: sections(of: storage))
    }

    /// How sections are flattened.
    public var options: FlatLayoutOptions { table.options }

    /// The number of rows.
    public var count: Int { table.totalRows }

    /// The number of sections.
    public var numberOfSections: Int { table.count }

    /// The row at `position`, or nil when the position is out of range.
    public func row(at position: Int) -> FlatRow? {
        guard let (sectionIndex, offset) = table.locate(position) else { return nil }
        let section = table[sectionIndex]
        let headerRows = table.showsHeader(section) ? 1 : 0
        if offset < headerRows { return .header(section: sectionIndex) }
        let item = offset - headerRows
        if item < section.items { return .item(IndexPath(item: item, section: sectionIndex)) }
        return .footer(section: sectionIndex)
    }

    /// The position of `row`, or nil when the layout has no such row.
    public func position(of row: FlatRow) -> Int? {
        if case .item(let indexPath) = row, !indexPath.isSectionAndItem { return nil }
        let sectionIndex = row.section
        guard sectionIndex >= 0, sectionIndex < table.count else { return nil }
        let section = table[sectionIndex]
        let start = table.start(of: sectionIndex)
        let headerRows = table.showsHeader(section) ? 1 : 0
        switch row {
        case .header:
            return headerRows == 1 ? start : nil
        case .item(let indexPath):
            guard indexPath.item >= 0, indexPath.item < section.items else { return nil }
            return start + headerRows + indexPath.item
        case .footer:
            return table.showsFooter(section) ? start + headerRows + section.items : nil
        }
    }

    /// The position of the first row of `section` (its header, if shown), or nil when
    /// there is no such section.
    public func startOfSection(_ section: Int) -> Int? {
        guard section >= 0, section < table.count else { return nil }
        return table.start(of: section)
    }

    /// The section holding the row at `position`, or nil when the position is out of range.
    public func section(containing position: Int) -> Int? {
        table.locate(position)?.section
    }

    /// The positions of the rows of the section holding `position` (what GTK 4.12 asks a
    /// GtkSectionModel), or nil when the position is out of range. O(log sections).
    public func sectionRange(containing position: Int) -> Range<Int>? {
        guard let section = section(containing: position) else { return nil }
        return table.start(of: section)..<table.start(of: section + 1)
    }

    /// An id of `section` that stays the same while the section exists, however sections
    /// around it come and go (nil when there is no such section).
    public func sectionID(ofSection section: Int) -> Int? {
        section >= 0 && section < table.count ? table[section].id : nil
    }

    /// The section whose id is `id` (`sectionID(ofSection:)`), or nil when it is gone. Kept
    /// only when the view shows section headers itself (`headersAreSectionHeaders`): O(1).
    public func section(withID id: Int) -> Int? {
        table.index(ofID: id)
    }

    /// Whether the view shows a header above `section` by itself
    /// (`FlatLayoutOptions.headersAreSectionHeaders` and the section has a header model).
    public func showsSectionHeader(_ section: Int) -> Bool {
        section >= 0 && section < table.count && table.showsSectionHeader(table[section])
    }

    /// Every row in order. O(rows): for tests and debugging.
    public var rows: [FlatRow] {
        (0..<count).compactMap(row(at:))
    }

    /// Follows `update` (which the storage has already made) and returns what a view must
    /// emit and update to follow it.
    ///
    /// An update of more than `detailedChangeLimit` changes (a snapshot reordering a whole
    /// list, say), or one whose changes are scattered over more than `detailedSpliceLimit`
    /// places (a sort), is shown as a reload, one splice replacing every row: splicing it in
    /// detail would cost more than the view rebuilding what it shows.
    public mutating func apply(_ update: StorageUpdate) -> FlatChanges {
        let oldCount = count
        var translation = UpdateTranslation(nextSectionID: nextSectionID, tracksRows: update.changes.count <= Self.detailedChangeLimit,
                                            editLimit: Self.detailedSpliceLimit)
        for change in update.changes {
            translation.apply(change, to: &table)
        }
        nextSectionID = translation.nextSectionID
        var changes: FlatChanges
        if translation.composer.tracksRows {
            changes = translation.composer.finish()
        } else {
            changes = oldCount > 0 || count > 0 ? FlatChanges(splices: [Splice(position: 0, removed: oldCount, added: count)]) : FlatChanges()
        }
        changes.updatedSectionHeaders = sections(withIDs: translation.changedSectionHeaders)
        changes.unchangedRows = translation.composer.tracksRows ? min(translation.composer.firstChange, count) : 0
        return changes
    }

    /// The indexes of the sections with `ids`, ascending, but for those whose header the view
    /// does not show (empty, with `displayHeaderOnEmptySection` off): O(sections), paid only
    /// by an update that changed a header the view shows itself.
    private func sections(withIDs ids: Set<Int>) -> [Int] {
        guard !ids.isEmpty else { return [] }
        return (0..<table.count).filter { index in
            let section = table[index]
            return ids.contains(section.id) && (table.showsSectionHeader(section) || !section.hasHeader)
        }
    }

    /// Above this many changes, `apply(_:)` answers with a reload without translating them
    /// one by one (a snapshot reordering 100,000 items: 5.3 ms; see BENCHMARKS.md).
    public static let detailedChangeLimit = 16_384

    /// Above this many separate splices, `apply(_:)` answers with a reload: GTK handles
    /// each `items-changed` on its own (about 25,000 instructions each, measured), so past
    /// this many, rebuilding the few hundred rows on screen costs less (see BENCHMARKS.md).
    public static let detailedSpliceLimit = 2_048

    /// Rebuilds the layout from `storage` after a reload (with new `options`, if given) and
    /// returns the one splice that replaces every row.
    public mutating func reload(from storage: SectionedModels, options: FlatLayoutOptions? = nil) -> FlatChanges {
        let oldCount = count
        if let options { table = SectionTable(options: options) }
        table.replaceAll(with: sections(of: storage))
        guard oldCount > 0 || count > 0 else { return FlatChanges() }
        return FlatChanges(splices: [Splice(position: 0, removed: oldCount, added: count)])
    }

    /// What the layout needs of each of `storage`'s sections, with new ids.
    private mutating func sections(of storage: SectionedModels) -> [SectionTable.Section] {
        (0..<storage.numberOfSections()).map { index in
            defer { nextSectionID += 1 }
            return SectionTable.Section(
                id: nextSectionID,
                items: storage.numberOfItems(inSection: index),
                hasHeader: storage.headerModel(forSection: index) != nil,
                hasFooter: storage.footerModel(forSection: index) != nil)
        }
    }
}
