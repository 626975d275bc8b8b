import CGtk
import Foundation
@testable import ListViewManager
import ModelStorage
import TestSupport
import XCTest
import GtkTestSupport

/// Type-ahead find (`Configuration.typeAhead`): typing while the list has the keyboard focus
/// jumps to the next item whose text starts with what was typed, in real windows with real
/// keys (xdotool), on every kind of view.
final class TypeAheadTests: XCTestCase {
    private struct City: Equatable {
        static let names = ["Amsterdam", "Antwerp", "Barcelona", "Berlin", "Bern", "Bordeaux", "Cádiz", "Cork", "Dublin", "Gdańsk",
                            "Lisbon", "Lyon", "Madrid", "Milan", "Nantes", "Oslo", "Porto", "Riga", "Turin", "Vienna"]
        let index: Int
        var name: String { "\(Self.names[index % Self.names.count]) \(index)" }
    }

    private final class CityRow: ListRow, ModelTransfer {
        let name = Label()
        required init() { super.init(); append(name) }
        func update(with model: City) { name.text = model.name }
    }

    /// A manager finding cities by name, showing 400 of them, in a real window, with the
    /// keyboard focus on the row at `start`.
    @MainActor
    private static func show(_ manager: ItemViewManager, focusing start: Int) -> GtkHarness {
        manager.register(CityRow.self)
        manager.typeAheadText(model: City.self) { city, _ in city.name }
        manager.memoryStorage.addItems((0..<400).map(City.init))
        let harness = GtkHarness(showing: { manager })
        XCTAssertTrue(manager.focus(IndexPath(item: start, section: 0)))
        harness.waitForFrames(3)
        return harness
    }

