import Foundation
import ModelStorage

// Random storage operations replayed through a FlatLayout and checked against the storage
// flattened directly: shared by the storage tests (seeded runs) and the storage fuzzer
// (runs drawn from its bytes).

/// One row of a flattened storage, by identity: what a list shows at a position.
public struct RowSnapshot: Equatable {
    public let id: RowID
    public let version: Int
    /// The section the row belongs to.
    public let section: Int
}

/// The storage flattened directly, without `FlatLayout`: what the list must show. When the
/// view shows headers itself, a header is a row only for an empty section with no footer row.
public func referenceRows(of storage: MemoryStorage, _ options: FlatLayoutOptions) -> [RowSnapshot] {
    var rows: [RowSnapshot] = []
    for section in 0..<storage.numberOfSections() {
        let items = storage.items(inSection: section) ?? []
        let footer = storage.footerModel(forSection: section) as? any TaggedModel
        let showsFooter = footer != nil && options.showsFooterRows && (!items.isEmpty || options.displayFooterOnEmptySection)
        if let header = storage.headerModel(forSection: section) as? any TaggedModel,
           options.headersAreSectionHeaders ? items.isEmpty && options.displayHeaderOnEmptySection && !showsFooter
                                            : !items.isEmpty || options.displayHeaderOnEmptySection {
            rows.append(RowSnapshot(id: .header(header.uid), version: header.version, section: section))
        }
        for case let item as any TaggedModel in items {
            rows.append(RowSnapshot(id: .item(item.uid), version: item.version, section: section))
        }
        if let footer, showsFooter {
            rows.append(RowSnapshot(id: .footer(footer.uid), version: footer.version, section: section))
        }
    }
    return rows
}

/// Options for a seed: empty sections' headers and footers shown or not, and every third
/// seed headers shown by the view itself (GTK 4.12's section headers), some without footers.
public func layoutOptions(forSeed seed: UInt64) -> FlatLayoutOptions {
    FlatLayoutOptions(displayHeaderOnEmptySection: seed % 2 == 0, displayFooterOnEmptySection: seed % 4 < 2,
                      headersAreSectionHeaders: seed % 3 == 2, showsFooterRows: seed % 9 != 8)
}

/// Random single and batched operations on a MemoryStorage, each delivered update replayed
/// through a FlatLayout and its splices replayed on the old rows. Odd seeds mix item types:
/// sections hold 48-byte `WideTagged` models beside `Tagged` ones.
public final class RandomStorageRun {
    /// Names the run in failure messages (its seed).
    public let name: String
    private let fixture = StorageFixture()
    private let operations: RandomStorageOperations
    private var storage: MemoryStorage { fixture.storage }
    private let options: FlatLayoutOptions
    private let checker: LayoutReplayChecker
    public var failures: [String] { checker.failures }
    private var step = 0

    /// A run of the operations `seed` draws; odd seeds mix item types.
    public convenience init(seed: UInt64) {
        self.init(name: "seed \(seed)", generator: SeededGenerator(seed: seed), options: layoutOptions(forSeed: seed),
                  mixesModelTypes: seed % 2 == 1)
    }

    /// A run of the operations `generator` draws (a fuzzer's bytes, for one), the layout
    /// following with `options`.
    public init(name: String, generator: some RandomNumberGenerator, options: FlatLayoutOptions, mixesModelTypes: Bool) {
        self.name = name
        operations = RandomStorageOperations(storage: fixture.storage, generator: generator, mixesModelTypes: mixesModelTypes)
        self.options = options
        checker = LayoutReplayChecker(storage: fixture.storage, options: options)
    }

    /// Performs `operations` steps, or fewer when one fails or `more` says to stop.
    public func run(operations: Int, while more: () -> Bool = { true }) {
        for _ in 0..<operations where failures.isEmpty && more() {
            checker.label = "\(name), step \(step)"
            runStep()
            step += 1
        }
    }

