import CGtk
import CGtkShims
import CGtkTestShims
import Foundation
@testable import ListViewManager
import ModelStorage
import XCTest
import GtkTestSupport

/// The section index (`sectionIndexTitles`): a strip of titles beside the list, pressed and
/// dragged along with a real pointer and moved along with real keys, read by screen readers
/// as a slider, in real windows on every kind of view.
final class SectionIndexTests: XCTestCase {
    /// `sections` sections of 20 posts (a whole number of rows in a grid of 4 columns),
    /// under headers in a list.
    @MainActor
    private static func fill(_ manager: ItemViewManager, sections: Int) {
        manager.register(PostRow.self)
        let storage = manager.memoryStorage!
        storage.setItemsForAllSections((0..<sections).map { section in (0..<20).map { Post(id: section * 100 + $0, title: "post \(section)-\($0)") } })
        if manager is ListViewManager {
            manager.registerHeader(BannerRow.self)
            storage.setSectionHeaderModels((0..<sections).map { Banner(text: "section \($0)") })
        }
    }

    /// Where title `index` is drawn on the strip, as a share of its height.
    @MainActor
    private static func fraction(ofTitle index: Int, in manager: ItemViewManager) -> Float {
        let strip = manager.sectionIndexStrip!
        let height = Double(gtk_widget_get_height(strip))
        let lineHeight = Double(gtk_drawing_area_get_content_height(gtkCast(strip, to: GtkDrawingArea.self)))
        let lines = SectionIndexLines(count: manager.shownSectionIndexTitles.count, height: height, lineHeight: lineHeight)
        return Float((lines.top + (Double(lines.line(of: index)) + 0.5) * lines.step) / height)
    }

    /// The section whose first item is the top item wholly in view.
    @MainActor
    private static func topSection(of manager: ItemViewManager) -> Int? {
        guard let top = manager.topItemRow(), top.indexPath.item == 0 else { return nil }
        return top.indexPath.section
    }

