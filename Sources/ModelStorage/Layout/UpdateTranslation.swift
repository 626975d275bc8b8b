/// Replays a `StorageUpdate`'s changes, in order, on a section table and records the rows
/// each one replaces in a `SpliceComposer`. The table is passed in place (`inout`) so that
/// it is never copied: a translation costs what changed, not what the table holds.
struct UpdateTranslation {
    var nextSectionID: Int
    var composer: SpliceComposer
    /// Header and footer rows hidden while their section is empty, kept by section id so
    /// that showing them again puts the same rows back.
    private var hiddenRows: [Int: [SupplementaryKind: RowRun]] = [:]
    /// Ids of the sections whose header model changed while the view shows their header
    /// itself (`FlatLayoutOptions.headersAreSectionHeaders`).
    private(set) var changedSectionHeaders: Set<Int> = []

    init(nextSectionID: Int, tracksRows: Bool = true, editLimit: Int = .max) {
        self.nextSectionID = nextSectionID
        composer = SpliceComposer(tracksRows: tracksRows, editLimit: editLimit)
    }

    mutating func apply(_ change: StorageChange, to table: inout SectionTable) {
        switch change {
        case .insertSection(let index), .deleteSection(let index):
            // Sections after it change index, even where no row comes or goes.
            composer.noteChange(at: table.start(of: index))
        case .moveSection(let from, let to):
            composer.noteChange(at: table.start(of: min(from, to)))
        default:
            break
        }
        switch change {
        case .insertSection(let index):
            table.insert(SectionTable.Section(id: nextSectionID, items: 0, hasHeader: false, hasFooter: false), at: index)
            nextSectionID += 1
        case .deleteSection(let index):
            composer.replace(at: table.start(of: index), removing: table.rows(table[index]), inserting: [])
            hiddenRows[table.remove(at: index).id] = nil
        case .moveSection(let from, let to):
            let rows = composer.replace(at: table.start(of: from), removing: table.rows(table[from]), inserting: [])
            table.insert(table.remove(at: from), at: to)
            composer.replace(at: table.start(of: to), removing: 0, inserting: rows)
        case .insertItems(let section, let items):
            replaceItems(in: section, of: &table, at: items.lowerBound, removing: 0, inserting: [.fresh(count: items.count)])
        case .deleteItems(let section, let items):
            replaceItems(in: section, of: &table, at: items.lowerBound, removing: items.count, inserting: [])
        case .moveItem(let from, let to):
            let rows = replaceItems(in: from.section, of: &table, at: from.item, removing: 1, inserting: [])
            // Where the view shows section headers itself, a row that changes section is a
            // new row even where its position stays: the sections around it change with it.
            let crossesSections = table.options.headersAreSectionHeaders && from.section != to.section
            replaceItems(in: to.section, of: &table, at: to.item, removing: 0, inserting: crossesSections ? [.fresh(count: 1)] : rows)
        case .updateItem(let indexPath):
            let start = table.start(of: indexPath.section) + (table.showsHeader(table[indexPath.section]) ? 1 : 0)
            composer.markUpdated(at: start + indexPath.item)
        case .supplementary(let kind, let type, let section):
            changeSupplementary(kind, type, in: section, of: &table)
        }
    }

    /// Replaces items of `section` and shows or hides its header and footer rows when the
    /// section becomes empty or stops being empty. Returns the removed item rows.
    @discardableResult
    private mutating func replaceItems(in sectionIndex: Int, of table: inout SectionTable, at item: Int, removing: Int, inserting: [RowRun]) -> [RowRun] {
        let before = table[sectionIndex]
        var after = before
        after.items += inserting.reduce(0) { $0 + $1.count } - removing
        let start = table.start(of: sectionIndex)

        if table.showsFooter(before), !table.showsFooter(after) {
            hide(.footer, of: before, at: start + table.rows(before) - 1)
        }
        var headerRows = table.showsHeader(before) ? 1 : 0
        if headerRows == 1, !table.showsHeader(after) {
            hide(.header, of: before, at: start)
            headerRows = 0
        }
        let removed = composer.replace(at: start + headerRows + item, removing: removing, inserting: inserting)
        if !table.showsHeader(before), table.showsHeader(after) {
            show(.header, of: before, at: start)
            headerRows = 1
        }
        if !table.showsFooter(before), table.showsFooter(after) {
            show(.footer, of: before, at: start + headerRows + after.items)
        }
        table.update(sectionIndex) { $0.items = after.items }
        return removed
    }

    /// Inserts, deletes or updates the header or footer model of a section. A footer can
    /// take the place of an empty section's header row when the view shows headers itself,
    /// so both rows are worked out before and after.
    private mutating func changeSupplementary(_ kind: SupplementaryKind, _ type: ChangeType, in sectionIndex: Int, of table: inout SectionTable) {
        let before = table[sectionIndex]
        var after = before
        if kind == .header { after.hasHeader = type != .delete } else { after.hasFooter = type != .delete }
        // Whether the view shows the header once the whole update is made is known only then.
        if kind == .header, table.options.headersAreSectionHeaders, table.options.showsSupplementaryRows {
            changedSectionHeaders.insert(before.id)
        }
        let start = table.start(of: sectionIndex)
        var rows = table.rows(before)
        let header = (before: table.showsHeader(before), after: table.showsHeader(after))
        let footer = (before: table.showsFooter(before), after: table.showsFooter(after))

        if footer.before, !footer.after {
            composer.replace(at: start + rows - 1, removing: 1, inserting: [])
            rows -= 1
        }
        if header.before, !header.after {
            composer.replace(at: start, removing: 1, inserting: [])
            rows -= 1
        }
        if kind == .header, header.before, header.after { composer.markUpdated(at: start) }
        if kind == .footer, footer.before, footer.after { composer.markUpdated(at: start + rows - 1) }
        if !header.before, header.after {
            composer.replace(at: start, removing: 0, inserting: [.fresh(count: 1)])
            rows += 1
        }
        if !footer.before, footer.after {
            composer.replace(at: start + rows, removing: 0, inserting: [.fresh(count: 1)])
        }
        let changed = kind == .header ? header : footer
        if !changed.before, !changed.after {
            // Hidden because the section is empty: the model change applies when it shows.
            if type == .delete {
                hiddenRows[before.id]?[kind] = nil
            } else if let row = hiddenRows[before.id]?[kind] {
                composer.markUpdated(row)
            }
        }
        table.update(sectionIndex) { $0 = after }
    }

    private mutating func hide(_ kind: SupplementaryKind, of section: SectionTable.Section, at position: Int) {
        let rows = composer.replace(at: position, removing: 1, inserting: [])
        hiddenRows[section.id, default: [:]][kind] = rows.first
    }

    private mutating func show(_ kind: SupplementaryKind, of section: SectionTable.Section, at position: Int) {
        let row = hiddenRows[section.id]?[kind] ?? .fresh(count: 1)
        hiddenRows[section.id]?[kind] = nil
        composer.replace(at: position, removing: 0, inserting: [row])
    }
}
