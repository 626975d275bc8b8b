import Foundation
import ModelStorage
import TestSupport
import Testing

/// A storage, a layout following it, and the changes of the last update.
final class LayoutFixture {
    let storage = MemoryStorage()
    let recorder = UpdateRecorder()
    var layout: FlatLayout

    init(options: FlatLayoutOptions = FlatLayoutOptions(), _ setUp: (MemoryStorage) -> Void = { _ in }) {
        setUp(storage)
        layout = FlatLayout(storage: storage, options: options)
        storage.delegate = recorder
    }

    /// Runs `change` on the storage and returns what the layout says the view must do.
    func changes(_ change: (MemoryStorage) -> Void) -> FlatChanges {
        change(storage)
        let delivered = recorder.take()
        if delivered.reloads > 0 { return layout.reload(from: storage) }
        return delivered.updates.reduce(into: FlatChanges(unchangedRows: layout.count)) { result, update in
            let changes = layout.apply(update)
            result.splices += changes.splices
            result.updatedPositions += changes.updatedPositions
            result.updatedSectionHeaders += changes.updatedSectionHeaders
            result.unchangedRows = min(result.unchangedRows, changes.unchangedRows)
        }
    }
}

@Suite("FlatLayout: rows and positions")
struct FlatLayoutRowTests {
    @Test("Each section flattens to its header, items and footer")
    func rows() {
        let fixture = LayoutFixture { storage in
            storage.addItems(["a", "b"], toSection: 0)
            storage.addItems(["c"], toSection: 1)
            storage.setSectionHeaderModels(["Today", "Earlier"])
            storage.setSectionFooterModel("2 posts", forSection: 0)
        }
        #expect(fixture.layout.rows == [.header(section: 0), .item(ip(0, 0)), .item(ip(0, 1)), .footer(section: 0),
                                         .header(section: 1), .item(ip(1, 0))])
        #expect(fixture.layout.count == 6)
        #expect(fixture.layout.position(of: .item(ip(1, 0))) == 5)
        #expect(fixture.layout.position(of: .footer(section: 1)) == nil)
        #expect(fixture.layout.position(of: .item(ip(0, 2))) == nil)
        #expect(fixture.layout.startOfSection(1) == 4)
        #expect(fixture.layout.row(at: 6) == nil)
        #expect(fixture.layout.row(at: -1) == nil)
    }

    @Test("Headers and footers of empty sections are shown or hidden by the options")
    func emptySections() {
        let setUp: (MemoryStorage) -> Void = { storage in
            storage.setSectionHeaderModels(["Empty", "Full"])
            storage.setSectionFooterModels(["end", "end"])
            storage.addItem(1, toSection: 1)
        }
        let shown = LayoutFixture(setUp)
        #expect(shown.layout.rows.count == 5)
        let hidden = LayoutFixture(options: FlatLayoutOptions(displayHeaderOnEmptySection: false, displayFooterOnEmptySection: false), setUp)
        #expect(hidden.layout.rows == [.header(section: 1), .item(ip(1, 0)), .footer(section: 1)])
        let headersOnly = LayoutFixture(options: FlatLayoutOptions(displayHeaderOnEmptySection: true, displayFooterOnEmptySection: false), setUp)
        #expect(headersOnly.layout.rows.first == .header(section: 0))
        #expect(headersOnly.layout.rows.count == 4)
    }

    @Test("Lookups in a layout of many sections and a million items")
    func largeLayout() {
        let fixture = LayoutFixture { storage in
            storage.setItemsForAllSections((0..<1000).map { section in [Int](repeating: section, count: 1000) })
            storage.setSectionHeaderModels((0..<1000).map { "Section \($0)" })
        }
        #expect(fixture.layout.count == 1_001_000)
        #expect(fixture.layout.row(at: 1_000_999) == .item(ip(999, 999)))
        #expect(fixture.layout.row(at: 500_500) == .header(section: 500))
        #expect(fixture.layout.position(of: .item(ip(700, 3))) == 700 * 1001 + 4)
    }
}

