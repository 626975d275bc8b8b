import CGtk
import Foundation
import GRDB
@testable import ListViewManager
import ModelStorage
import SQLiteStorage
import TestSupport
import XCTest
import GtkTestSupport

/// Type-ahead find on a paged SQLite storage (`PagedQuery.searchBy`), in a real window with
/// real keys (xdotool): SQLite finds the row, the list goes to it at once (a placeholder,
/// filled when its page arrives), and no item's text is read.
final class PagedTypeAheadTests: XCTestCase {
    private struct Town: FetchableRecord, Equatable, Sendable {
        static let names = ["Amsterdam", "Antwerp", "Barcelona", "Berlin", "Bern", "Bordeaux", "Cádiz", "Cork", "Dublin", "Gdańsk",
                            "Lisbon", "Lyon", "Madrid", "Milan", "Nantes", "Oslo", "Porto", "Riga", "Turin", "Vienna"]
        var name: String
        init(row: Row) { name = row["name"] }
        /// The name of the town at `index` (rowid `index + 1`).
        static func name(_ index: Int) -> String { "\(names[index % names.count]) \(index)" }
    }

    private final class TownRow: ListRow, ModelTransfer {
        let name = Label()
        required init() { super.init(); append(name) }
        func update(with model: PagedRow<Town>) { name.text = model.record?.name ?? "…" }
    }

    private final class TownHeader: ListRow, ModelTransfer {
        let letter = Label()
        required init() { super.init(); append(letter) }
        func update(with model: String) { letter.text = model }
    }

    private static let count = 100_000

    /// The index of the first town from `start` on (going round) whose name starts with
    /// `typed`, ASCII case ignored (forward), or the last before it (backward).
    private static func expected(_ typed: String, from start: Int, forward: Bool = true) -> Int? {
        (0..<count).map { forward ? (start + $0) % count : (start - $0 + count) % count }
            .first { Town.name($0).lowercased().hasPrefix(typed.lowercased()) }
    }

    /// A real SQLite file (in a new folder, for the test to remove) of table `town`: the
    /// towns 0 to `count - 1`, town i at rowid i + 1.
    private static func makeTowns(_ count: Int) throws -> (DatabasePool, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PagedTypeAheadTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try DatabasePool(path: folder.appendingPathComponent("towns.sqlite").path)
        try database.write { db in
            try db.execute(sql: "CREATE TABLE town (name TEXT NOT NULL)")
            let insert = try db.makeStatement(sql: "INSERT INTO town (name) VALUES (?)")
            for index in 0..<count { try insert.execute(arguments: [Town.name(index)]) }
        }
        return (database, folder)
    }