    private func runStep() {
        let oldRows = referenceRows(of: storage, options)
        let anomaliesBefore = fixture.anomalies.count
        let randomStep = operations.next()
        let description = randomStep.description
        if randomStep.isInvalid {
            let delivered = fixture.recorder.take()
            check(delivered.updates.isEmpty && delivered.reloads == 0, "\(description) delivered \(delivered)")
            check(fixture.anomalies.count == anomaliesBefore + 1, "\(description) reported \(fixture.anomalies.count - anomaliesBefore) anomalies")
            check(referenceRows(of: storage, options) == oldRows, "\(description) changed the storage")
            return
        }
        let touched = randomStep.touched
        let delivered = fixture.recorder.take()
        check(delivered.updates.count + delivered.reloads <= 1, "more than one delivery for \(description)")
        let changes: FlatChanges
        let isReload = delivered.reloads == 1
        if isReload {
            changes = checker.layout.reload(from: storage)
        } else if let update = delivered.updates.first {
            check(!update.isEmpty, "an empty update was delivered")
            changes = checker.layout.apply(update)
        } else {
            changes = FlatChanges()
        }
        // Where the view shows section headers itself, an item moved to another section is
        // a new row, which may come back at its old place (the snapshots know no sections).
        let movesAcrossSections = options.headersAreSectionHeaders && delivered.updates.contains { update in
            update.changes.contains { if case .moveItem(let from, let to) = $0 { from.section != to.section } else { false } }
        }
        checker.verify(old: oldRows, new: referenceRows(of: storage, options), changes, touched: touched, isReload: isReload,
                       checksNoOpEnds: !movesAcrossSections, context: "\(description) -> \(delivered.updates.first?.description ?? "reloads: \(delivered.reloads)")")
    }

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        checker.check(condition, message())
    }
}

/// Follows a storage with a `FlatLayout` and checks, for each update, that the splices the
/// layout emits turn the rows before into the rows after (`referenceRows`), that rows whose
/// content changed in place are updated, and that the layout then matches the storage.
public final class LayoutReplayChecker {
    public let storage: MemoryStorage
    public let options: FlatLayoutOptions
    public var layout: FlatLayout
    public private(set) var failures: [String] = []
    /// Prefixes failure messages (a seed and a step).
    public var label = ""

    public init(storage: MemoryStorage, options: FlatLayoutOptions) {
        self.storage = storage
        self.options = options
        layout = FlatLayout(storage: storage, options: options)
    }