@Suite("FlatLayout: translating updates into splices")
struct FlatLayoutTranslationTests {
    @Test("An insert becomes one splice at the item's row, after the header")
    func insert() {
        let fixture = LayoutFixture { $0.setSectionHeaderModels(["H"]); $0.addItems([1, 2]) }
        let changes = fixture.changes { try? $0.insertItem(9, to: ip(0, 1)) }
        #expect(changes == FlatChanges(splices: [Splice(position: 2, removed: 0, added: 1)], unchangedRows: 2))
    }

    @Test("A batch of adjacent inserts is one splice")
    func adjacentInserts() {
        let fixture = LayoutFixture { $0.addItems(Array(0..<10)) }
        let changes = fixture.changes { storage in
            storage.performUpdates {
                for value in 0..<1000 { try? storage.insertItem(100 + value, to: ip(0, 5 + value)) }
            }
        }
        #expect(changes.splices == [Splice(position: 5, removed: 0, added: 1000)])
    }

    @Test("Separate changes are separate ascending splices; touching ones merge")
    func mergedAndSeparate() {
        let fixture = LayoutFixture { $0.addItems(Array(0..<10)) }
        let changes = fixture.changes { storage in
            storage.performUpdates {
                storage.removeItems(at: [ip(0, 9)])
                storage.addItem(99, toSection: 0)
                try? storage.insertItem(50, to: ip(0, 2))
                try? storage.removeItem(2)
            }
        }
        #expect(changes.splices.map(\.description) == ["2-1+1", "9-1+1"])
    }

    @Test("Content changes are updated in place, not spliced")
    func contentUpdates() throws {
        let fixture = LayoutFixture { $0.setSectionHeaderModels(["H"]); $0.addItems([Tagged(uid: 1, version: 0), Tagged(uid: 2, version: 0)]) }
        var changes = fixture.changes { $0.reloadItem(Tagged(uid: 2, version: 1)) }
        #expect(changes == FlatChanges(updatedPositions: [2], unchangedRows: 3))
        changes = fixture.changes { $0.setSectionHeaderModel("New title", forSection: 0) }
        #expect(changes == FlatChanges(updatedPositions: [0], unchangedRows: 3))
        changes = fixture.changes { try? $0.replaceItem(Tagged(uid: 1, version: 0), with: "another kind of model") }
        #expect(changes == FlatChanges(updatedPositions: [1], unchangedRows: 3))
    }

    @Test("The rows before the first change keep their place; an index path change counts as one")
    func unchangedRows() {
        let fixture = LayoutFixture { $0.setSectionHeaderModels(["H"]); $0.addItems(Array(0..<10)) }
        #expect(fixture.changes { try? $0.insertItem(99, to: ip(0, 5)) }.unchangedRows == 6)
        #expect(fixture.changes { $0.addItem(100, toSection: 0) }.unchangedRows == 12)
        let batch = fixture.changes { storage in
            storage.performUpdates {
                storage.removeItems(at: [ip(0, 8)])
                try? storage.insertItem(7, to: ip(0, 2))
            }
        }
        #expect(batch.unchangedRows == 3)
        #expect(fixture.changes { $0.reloadItem(3) }.unchangedRows == 13)

        // An empty section without rows goes: no row moves, but those after it change index path.
        let sections = LayoutFixture { storage in
            storage.addItems([1, 2], toSection: 0)
            storage.addItems([3], toSection: 2)
        }
        let deletion = sections.changes { $0.deleteSections(IndexSet(integer: 1)) }
        #expect(deletion.splices.isEmpty)
        #expect(deletion.unchangedRows == 2)
        // The last item of a section moves to the top of the next: the same row at the same
        // position, in another section.
        let move = sections.changes { $0.moveItem(at: ip(0, 1), to: ip(1, 0)) }
        #expect(move.splices.isEmpty)
        #expect(move.unchangedRows == 1)
        #expect(sections.layout.row(at: 1) == .item(ip(1, 0)))
        #expect(sections.changes { $0.setItems([5]) }.unchangedRows == 0)
    }