    func testTypingAsksSQLiteAndTheListGoesToTheRowFoundWhosePageIsReadThen() throws { try onMain {
        openTestDisplay()
        let (database, folder) = try Self.makeTowns(Self.count)
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = PagedQueryStorage<Town>(database: database, query: PagedQuery(table: "town", searchBy: "name"))
        let manager = ListViewManager()
        manager.register(TownRow.self)
        var textsAsked = 0
        manager.typeAheadText(model: PagedRow<Town>.self) { town, _ in
            textsAsked += 1
            return town.record?.name
        }
        manager.storage = storage
        let harness = GtkHarness(showing: { manager })
        harness.wait(until: { storage.isLoaded }, "every key read")
        XCTAssertTrue(manager.focus(IndexPath(item: 0, section: 0)))
        harness.waitForFrames(3)

        @MainActor func focused() -> Int? {
            guard let position = manager.focusedPosition, case .item(let indexPath)? = manager.bridge.layout.row(at: position) else { return nil }
            return indexPath.item
        }
        /// Presses `keys`, then waits for the popover to show `shown` and for SQLite's answer.
        @MainActor func press(_ keys: [String], showing shown: String?, line: UInt = #line) {
            guard let position = manager.focusedPosition, let row = manager.shownRowWidget(at: position) else {
                return XCTFail("no focused row", line: line)
            }
            harness.press(keys, focusing: row, line: line)
            harness.wait(until: { manager.typeAheadFindText == shown && !manager.typeAheadIsSearching }, "SQLite's answer", line: line)
            harness.waitForFrames(3)
        }

        // Each key a search from the focused town: "turin 500" is far below the rows read.
        let pagesRead = storage.pagesRead
        press(["t", "u", "r", "i", "n", "space", "5", "0", "0"], showing: "turin 500")
        let turin = try XCTUnwrap(Self.expected("turin 500", from: Self.expected("turin 50", from: 0)!))
        XCTAssertEqual(turin, 50_018)
        XCTAssertEqual(focused(), turin, "the town found by SQLite has the focus")
        XCTAssertEqual(manager.selectedIndexPaths, [IndexPath(item: turin, section: 0)])
        // Its page is read as GTK shows it; the row shows its record.
        harness.wait(until: { (manager.row(at: IndexPath(item: turin, section: 0)) as? TownRow)?.name.text == "Turin 50018" },
                     "the row found, filled")
        XCTAssertGreaterThan(storage.pagesRead, pagesRead)

        press(["Down"], showing: "turin 500")
        XCTAssertEqual(focused(), Self.expected("turin 500", from: turin + 1), "Down: the next match")
        press(["Up"], showing: "turin 500")
        XCTAssertEqual(focused(), turin, "Up: back")
        press(["x"], showing: "turin 500x")
        XCTAssertEqual(focused(), turin, "no town starts with “turin 500x”: the focus stays")
        press(["Escape"], showing: nil)

        // Far below, then Down round the end, Up backwards round the start and back.
        press(["v", "i", "e", "n", "n", "a", "space", "9", "9", "9", "9"], showing: "vienna 9999")
        XCTAssertEqual(focused(), 99_999, "each key from the town before: Vienna 50019, 90019, 99019, 99919, 99999")
        press(["Down"], showing: "vienna 9999")
        XCTAssertEqual(focused(), 9_999, "Down round the end: Vienna 9999, the only other match")
        press(["Up"], showing: "vienna 9999")
        XCTAssertEqual(focused(), 99_999, "Up round the start (every match read, the keys passed over backwards)")
        press(["Up"], showing: "vienna 9999")
        XCTAssertEqual(focused(), 9_999, "Up again")
        XCTAssertEqual(textsAsked, 0, "no item's text read: SQLite searched")
        XCTAssertFalse(manager.typeAheadTextsAreRead)
        harness.close()
    } }

    /// In sections (a header above each first letter's towns), Up from the first match of a
    /// section goes past the section's header to the match before it, not back to itself.
    func testUpFromTheFirstTownOfASectionGoesToTheMatchBeforeIt() throws { try onMain {
        openTestDisplay()
        let (database, folder) = try Self.makeTowns(2_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Sections A, B, C…, each in rowid order; every name ends in its number, so "b" finds
        // Barcelona 2, Berlin 3, Bern 4, Bordeaux 5, Barcelona 22…
        let storage = PagedQueryStorage<Town>(database: database, query: PagedQuery(table: "town", sectionBy: "substr(name, 1, 1)", searchBy: "name"))
        let manager = ListViewManager()
        manager.register(TownRow.self)
        manager.registerHeader(TownHeader.self)
        manager.storage = storage
        let harness = GtkHarness(showing: { manager })
        harness.wait(until: { storage.isLoaded }, "every key read")
        let lastA = storage.numberOfItems(inSection: 0) - 1
        XCTAssertTrue(manager.focus(IndexPath(item: lastA, section: 0)))
        harness.waitForFrames(3)
        guard let row = manager.shownRowWidget(at: manager.focusedPosition!) else { return XCTFail("no focused row") }
        harness.press(["b"], focusing: row)
        harness.wait(until: { manager.typeAheadFindText == "b" && !manager.typeAheadIsSearching }, "SQLite's answer")
        XCTAssertEqual(manager.focusedIndexPath, IndexPath(item: 0, section: 1), "Barcelona 2, the first of B")
        guard let first = manager.shownRowWidget(at: manager.focusedPosition!) else { return XCTFail("no focused row") }
        harness.press(["Up"], focusing: first)
        harness.waitForFrames(2)
        harness.wait(until: { !manager.typeAheadIsSearching }, "SQLite's answer")
        harness.waitForFrames(3)
        let lastB = storage.numberOfItems(inSection: 1) - 1
        XCTAssertEqual(manager.focusedIndexPath, IndexPath(item: lastB, section: 1), "backwards past B's header: round to the last of B")
        harness.close()
    } }
}
