import Foundation
import ModelStorage
import Testing

/// A model with a stable identity and a content version; equal by identity, as an app's
/// model with an id is. Used for items, headers and footers alike.
struct Tagged: Equatable, CustomStringConvertible {
    let uid: Int
    var version: Int

    static func == (lhs: Tagged, rhs: Tagged) -> Bool { lhs.uid == rhs.uid }

    var bumped: Tagged { Tagged(uid: uid, version: version + 1) }
    var description: String { "#\(uid).v\(version)" }
}

/// Which row a flat row is, independent of where it is.
enum RowID: Hashable {
    case header(Int), item(Int), footer(Int)
}

struct RowSnapshot: Equatable {
    let id: RowID
    let version: Int
}

/// The storage flattened directly, without `FlatLayout`: what the list must show.
func referenceRows(of storage: MemoryStorage, _ options: FlatLayoutOptions) -> [RowSnapshot] {
    var rows: [RowSnapshot] = []
    for section in 0..<storage.numberOfSections() {
        let items = storage.items(inSection: section) ?? []
        if let header = storage.headerModel(forSection: section) as? Tagged, !items.isEmpty || options.displayHeaderOnEmptySection {
            rows.append(RowSnapshot(id: .header(header.uid), version: header.version))
        }
        for case let item as Tagged in items {
            rows.append(RowSnapshot(id: .item(item.uid), version: item.version))
        }
        if let footer = storage.footerModel(forSection: section) as? Tagged, !items.isEmpty || options.displayFooterOnEmptySection {
            rows.append(RowSnapshot(id: .footer(footer.uid), version: footer.version))
        }
    }
    return rows
}

/// Random single and batched operations on a MemoryStorage, each delivered update replayed
/// through a FlatLayout and its splices replayed on the old rows.
final class RandomStorageRun {
    let seed: UInt64
    private var random: SeededGenerator
    private let fixture = StorageFixture()
    private var storage: MemoryStorage { fixture.storage }
    private let options: FlatLayoutOptions
    private var layout: FlatLayout
    private var nextUID = 0
    private(set) var failures: [String] = []
    private var step = 0
    /// A reload replaces every row with no way to know which stayed: it is exempt from the
    /// no-op prefix and suffix check.
    private var isReload = false

    init(seed: UInt64) {
        self.seed = seed
        random = SeededGenerator(seed: seed)
        options = FlatLayoutOptions(displayHeaderOnEmptySection: seed % 2 == 0, displayFooterOnEmptySection: seed % 4 < 2)
        layout = FlatLayout(storage: fixture.storage, options: options)
    }

    func run(operations: Int) {
        for index in 0..<operations where failures.isEmpty {
            step = index
            runStep()
        }
    }

    private func runStep() {
        let oldRows = referenceRows(of: storage, options)
        var touched = Set<RowID>()
        var description = ""
        if int(10) == 0 {
            runInvalidOperation(oldRows)
            return
        }
        if int(4) == 0 {
            storage.performUpdates {
                for _ in 0..<(1 + int(6)) { description += randomOperation(&touched) + "; " }
            }
        } else {
            description = randomOperation(&touched)
        }
        let delivered = fixture.recorder.take()
        check(delivered.updates.count + delivered.reloads <= 1, "more than one delivery for \(description)")
        let changes: FlatChanges
        isReload = delivered.reloads == 1
        if isReload {
            changes = layout.reload(from: storage)
        } else if let update = delivered.updates.first {
            check(!update.isEmpty, "an empty update was delivered")
            changes = layout.apply(update)
        } else {
            changes = FlatChanges()
        }
        verify(old: oldRows, new: referenceRows(of: storage, options), changes, touched: touched,
               context: "\(description) -> \(delivered.updates.first?.description ?? "reloads: \(delivered.reloads)")")
    }