    @Test("A content update followed by inserts before it is reported at its final row")
    func updateThenShift() {
        let fixture = LayoutFixture { $0.addItems([Tagged(uid: 1, version: 0), Tagged(uid: 2, version: 0)]) }
        let changes = fixture.changes { storage in
            storage.performUpdates {
                storage.reloadItem(Tagged(uid: 2, version: 1))
                try? storage.insertItems([Tagged(uid: 3, version: 0), Tagged(uid: 4, version: 0)], to: [ip(0, 0), ip(0, 0)])
            }
        }
        #expect(changes == FlatChanges(splices: [Splice(position: 0, removed: 0, added: 2)], updatedPositions: [3]))
    }

    @Test("A move is a removal and an insertion; moving back leaves nothing to emit")
    func moves() {
        let fixture = LayoutFixture { $0.addItems(Array(0..<10)) }
        var changes = fixture.changes { $0.moveItem(at: ip(0, 2), to: ip(0, 7)) }
        #expect(changes.splices.map(\.description) == ["2-1", "7+1"])
        changes = fixture.changes { storage in
            storage.performUpdates {
                storage.moveItem(at: ip(0, 0), to: ip(0, 9))
                storage.moveItem(at: ip(0, 9), to: ip(0, 0))
            }
        }
        #expect(changes.isEmpty)
    }

    @Test("An update of more changes than splicing in detail is worth is one splice replacing every row")
    func hugeUpdatesAreReloads() {
        let fixture = LayoutFixture { storage in
            storage.setSectionHeaderModels(["A", "B"])
            storage.addItems(Array(0..<20_000), toSection: 0)
            storage.addItems([-1], toSection: 1)
        }
        let moves = FlatLayout.detailedChangeLimit + 1
        let changes = fixture.changes { storage in
            storage.performUpdates {
                for _ in 0..<moves { storage.moveItem(at: ip(0, 0), to: ip(0, 19_999)) }
                storage.addItem(-2, toSection: 1)
            }
        }
        #expect(changes == FlatChanges(splices: [Splice(position: 0, removed: 20_003, added: 20_004)]))
        #expect(fixture.layout.rows == FlatLayout(storage: fixture.storage).rows, "the layout follows the storage")
        #expect(fixture.layout.rows.count == 20_004)
    }

    @Test("Moving a section moves all its rows")
    func sectionMove() {
        let fixture = LayoutFixture { storage in
            storage.setItemsForAllSections([[1, 2], [3], [4]])
            storage.setSectionHeaderModels(["A", "B", "C"])
        }
        let changes = fixture.changes { $0.moveSection(0, toSection: 2) }
        #expect(changes.splices.map(\.description) == ["0-3", "4+3"])
        #expect(fixture.layout.rows.first == .header(section: 0))
        #expect(fixture.layout.position(of: .item(ip(2, 1))) == 6)
    }

    @Test("The first item of a section shows its hidden header and footer in the same splice")
    func hiddenHeaderAppears() {
        let fixture = LayoutFixture(options: FlatLayoutOptions(displayHeaderOnEmptySection: false, displayFooterOnEmptySection: false)) { storage in
            storage.setSectionHeaderModels(["A", "B"])
            storage.setSectionFooterModels(["a", "b"])
            storage.addItem(1, toSection: 0)
        }
        var changes = fixture.changes { $0.addItem(2, toSection: 1) }
        #expect(changes.splices == [Splice(position: 3, removed: 0, added: 3)])
        changes = fixture.changes { $0.removeItems(fromSection: 0) }
        #expect(changes.splices == [Splice(position: 0, removed: 3, added: 0)])
        // Emptied and refilled in one batch: the header and footer stay, only the items change.
        changes = fixture.changes { $0.setItems([5, 6], forSection: 1) }
        #expect(changes.splices == [Splice(position: 1, removed: 1, added: 2)])
    }

    @Test("A header model set on an empty section is a row only when empty sections show headers")
    func headerOnEmptySection() {
        let shown = LayoutFixture { $0.addItems([Int](), toSection: 1) }
        #expect(shown.changes { $0.setSectionHeaderModel("B", forSection: 1) }.splices == [Splice(position: 0, removed: 0, added: 1)])
        let hidden = LayoutFixture(options: FlatLayoutOptions(displayHeaderOnEmptySection: false)) { $0.addItems([Int](), toSection: 1) }
        #expect(hidden.changes { $0.setSectionHeaderModel("B", forSection: 1) }.isEmpty)
        #expect(hidden.changes { $0.addItem(1, toSection: 1) }.splices == [Splice(position: 0, removed: 0, added: 2)])
    }