    /// The index of the first city from `start` on (going round) whose name starts with
    /// `typed` (forward), or the last before it (backward), as a user would look for it.
    private static func expected(_ typed: String, from start: Int, forward: Bool = true) -> Int {
        (0..<400).map { forward ? (start + $0) % 400 : (start - $0 + 400) % 400 }
            .first { City(index: $0).name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                .hasPrefix(typed.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)) }!
    }

    /// The index of the city with the keyboard focus.
    @MainActor
    private static func focusedCity(_ manager: ItemViewManager) -> Int? {
        guard let position = manager.focusedPosition, case .item(let indexPath)? = manager.bridge.layout.row(at: position) else { return nil }
        return indexPath.item
    }

    /// Presses `keys` with the focused row's widget focused.
    @MainActor
    private static func press(_ keys: [String], in manager: ItemViewManager, harness: GtkHarness, file: StaticString = #filePath, line: UInt = #line) {
        guard let position = manager.focusedPosition, let row = manager.shownRowWidget(at: position) else {
            return XCTFail("no focused row", file: file, line: line)
        }
        harness.press(keys, focusing: row, file: file, line: line)
        harness.waitForFrames(3)
    }

    func testTypingFindsTheNextCityAndTheArrowsGoFromMatchToMatch() throws { try onMain {
        openTestDisplay()
        let manager = ListViewManager()
        let harness = Self.show(manager, focusing: 10)
        Self.press(["b", "e"], in: manager, harness: harness)
        let berlin = Self.expected("be", from: 10)
        XCTAssertEqual(Self.focusedCity(manager), berlin, "the first city from the focused one starting with “be”")
        XCTAssertEqual(manager.typeAheadFindText, "be", "the popover shows what was typed")
        XCTAssertEqual(manager.selectedIndexPaths, [IndexPath(item: berlin, section: 0)], "selected, as a move of the keyboard does")
        XCTAssertNotNil(manager.shownSpan(of: IndexPath(item: berlin, section: 0)), "in view")

        // A capital letter: Shift, pressed first, leaves the search open.
        Self.press(["shift+r"], in: manager, harness: harness)
        XCTAssertEqual(manager.typeAheadFindText, "beR", "Shift pressed for a capital letter keeps what was typed")
        XCTAssertEqual(Self.focusedCity(manager), Self.expected("ber", from: berlin))
        Self.press(["BackSpace"], in: manager, harness: harness)

        Self.press(["Down"], in: manager, harness: harness)
        let bern = Self.expected("be", from: berlin + 1)
        XCTAssertEqual(Self.focusedCity(manager), bern, "Down: the next match")
        Self.press(["Down", "Down", "Up"], in: manager, harness: harness)
        XCTAssertEqual(Self.focusedCity(manager), Self.expected("be", from: bern + 1), "Down twice, then Up: the match after Bern")
        Self.press(["Escape"], in: manager, harness: harness)
        XCTAssertNil(manager.typeAheadFindText, "Escape closes it")

        // Far down the list, accents ignored; a new word starts from the focused city.
        let focused = Self.focusedCity(manager)!
        Self.press(["c", "a", "d"], in: manager, harness: harness)
        let cadiz = Self.expected("cad", from: focused)
        XCTAssertEqual(Self.focusedCity(manager), cadiz, "“cad” finds Cádiz")
        XCTAssertNotNil(manager.shownSpan(of: IndexPath(item: cadiz, section: 0)), "in view")
        Self.press(["x"], in: manager, harness: harness)
        XCTAssertEqual(Self.focusedCity(manager), cadiz, "no city starts with “cadx”: the focus stays")
        Self.press(["BackSpace"], in: manager, harness: harness)
        XCTAssertEqual(manager.typeAheadFindText, "cad")
        Self.press(["Escape"], in: manager, harness: harness)

        // The list changes: the next search reads the texts again.
        try manager.memoryStorage.insertItems([City(index: 1006)], at: IndexPath(item: 0, section: 0))
        harness.waitForFrames(2)
        Self.press(["c", "a", "d", "i", "z", "space", "1", "0", "0"], in: manager, harness: harness)
        XCTAssertEqual(Self.focusedCity(manager), 0, "“cadiz 100” finds the city inserted at the top")
        harness.close()
    } }

    func testTheTextsAreReadAheadInPartsWhileTheListHasTheFocusSoTheFirstKeyReadsNone() throws { try onMain {
        openTestDisplay()
        let manager = ListViewManager()
        manager.register(CityRow.self)
        // Each text asked for notes how many times the main loop had gone round.
        let rounds = MainLoopRounds()
        var asked = 0, roundsAsked = Set<Int>()
        manager.typeAheadText(model: City.self) { city, _ in
            asked += 1
            roundsAsked.insert(rounds.count)
            return city.name
        }
        manager.memoryStorage.addItems((0..<100_000).map(City.init))
        let harness = GtkHarness(showing: { manager })
        harness.waitForFrames(3)
        XCTAssertEqual(asked, 0, "nothing read before the list has the focus")

        XCTAssertTrue(manager.focus(IndexPath(item: 0, section: 0)))
        rounds.start()  // (an idle source always ready: the harness's waits that empty the main loop come after)
        harness.wait(until: { manager.typeAhead?.index?.isComplete == true }, timeout: 10, "every text read ahead")
        rounds.counting = false
        XCTAssertEqual(asked, 100_000, "each item's text read once")
        XCTAssertGreaterThan(roundsAsked.count, 3, "read in parts, the main loop going round between them")

        // The first key reads no text.
        asked = 0
        Self.press(["v", "i"], in: manager, harness: harness)
        XCTAssertEqual(Self.focusedCity(manager), Self.expected("vi", from: 0))
        XCTAssertEqual(asked, 0, "the texts read ahead were searched")
        Self.press(["Escape"], in: manager, harness: harness)

        // A change drops them; they are read again once the list is still for a second.
        try manager.memoryStorage.insertItems([City(index: 100_000)], at: IndexPath(item: 0, section: 0))
        XCTAssertNil(manager.typeAhead?.index)
        harness.wait(until: { manager.typeAhead?.index?.isComplete == true }, timeout: 10, "read again")
        XCTAssertEqual(asked, 100_001)

        // Without the focus, a change is not read ahead.
        let other = gtk_button_new()!
        harness.arrange(GTK_ORIENTATION_VERTICAL, [other, harness.list])
        gtk_widget_grab_focus(other)
        try manager.memoryStorage.insertItems([City(index: 100_001)], at: IndexPath(item: 0, section: 0))
        asked = 0
        let later = Date().addingTimeInterval(1.5)
        harness.wait(until: { Date() > later }, "a second and a half")
        XCTAssertEqual(asked, 0, "nothing read while the list does not have the focus")
        harness.close()
    } }

    func testEveryKindOfViewFindsAsTheUserTypes() { onMain {
        openTestDisplay()
        let makers = everyKindOfView(column: "City") { (city: City) in city.name }.dropFirst()  // the list: above
        for make in makers {
            let manager = make()
            let harness = Self.show(manager, focusing: 0)
            Self.press(["m", "i"], in: manager, harness: harness)
            let milan = Self.expected("mi", from: 0)
            XCTAssertEqual(Self.focusedCity(manager), milan, "\(type(of: manager))")
            Self.press(["Down"], in: manager, harness: harness)
            XCTAssertEqual(Self.focusedCity(manager), Self.expected("mi", from: milan + 1), "\(type(of: manager))")
            harness.close()
        }
    } }
}

/// Counts the rounds of the main loop in which it had nothing else to do.
@MainActor
private final class MainLoopRounds {
    var count = 0
    var counting = true

    func start() {
        whenIdle(inBackground: true) { [self] in
            count += 1
            if counting { start() }
        }
    }
}