    // MARK: Checks

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition, failures.isEmpty {
            failures.append("seed \(seed), step \(step): \(message())")
        }
    }

    private func verify(old: [RowSnapshot], new: [RowSnapshot], _ changes: FlatChanges, touched: Set<RowID>, context: String) {
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
        verifyIntermediateLists(old: old, finalSlots: slots.map { if case .old(let row) = $0 { row } else { nil } }, changes, context: context)
        // No splice starts or ends by removing a row and putting the same row back.
        for (index, splice) in changes.splices.enumerated() where splice.removed > 0 && splice.added > 0 && !isReload {
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
        verifyLayoutMatches(new, context: context)
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
    }

    private func rowID(of row: FlatRow) -> RowID? {
        switch row {
        case .header(let section): return (storage.headerModel(forSection: section) as? Tagged).map { .header($0.uid) }
        case .item(let indexPath): return (storage.item(at: indexPath) as? Tagged).map { .item($0.uid) }
        case .footer(let section): return (storage.footerModel(forSection: section) as? Tagged).map { .footer($0.uid) }
        }
    }

    // MARK: Operations

    private func int(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &random)
    }

    private func newModel() -> Tagged {
        nextUID += 1
        return Tagged(uid: nextUID, version: 0)
    }

    private func newModels(_ count: Int) -> [Tagged] {
        (0..<count).map { _ in newModel() }
    }

    private var allItems: [(IndexPath, Tagged)] {
        (0..<storage.numberOfSections()).flatMap { section in
            (storage.items(inSection: section) ?? []).enumerated().map { (ip(section, $0.offset), $0.element as! Tagged) }
        }
    }

    private func randomItem() -> (IndexPath, Tagged)? {
        let items = allItems
        return items.isEmpty ? nil : items[int(items.count)]
    }

    /// A header or footer model for a section whose current one is `current`: sometimes
    /// none, else the current one with new content (replacing a model keeps its row), or a
    /// new one where there was none.
    private func randomSupplementary(_ current: Any?, _ touched: inout Set<RowID>, _ id: (Int) -> RowID) -> Tagged? {
        guard int(3) > 0 else { return nil }
        guard let current = current as? Tagged else { return newModel() }
        touched.insert(id(current.uid))
        return current.bumped
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    private func randomOperation(_ touched: inout Set<RowID>) -> String {
        let sections = storage.numberOfSections()
        let total = storage.totalNumberOfItems
        var choice = int(100)
        if total > 60, choice < 32 { choice = 32 + int(20) }
        if sections > 8, choice >= 70, choice < 74 { choice = 74 }
        switch choice {
        case 0..<12:
            let section = int(sections + 2)
            storage.addItem(newModel(), toSection: section)
            return "addItem to \(section)"
        case 12..<18:
            let section = int(sections + 1)
            storage.addItems(newModels(int(4)), toSection: section)
            return "addItems to \(section)"
        case 18..<28:
            let section = int(sections + 1)
            let target = ip(section, int(storage.numberOfItems(inSection: section) + 1))
            try? storage.insertItem(newModel(), to: target)
            return "insertItem at \(target)"
        case 28..<32:
            var counts = (0..<sections).map { storage.numberOfItems(inSection: $0) }
            var targets: [IndexPath] = []
            for _ in 0..<(1 + int(4)) where !counts.isEmpty {
                let section = int(counts.count)
                targets.append(ip(section, int(counts[section] + 1)))
                counts[section] += 1
            }
            try? storage.insertItems(newModels(targets.count), to: targets)
            return "insertItems at \(targets.map { [$0.section, $0.item] })"
        case 32..<40:
            guard let (_, item) = randomItem() else { return "nothing to remove" }
            try? storage.removeItem(item)
            return "removeItem \(item)"
        case 40..<44:
            let items = allItems.filter { _ in int(3) == 0 }.map(\.1)
            storage.removeItems(items)
            return "removeItems \(items)"
        case 44..<48:
            let indexPaths = allItems.filter { _ in int(3) == 0 }.map(\.0)
            storage.removeItems(at: indexPaths)
            return "removeItems at \(indexPaths.map { [$0.section, $0.item] })"
        case 48..<50:
            guard sections > 0 else { return "no section to empty" }
            let section = int(sections)
            storage.removeItems(fromSection: section)
            return "removeItems fromSection \(section)"
        case 50:
            storage.removeAllItems()
            return "removeAllItems"
        case 51..<61:
            guard let (source, _) = randomItem() else { return "nothing to move" }
            let section = int(sections)
            let count = storage.numberOfItems(inSection: section) - (section == source.section ? 1 : 0)
            let destination = ip(section, int(count + 1))
            storage.moveItem(at: source, to: destination)
            return "moveItem \([source.section, source.item]) to \([destination.section, destination.item])"
        case 61..<66:
            guard let (_, item) = randomItem() else { return "nothing to reload" }
            touched.insert(.item(item.uid))
            storage.reloadItem(item.bumped)
            return "reloadItem \(item)"
        case 66..<70:
            guard let (_, item) = randomItem() else { return "nothing to replace" }
            touched.insert(.item(item.uid))
            try? storage.replaceItem(item, with: item.bumped)
            return "replaceItem \(item)"
        case 70..<74:
            let index = int(sections + 1)
            let section = SectionModel(items: newModels(int(4)), headerModel: int(2) == 0 ? newModel() : nil,
                                       footerModel: int(2) == 0 ? newModel() : nil)
            storage.insertSection(section, atIndex: index)
            return "insertSection at \(index) with \(section.numberOfItems) items"
        case 74..<78:
            let indexes = IndexSet((0..<sections).filter { _ in int(3) == 0 })
            storage.deleteSections(indexes)
            return "deleteSections \(Array(indexes))"
        case 78..<82:
            guard sections > 0 else { return "no section to move" }
            let (from, to) = (int(sections), int(sections))
            storage.moveSection(from, toSection: to)
            return "moveSection \(from) to \(to)"
        case 82..<86:
            let section = int(sections + 1)
            storage.setItems(newModels(int(5)), forSection: section)
            return "setItems forSection \(section)"
        case 86..<92:
            let section = int(sections + 1)
            let model = randomSupplementary(storage.headerModel(forSection: section), &touched, RowID.header)
            storage.setSectionHeaderModel(model, forSection: section)
            return "setSectionHeaderModel \(model.map(\.description) ?? "nil") for \(section)"
        case 92..<96:
            let section = int(sections + 1)
            let model = randomSupplementary(storage.footerModel(forSection: section), &touched, RowID.footer)
            storage.setSectionFooterModel(model, forSection: section)
            return "setSectionFooterModel \(model.map(\.description) ?? "nil") for \(section)"
        case 96:
            let models = (0..<int(sections + 2)).map { randomSupplementary(storage.headerModel(forSection: $0), &touched, RowID.header) }
            storage.setSectionHeaderModels(models)
            return "setSectionHeaderModels \(models)"
        case 97:
            storage.setItemsForAllSections((0..<int(sections + 2)).map { _ in newModels(int(4)) })
            return "setItemsForAllSections"
        case 98:
            var inner = ""
            storage.updateWithoutAnimations {
                inner = randomOperation(&touched) + ", " + randomOperation(&touched)
            }
            return "updateWithoutAnimations { \(inner) }"
        default:
            let index = int(sections + 1)
            let header = randomSupplementary(storage.headerModel(forSection: index), &touched, RowID.header)
            storage.setSection(SectionModel(items: newModels(int(3)), headerModel: header), forSection: index)
            return "setSection \(index)"
        }
    }

    /// An operation with bad input: it must report one anomaly, change nothing and
    /// deliver nothing.
    private func runInvalidOperation(_ oldRows: [RowSnapshot]) {
        let sections = storage.numberOfSections()
        let anomaliesBefore = fixture.anomalies.count
        var threw = false
        let description: String
        switch int(8) {
        case 0:
            let target = ip(sections + 1, 1)
            do { try storage.insertItem(newModel(), to: target) } catch { threw = true }
            description = "insertItem past the end"
        case 1:
            do { try storage.removeItem(newModel()) } catch { threw = true }
            description = "removeItem of a missing item"
        case 2:
            storage.moveItem(at: ip(sections, 0), to: ip(0, 0))
            description = "moveItem from a missing section"
        case 3:
            storage.deleteSections(IndexSet([0, sections]))
            description = "deleteSections past the end"
        case 4:
            storage.removeItems(at: [ip(0, storage.numberOfItems(inSection: 0))])
            description = "removeItems at a missing index path"
        case 5:
            do { try storage.insertItems(newModels(2), to: [ip(0, 0)]) } catch { threw = true }
            description = "insertItems with a count mismatch"
        case 6:
            storage.insertSection(SectionModel(items: newModels(1)), atIndex: sections + 1)
            description = "insertSection past the end"
        default:
            storage.addItems([newModel(), nil], toSection: 0)
            description = "addItems with a nil"
        }
        _ = threw
        let delivered = fixture.recorder.take()
        check(delivered.updates.isEmpty && delivered.reloads == 0, "\(description) delivered \(delivered)")
        check(fixture.anomalies.count == anomaliesBefore + 1, "\(description) reported \(fixture.anomalies.count - anomaliesBefore) anomalies")
        check(referenceRows(of: storage, options) == oldRows, "\(description) changed the storage")
    }
}

@Suite("Random storage operations replayed through the flat layout")
struct RandomizedLayoutTests {
    /// Seeds 0..<200 in groups run in parallel; `STORAGE_SEED=n` reruns one seed.
    static let seedGroups: [Range<UInt64>] = {
        if let seed = ProcessInfo.processInfo.environment["STORAGE_SEED"].flatMap(UInt64.init) {
            return [seed..<(seed + 1)]
        }
        return stride(from: 0, to: 200, by: 25).map { UInt64($0)..<UInt64($0 + 25) }
    }()

    @Test("500 operations per seed keep splices, in-place updates and layout exact", arguments: seedGroups)
    func randomOperations(seeds: Range<UInt64>) {
        for seed in seeds {
            let run = RandomStorageRun(seed: seed)
            run.run(operations: 500)
            #expect(run.failures.isEmpty, "\(run.failures.first ?? "") (rerun with STORAGE_SEED=\(seed))")
            if !run.failures.isEmpty { return }
        }
    }
}