    @Test("A reload replaces every row in one splice")
    func reload() {
        let fixture = LayoutFixture { $0.addItems([1, 2, 3]) }
        let changes = fixture.changes { $0.setItemsForAllSections([[1], [2]]) }
        #expect(changes == FlatChanges(splices: [Splice(position: 0, removed: 3, added: 2)]))
        #expect(fixture.layout.rows == [.item(ip(0, 0)), .item(ip(1, 0))])
    }

    @Test("Splices print in GTK's testsuite notation")
    func notation() {
        #expect(Splice(position: 5, removed: 1, added: 2).description == "5-1+2")
        #expect(Splice(position: 0, removed: 0, added: 3).description == "0+3")
        #expect(FlatChanges(splices: [Splice(position: 2, removed: 1, added: 0)], updatedPositions: [4]).description == "[2-1] updated 4")
    }
}

@Suite("FlatLayout: updates too scattered or too crowded to splice row by row")
struct FlatLayoutLimitTests {
    /// A storage of `count` tagged items in one section, a checker following it, and the
    /// rows it shows.
    static func checked(count: Int) -> (StorageFixture, LayoutReplayChecker) {
        let fixture = StorageFixture()
        fixture.storage.addItems((0..<count).map { Tagged(uid: $0, version: 0) })
        _ = fixture.delivered
        return (fixture, LayoutReplayChecker(storage: fixture.storage, options: FlatLayoutOptions()))
    }

    @Test("Moves scattered over more places than detailedSpliceLimit are one splice replacing every row")
    func scatteredMovesAreAReload() throws {
        let (fixture, checker) = Self.checked(count: 20_000)
        let old = referenceRows(of: fixture.storage, checker.options)
        var random = SystemRandomNumberGenerator()
        fixture.storage.performUpdates {
            for _ in 0..<(FlatLayout.detailedSpliceLimit + 500) {
                fixture.storage.moveItem(at: ip(0, Int.random(in: 0..<20_000, using: &random)), to: ip(0, Int.random(in: 0..<19_999, using: &random)))
            }
        }
        let update = try #require(fixture.delivered.first)
        let changes = checker.layout.apply(update)
        #expect(changes.splices == [Splice(position: 0, removed: 20_000, added: 20_000)])
        checker.verify(old: old, new: referenceRows(of: fixture.storage, checker.options), changes, touched: [], isReload: true, context: "scattered moves")
        #expect(checker.failures.isEmpty, "\(checker.failures.first ?? "")")
    }

    @Test("Many moves inside one region stay few splices over that region, however many rows move")
    func crowdedMovesStayOneSplice() throws {
        let (fixture, checker) = Self.checked(count: 10_000)
        let old = referenceRows(of: fixture.storage, checker.options)
        // Reverse rows 1,000..<4,000 one move at a time: 3,000 runs in one region.
        fixture.storage.performUpdates {
            for offset in 0..<3_000 { fixture.storage.moveItem(at: ip(0, 3_999), to: ip(0, 1_000 + offset)) }
        }
        let update = try #require(fixture.delivered.first)
        let changes = checker.layout.apply(update)
        // The row at 1,000 never moves (the others move around it): 2,999 rows come before
        // it and 2,999 go after it.
        #expect(changes.splices.map(\.description) == ["1000+2999", "4000-2999"])
        checker.verify(old: old, new: referenceRows(of: fixture.storage, checker.options), changes, touched: [], isReload: false,
                       checksNoOpEnds: false, context: "a reversed block")
        #expect(checker.failures.isEmpty, "\(checker.failures.first ?? "")")
    }
}

@Suite("FlatLayout: headers the view shows itself (GTK 4.12's section headers)")
struct SectionHeaderLayoutTests {
    static let options = FlatLayoutOptions(headersAreSectionHeaders: true)