    /// Whether the list went to `section`: its first item at the top, or shown with the list
    /// at its end (from where the last sections cannot reach the top).
    @MainActor
    private static func arrived(at section: Int, in manager: ItemViewManager) -> Bool {
        if topSection(of: manager) == section { return true }
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.kind.listBase(manager.view)))!
        let atEnd = gtk_adjustment_get_value(adjustment) >= gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - 0.5
        return atEnd && manager.shownSpan(of: IndexPath(item: 0, section: section)) != nil
    }

    @MainActor
    private static func assertHighlighted(_ index: Int, _ title: String, in manager: ItemViewManager, _ what: String,
                                          file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(manager.sectionIndex?.strip.current, index, what, file: file, line: line)
        XCTAssertEqual(cgtk_shims_accessible_value_is(manager.sectionIndexStrip!, GTK_ACCESSIBLE_ROLE_SLIDER, Double(index), title), 1,
                       "\(what): a screen reader hears \(title)", file: file, line: line)
    }

    func testPressingDraggingAndKeysTakeEveryKindOfViewToTheTitlesSection() { onMain {
        openTestDisplay()
        let letters = (0..<12).map { String(UnicodeScalar(UInt8(65 + $0))) }
        for make in everyKindOfView(column: "Title", { (post: Post) in post.title }) {
            let manager = make()
            let name = "\(type(of: manager))"
            Self.fill(manager, sections: 12)
            manager.sectionIndexTitles { letters }
            let harness = GtkHarness(showing: { manager }, throughScrolledView: true)
            harness.waitForFrames(5)
            let strip = manager.sectionIndexStrip!
            XCTAssertEqual(gtk_widget_get_mapped(strip), 1, "\(name): the strip is shown beside the list")
            XCTAssertEqual(manager.shownSectionIndexTitles, letters)

            // A title pressed: its section at the top.
            harness.click(strip, at: Self.fraction(ofTitle: 7, in: manager))
            harness.wait(until: { Self.arrived(at: 7, in: manager) }, "\(name): section H at the top")
            harness.waitForFrames(3)
            XCTAssertTrue(Self.arrived(at: 7, in: manager), "\(name): section H stays at the top")
            Self.assertHighlighted(7, "H", in: manager, "\(name): pressed")

            // Dragged along the strip: the list follows the pointer down to J, then up to C.
            harness.drag(from: strip, to: strip, at: Self.fraction(ofTitle: 9, in: manager), drop: false)
            harness.wait(until: { Self.arrived(at: 9, in: manager) }, "\(name): section J at the top")
            harness.movePointer(to: strip, at: Self.fraction(ofTitle: 2, in: manager))
            harness.wait(until: { Self.arrived(at: 2, in: manager) }, "\(name): section C at the top")
            harness.releaseButton()
            harness.waitForFrames(3)
            Self.assertHighlighted(2, "C", in: manager, "\(name): dragged")

            // Scrolled with the wheel: the highlight follows the section at the top.
            harness.turnWheel(over: manager.view, clicks: 12, up: false)
            harness.wait(until: { (manager.topItemRow()?.indexPath.section ?? 0) > 2 }, "\(name): the wheel went past section C")
            harness.waitForFrames(3)
            let shown = manager.topItemRow()!.indexPath.section
            Self.assertHighlighted(shown, letters[shown], in: manager, "\(name): wheeled")

            // The keyboard, on the strip: the next title, five on, the last, the first.
            harness.press(["Down"], focusing: strip)
            harness.wait(until: { Self.arrived(at: shown + 1, in: manager) }, "\(name): Down takes the list to the next section")
            Self.assertHighlighted(shown + 1, letters[shown + 1], in: manager, "\(name): Down")
            harness.press(["Home"], focusing: strip)
            harness.wait(until: { Self.arrived(at: 0, in: manager) }, "\(name): Home takes the list to the first section")
            harness.press(["Page_Down"], focusing: strip)
            harness.wait(until: { Self.arrived(at: 5, in: manager) }, "\(name): Page Down goes five sections on")
            harness.press(["End"], focusing: strip)
            harness.wait(until: { manager.shownSpan(of: IndexPath(item: 0, section: 11)) != nil }, "\(name): End takes the list to the last section")
            harness.waitForFrames(3)
            Self.assertHighlighted(11, "L", in: manager, "\(name): the last section, which cannot reach the top, stays picked")
            harness.press(["Up"], focusing: strip)
            harness.waitForFrames(5)
            Self.assertHighlighted(10, "K", in: manager, "\(name): Up goes on from the title picked, not from the section at the top")
            XCTAssertNotNil(manager.shownSpan(of: IndexPath(item: 0, section: 10)), "\(name): section K shown")

            // The strip comes after the list in the focus chain. Tab in GTK's lists goes from
            // row to row (GtkListBase's focus), so it leaves the list at its last row.
            gtk_widget_grab_focus(manager.view)  // GTK 4.12's scroll_to moves the focus only within the list
            manager.focus(position: manager.bridge.count - 1)
            harness.wait(until: { gtk_widget_get_focus_child(manager.kind.listBase(manager.view)) != nil }, "\(name): the last row focused")
            harness.press(["Tab"], focusing: gtk_root_get_focus(gtk_widget_get_root(strip))!)
            harness.wait(until: { gtk_widget_has_focus(strip) != 0 }, "\(name): Tab from the last row reaches the strip")
            harness.press(["shift+Tab"], focusing: strip)
            harness.wait(until: { gtk_widget_get_focus_child(manager.kind.listBase(manager.view)) != nil }, "\(name): Shift+Tab goes back to the list")
            harness.close()
        }
    } }

    func testThousandsOfTitlesShareTheStripAndFollowTheSections() { onMain {
        openTestDisplay()
        let manager = ListViewManager()
        Self.fill(manager, sections: 1000)
        var asked = 0
        manager.sectionIndexTitles { [unowned manager] in
            asked += 1
            return (0..<manager.storage.numberOfSections()).map { String($0) }
        }
        let harness = GtkHarness(showing: { manager }, throughScrolledView: true)
        harness.waitForFrames(5)
        let strip = manager.sectionIndexStrip!
        let height = Double(gtk_widget_get_height(strip))
        let lineHeight = Double(gtk_drawing_area_get_content_height(gtkCast(strip, to: GtkDrawingArea.self)))
        let lines = SectionIndexLines(count: 1000, height: height, lineHeight: lineHeight)
        XCTAssertLessThan(lines.count, 1000, "a thousand titles do not fit: the strip shows some, with dots between")
        XCTAssertGreaterThan(lines.count, 10)

        // Three quarters down the strip: the title there, whichever line shows it.
        harness.click(strip, at: 0.75)
        harness.wait(until: { (manager.sectionIndex?.strip.current ?? 0) > 0 }, "a title picked")
        let title = manager.sectionIndex!.strip.current!
        // The pointer is on a whole pixel: a pixel holds two titles or so.
        XCTAssertEqual(Double(title), 750, accuracy: 3, "three quarters down the titles")
        harness.wait(until: { Self.arrived(at: title, in: manager) }, "section \(title) at the top")
        XCTAssertEqual(manager.pinnedHeader?.shownSection, nil, "its header at the top, under nothing")

        // The sections change: the titles are asked for again; items alone do not ask.
        let before = asked
        manager.memoryStorage.addItems([Post(id: 1_000_000, title: "one more")], toSection: 3)
        harness.waitForFrames(2)
        XCTAssertEqual(asked, before, "a new item leaves the titles alone")
        manager.memoryStorage.addItems([Post(id: 1_000_001, title: "a new section")], toSection: 1000)
        harness.waitForFrames(2)
        XCTAssertEqual(asked, before + 1, "a new section asks for the titles again")
        XCTAssertEqual(manager.shownSectionIndexTitles.count, 1001)
        XCTAssertEqual(manager.shownSectionIndexTitles.last, "1000")

        // No titles: no strip.
        manager.sectionIndexTitles { nil }
        harness.waitForFrames(2)
        XCTAssertEqual(gtk_widget_get_visible(strip), 0, "no titles, no strip")
        harness.close()
    } }

    func testTitlesForSectionsSomeLettersHaveGoWhereTheAppSays() { onMain {
        openTestDisplay()
        let manager = ListViewManager()
        Self.fill(manager, sections: 5)
        let sectionLetters = ["B", "D", "K", "P", "W"]
        let alphabet = (0..<26).map { String(UnicodeScalar(UInt8(65 + $0))) }
        manager.sectionIndexTitles { alphabet }
        // A letter no section has goes to the section of the letter before it.
        manager.sectionForSectionIndexTitle { title, _ in max(0, sectionLetters.lastIndex { $0 <= title } ?? 0) }
        let harness = GtkHarness(showing: { manager }, throughScrolledView: true)
        harness.waitForFrames(5)
        let strip = manager.sectionIndexStrip!
        harness.click(strip, at: Self.fraction(ofTitle: 12, in: manager))  // M
        harness.wait(until: { Self.arrived(at: 2, in: manager) }, "M goes to K's section")
        Self.assertHighlighted(12, "M", in: manager, "M picked")
        harness.turnWheel(over: manager.view, clicks: 3, up: true)
        harness.wait(until: { manager.sectionIndex?.strip.current == 3 }, "scrolled up into D's section: D highlighted")
        harness.close()
    } }

    func testTheStripsLinesReachEveryTitle() {
        let fitting = SectionIndexLines(count: 10, height: 400, lineHeight: 20)
        XCTAssertTrue(fitting.showsEveryTitle)
        XCTAssertEqual(fitting.top, 100, "ten lines of 20 centred in 400")
        XCTAssertEqual((0..<10).map { fitting.title(onLine: $0) }, Array(0..<10))
        XCTAssertEqual(fitting.title(at: 0), 0, "above the lines: the first")
        XCTAssertEqual(fitting.title(at: 399), 9, "below them: the last")

        let crowded = SectionIndexLines(count: 1000, height: 400, lineHeight: 16)
        XCTAssertEqual(crowded.count, 25)
        XCTAssertFalse(crowded.showsTitle(1), "every other line a dot")
        XCTAssertTrue(crowded.showsTitle(24), "the last line a title")
        var reached = Set<Int>()
        for y in 0..<400 { reached.insert(crowded.title(at: Double(y) + 0.5)) }
        XCTAssertEqual(reached.count, 400, "each pixel a title of its own: the pointer reaches 400 of the 1000")
        for lines in [crowded, SectionIndexLines(count: 26, height: 300, lineHeight: 13), fitting] {
            for line in 0..<lines.count {
                XCTAssertEqual(lines.line(of: lines.title(onLine: line)), line, "a line's own title is highlighted on it")
            }
        }
        XCTAssertEqual(crowded.line(of: 999), 24)
        XCTAssertEqual(SectionIndexLines(count: 0, height: 300, lineHeight: 13).line(of: 0), 0)
    }
}