    public func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition, failures.isEmpty {
            failures.append("\(label): \(message())")
        }
    }

    /// Checks `changes`, what the layout made of an update (or a reload, exempt from the
    /// no-op check: it replaces every row), given the rows before and after it and the rows
    /// whose content changed (`touched`). Rows of one identity must be told apart for the
    /// no-op check: `checksNoOpEnds` false skips it when identities repeat.
    public func verify(old: [RowSnapshot], new: [RowSnapshot], _ changes: FlatChanges, touched: Set<RowID>, isReload: Bool,
                checksNoOpEnds: Bool = true, context: String) {
        enum Slot: Equatable { case old(Int), added(splice: Int) }
        var slots = old.indices.map(Slot.old)
        var removedBySplice: [[Int]] = []
        var previousEnd = -1
        for (index, splice) in changes.splices.enumerated() {
            check(splice.removed > 0 || splice.added > 0, "empty splice \(splice) in \(changes) for \(context)")
            check(splice.position > previousEnd, "splices \(changes) are not ascending and apart for \(context)")
            guard splice.position >= 0, splice.position + splice.removed <= slots.count else {
                check(false, "splice \(splice) out of range \(slots.count) in \(changes) for \(context)")
                return
            }
            let removed = slots[splice.position..<(splice.position + splice.removed)]
            removedBySplice.append(removed.compactMap { if case .old(let row) = $0 { row } else { nil } })
            check(removedBySplice[index].count == splice.removed, "splice \(splice) removes new rows in \(changes)")
            slots.replaceSubrange(splice.position..<(splice.position + splice.removed),
                                  with: repeatElement(Slot.added(splice: index), count: splice.added))
            previousEnd = splice.position + splice.added
        }
        guard slots.count == new.count else {
            check(false, "replaying \(changes) gives \(slots.count) rows, expected \(new.count), for \(context)")
            return
        }
        for (position, slot) in slots.enumerated() {
            if case .old(let row) = slot {
                check(old[row].id == new[position].id, "row \(position) is \(old[row].id), expected \(new[position].id) after \(changes) for \(context)")
            }
        }
        // The rows the changes say kept their place: the same rows, in the same sections, untouched by splices.
        check(changes.unchangedRows <= min(old.count, new.count), "\(changes.unchangedRows) unchanged rows of \(old.count) and \(new.count) for \(context)")
        for position in 0..<min(changes.unchangedRows, old.count, new.count) {
            check(slots[position] == .old(position) && old[position].id == new[position].id && old[position].section == new[position].section,
                  "row \(position) moved, before the \(changes.unchangedRows) unchanged rows of \(changes) for \(context)")
        }
        verifyIntermediateLists(old: old, finalSlots: slots.map { if case .old(let row) = $0 { row } else { nil } }, changes, context: context)
        // No splice starts or ends by removing a row and putting the same row back.
        for (index, splice) in changes.splices.enumerated() where splice.removed > 0 && splice.added > 0 && !isReload && checksNoOpEnds {
            let addedPositions = slots.indices.filter { slots[$0] == .added(splice: index) }
            let removed = removedBySplice[index]
            check(old[removed.first!].id != new[addedPositions.first!].id, "splice \(splice) has a no-op prefix for \(context)")
            check(old[removed.last!].id != new[addedPositions.last!].id, "splice \(splice) has a no-op suffix for \(context)")
        }
        // Rows updated in place: every survivor whose content changed, and only touched survivors.
        let updated = Set(changes.updatedPositions)
        check(updated.count == changes.updatedPositions.count, "duplicate updated positions \(changes.updatedPositions)")
        for position in changes.updatedPositions {
            guard position >= 0, position < slots.count, case .old = slots[position] else {
                check(false, "updated position \(position) is not a row left in place, in \(changes) for \(context)")
                continue
            }
            check(touched.contains(new[position].id), "row \(position) \(new[position].id) reported updated but untouched for \(context)")
        }
        for (position, slot) in slots.enumerated() {
            if case .old(let row) = slot, old[row].version != new[position].version {
                check(updated.contains(position), "row \(position) changed content but is not in updatedPositions \(changes) for \(context)")
            }
        }
        if !isReload { verifySectionHeaderUpdates(new, changes, touched: touched, context: context) }
        verifyLayoutMatches(new, context: context)
    }

    /// When the view shows headers itself, each section that shows its header and whose
    /// header model changed is reported for an update in place (a reload binds every header
    /// afresh).
    private func verifySectionHeaderUpdates(_ rows: [RowSnapshot], _ changes: FlatChanges, touched: Set<RowID>, context: String) {
        check(changes.updatedSectionHeaders == changes.updatedSectionHeaders.sorted(), "section headers \(changes.updatedSectionHeaders) not ascending")
        check(changes.updatedSectionHeaders.allSatisfy { $0 >= 0 && $0 < storage.numberOfSections() },
              "section headers \(changes.updatedSectionHeaders) out of range for \(context)")
        guard options.headersAreSectionHeaders else {
            check(changes.updatedSectionHeaders.isEmpty, "section headers reported with header rows for \(context)")
            return
        }
        for section in 0..<storage.numberOfSections() {
            guard let header = storage.headerModel(forSection: section) as? any TaggedModel, touched.contains(.header(header.uid)),
                  storage.numberOfItems(inSection: section) > 0 || options.displayHeaderOnEmptySection else { continue }
            check(changes.updatedSectionHeaders.contains(section), "the header of section \(section) changed but is not reported in \(changes) for \(context)")
        }
    }

    /// Between splices, `SpliceSequence` must say what each position holds: a final row
    /// (at the same position, or an old row further on) or an old row about to vanish.
    private func verifyIntermediateLists(old: [RowSnapshot], finalSlots: [Int?], _ changes: FlatChanges, context: String) {
        var finalPositionOfOldRow: [Int: Int] = [:]
        for (position, row) in finalSlots.enumerated() { if let row { finalPositionOfOldRow[row] = position } }
        let sequence = SpliceSequence(splices: changes.splices, oldCount: old.count)
        var slots: [Int?] = Array(old.indices)
        for (index, splice) in changes.splices.enumerated() {
            slots.replaceSubrange(splice.position..<(splice.position + splice.removed), with: repeatElement(nil, count: splice.added))
            check(sequence.count(afterSplice: index) == slots.count, "intermediate count after splice \(index) of \(changes)")
            for (position, slot) in slots.enumerated() {
                let expected: SpliceSequence.Row
                if let oldRow = slot {
                    expected = finalPositionOfOldRow[oldRow].map { .final($0) } ?? .vanishing
                } else {
                    expected = .final(position)
                }
                let actual = sequence.row(at: position, afterSplice: index)
                check(actual == expected, "after splice \(index) of \(changes), position \(position) is \(actual), expected \(expected), for \(context)")
            }
            // What GTK must be told: final rows by final section; the old rows of one later
            // splice by old section, apart from everything else.
            var removingSplice: [Int: Int] = [:]
            var shift = 0
            for (later, laterSplice) in changes.splices.enumerated() {
                if later > index {
                    for row in (laterSplice.position - shift)..<(laterSplice.position - shift + laterSplice.removed) { removingSplice[row] = later }
                }
                shift += laterSplice.added - laterSplice.removed
            }
            let labels: [String] = slots.enumerated().map { position, slot in
                if let oldRow = slot, finalPositionOfOldRow[oldRow] == nil {
                    return "old section \(old[oldRow].section) of splice \(removingSplice[oldRow] ?? -1)"
                }
                guard case .final(let final) = sequence.row(at: position, afterSplice: index) else { return "?" }
                return "section \(layout.section(containing: final) ?? -1)"
            }
            let oldSectionRanges = sectionRanges(of: old)
            verifySectionRanges(labels, context: "after splice \(index) of \(changes) for \(context)") { position in
                sequence.sectionRange(containing: position, afterSplice: index, sectionOf: { layout.section(containing: $0)! },
                                      oldSectionRange: { oldSectionRanges[$0] })
            }
        }
    }

    /// The positions of each row's section, by row.
    private func sectionRanges(of rows: [RowSnapshot]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for position in rows.indices {
            if position > 0, rows[position].section != rows[position - 1].section { start = position }
            var end = position + 1
            while end < rows.count, rows[end].section == rows[position].section { end += 1 }
            ranges.append(start..<end)
        }
        return ranges
    }

    /// Each section range is exactly the run of equal `labels` holding its position.
    private func verifySectionRanges(_ labels: [String], context: String, range: (Int) -> Range<Int>) {
        var start = 0
        for position in labels.indices {
            if position > 0, labels[position] != labels[position - 1] { start = position }
            var end = position + 1
            while end < labels.count, labels[end] == labels[position] { end += 1 }
            let actual = range(position)
            check(actual == start..<end, "section range of \(position) is \(actual), expected \(start..<end) (\(labels[position])) \(context)")
        }
    }

    private func verifyLayoutMatches(_ rows: [RowSnapshot], context: String) {
        check(layout.count == rows.count, "layout has \(layout.count) rows, expected \(rows.count), for \(context)")
        check(layout.numberOfSections == storage.numberOfSections(), "layout has \(layout.numberOfSections) sections")
        for (position, expected) in rows.enumerated() {
            guard let row = layout.row(at: position) else {
                check(false, "layout has no row at \(position) for \(context)")
                return
            }
            check(rowID(of: row) == expected.id, "layout row \(position) is \(row), expected \(expected.id), for \(context)")
            check(layout.position(of: row) == position, "position(of: \(row)) is not \(position)")
        }
        check(layout.row(at: rows.count) == nil, "layout has a row past its end")
        var sectionRows: [Int: Range<Int>] = [:]
        for (position, row) in rows.enumerated() {
            sectionRows[row.section] = (sectionRows[row.section]?.lowerBound ?? position)..<(position + 1)
        }
        for (position, expected) in rows.enumerated() {
            check(layout.sectionRange(containing: position) == sectionRows[expected.section],
                  "section range of \(position) is \(String(describing: layout.sectionRange(containing: position))) for \(context)")
        }
    }

    private func rowID(of row: FlatRow) -> RowID? {
        switch row {
        case .header(let section): return (storage.headerModel(forSection: section) as? any TaggedModel).map { .header($0.uid) }
        case .item(let indexPath): return (storage.item(at: indexPath) as? any TaggedModel).map { .item($0.uid) }
        case .footer(let section): return (storage.footerModel(forSection: section) as? any TaggedModel).map { .footer($0.uid) }
        }
    }
}