    @Test("Headers take no rows; sections are the ranges of their items and footers")
    func rowsAndRanges() {
        let fixture = LayoutFixture(options: Self.options) { storage in
            storage.addItems(["a", "b"], toSection: 0)
            storage.addItems(["c"], toSection: 1)
            storage.setSectionHeaderModels(["Today", "Earlier"])
            storage.setSectionFooterModel("2 posts", forSection: 0)
        }
        #expect(fixture.layout.rows == [.item(ip(0, 0)), .item(ip(0, 1)), .footer(section: 0), .item(ip(1, 0))])
        #expect(fixture.layout.sectionRange(containing: 2) == 0..<3)
        #expect(fixture.layout.sectionRange(containing: 3) == 3..<4)
        #expect(fixture.layout.sectionRange(containing: 4) == nil)
        #expect(fixture.layout.showsSectionHeader(1))
    }

    @Test("An empty section showing its header keeps one header row until it has items or a footer")
    func emptySection() {
        let fixture = LayoutFixture(options: Self.options) { storage in
            storage.addItems(["a"], toSection: 0)
            storage.setSectionHeaderModels(["Full", "Empty"])
        }
        #expect(fixture.layout.rows == [.item(ip(0, 0)), .header(section: 1)])
        #expect(fixture.changes { $0.addItem("b", toSection: 1) }.splices.map(\.description) == ["1-1+1"])
        #expect(fixture.changes { try? $0.removeItem("b") }.splices.map(\.description) == ["1-1+1"])
        #expect(fixture.changes { $0.setSectionFooterModel("end", forSection: 1) }.splices.map(\.description) == ["1-1+1"])
        #expect(fixture.layout.rows == [.item(ip(0, 0)), .footer(section: 1)])
        let hidden = LayoutFixture(options: FlatLayoutOptions(displayHeaderOnEmptySection: false, headersAreSectionHeaders: true)) { storage in
            storage.setSectionHeaderModels(["Empty"])
            storage.setSectionFooterModel("end", forSection: 0)
        }
        #expect(hidden.layout.rows == [.footer(section: 0)])
        #expect(!hidden.layout.showsSectionHeader(0), "an empty section shows only its footer, as with header rows")
        #expect(hidden.changes { $0.addItem("a", toSection: 0) }.splices.map(\.description) == ["0+1"])
        #expect(hidden.layout.showsSectionHeader(0))
    }

    @Test("A section is found by its id wherever sections around it come and go")
    func sectionIDs() throws {
        let fixture = LayoutFixture(options: Self.options) { storage in
            storage.addItems(["a"], toSection: 0)
            storage.addItems(["b"], toSection: 1)
        }
        let id = try #require(fixture.layout.sectionID(ofSection: 1))
        #expect(fixture.layout.section(withID: id) == 1)
        _ = fixture.changes { $0.insertSection(SectionModel(), atIndex: 0) }
        #expect(fixture.layout.section(withID: id) == 2)
        _ = fixture.changes { $0.moveSection(2, toSection: 0) }
        #expect(fixture.layout.section(withID: id) == 0)
        _ = fixture.changes { $0.deleteSections(IndexSet(integer: 0)) }
        #expect(fixture.layout.section(withID: id) == nil)
        #expect(fixture.layout.sectionID(ofSection: 5) == nil)
    }

    @Test("A header model inserted, replaced or deleted is an update of the section's header, not a splice")
    func headerUpdates() {
        let fixture = LayoutFixture(options: Self.options) { storage in
            storage.addItems(["a"], toSection: 0)
            storage.addItems(["b"], toSection: 1)
        }
        let inserted = fixture.changes { $0.setSectionHeaderModel("Later", forSection: 1) }
        #expect(inserted.splices.isEmpty && inserted.updatedSectionHeaders == [1])
        let moved = fixture.changes { storage in
            storage.performUpdates {
                storage.setSectionHeaderModel("Sooner", forSection: 1)
                storage.insertSection(SectionModel(), atIndex: 0)
            }
        }
        #expect(moved.updatedSectionHeaders == [2], "followed to the section's place after the update")
        #expect(fixture.changes { $0.setSectionHeaderModel(String?.none, forSection: 2) }.updatedSectionHeaders == [2])
    }
}
