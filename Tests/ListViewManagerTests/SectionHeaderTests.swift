import CGtk
import CGtkShims
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// Section headers with `usesGTKSectionHeaders`: on GTK 4.12 and later the view's own
/// GtkListHeaders, which take no positions; before, header rows. Each test states what it
/// expects on both.
private var native: Bool { cgtk_shims_gtk_at_least(12) != 0 }

final class SectionHeaderTests: XCTestCase {
    @MainActor
    private final class Fixture {
        private(set) var harness: GtkHarness!
        let manager: ListViewManager
        var events: [String] = []

        init(configure: (ListViewManager) -> Void = { _ in }) {
            openTestDisplay()
            let manager = ListViewManager()
            manager.configuration.usesGTKSectionHeaders = true
            self.manager = manager
            var record: (String) -> Void = { _ in }
            manager.register(PostRow.self)
            manager.registerHeader(BannerRow.self) { mapping in
                mapping.configure { row, banner, indexPath in record("configure \(banner.text) [\(indexPath.section)]") }
                mapping.willDisplay { _, banner, indexPath in record("display \(banner.text) [\(indexPath.section)]") }
                mapping.didEndDisplaying { _, banner, indexPath in record("end \(banner.text) [\(indexPath.section)]") }
            }
            manager.didSelect(PostRow.self) { _, post, indexPath in record("select \(post.id) [\(indexPath.section),\(indexPath.item)]") }
            manager.didActivate(PostRow.self) { _, post, indexPath in record("activate \(post.id) [\(indexPath.section),\(indexPath.item)]") }
            manager.memoryStorage.setSectionHeaderModels([Banner(text: "today"), Banner(text: "earlier")])
            manager.memoryStorage.addItems([Post(id: 1, title: "one"), Post(id: 2, title: "two")], toSection: 0)
            manager.memoryStorage.addItems([Post(id: 3, title: "three"), Post(id: 4, title: "four")], toSection: 1)
            configure(manager)
            record = { [unowned self] in events.append($0) }
            harness = GtkHarness(showing: { manager })
        }

        func take() -> [String] {
            defer { events = [] }
            return events
        }

        var shown: ShownSections { ShownSections(manager) }

        /// Where GTK's header widgets break the sections the layout has (none: they match).
        var misplacedHeaders: [String] {
            let bridge = manager.bridge
            return shown.misplacedHeaders { bridge.sectionRange(containing: $0).lowerBound == $0 }
        }
    }

    func testHeadersAreTheViewsOwnAndTakeNoPositions() { onMain {
        let fixture = Fixture()
        let manager = fixture.manager
        XCTAssertEqual(manager.showsNativeSectionHeaders, native)
        if native {
            XCTAssertEqual(manager.numberOfRows, 4, "items only")
            XCTAssertEqual(fixture.shown.entries, [.header("TODAY"), .row(0), .row(1), .header("EARLIER"), .row(2), .row(3)])
            XCTAssertEqual(manager.position(of: IndexPath(item: 0, section: 1)), 2)
        } else {
            XCTAssertEqual(manager.numberOfRows, 6, "a header row above each section's items")
            XCTAssertEqual(manager.position(of: IndexPath(item: 0, section: 1)), 4)
        }
        XCTAssertEqual(fixture.take().filter { $0.hasPrefix("display") }.sorted(), ["display earlier [1]", "display today [0]"])
        fixture.harness.close()
    } }

    func testUpdatesAreTheSplicesOfTheItemsAndHeadersFollowThem() { onMain {
        let fixture = Fixture()
        let manager = fixture.manager
        let storage = manager.memoryStorage!
        let recorder = ItemsChangedRecorder(manager.bridge.listModel) { object in
            guard let item = RowItem.of(object) else { return "?" }
            return "\(item.kind) \((item.model as? Post)?.id ?? -1)"
        }
        _ = fixture.take()
        try? storage.insertItem(Post(id: 5, title: "five"), to: IndexPath(item: 0, section: 1))
        XCTAssertEqual(recorder.take(), [native ? "2+1" : "4+1"])
        storage.removeItems(at: [IndexPath(item: 1, section: 0), IndexPath(item: 2, section: 1)])
        XCTAssertEqual(recorder.take(), native ? ["1-1", "3-1"] : ["2-1", "5-1"])
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.misplacedHeaders, [])
        if native {
            XCTAssertEqual(fixture.shown.entries, [.header("TODAY"), .row(0), .header("EARLIER"), .row(1), .row(2)])
        }

        // A header model replaced: the header is updated in place, no splice.
        _ = fixture.take()
        storage.setSectionHeaderModel(Banner(text: "later"), forSection: 1)
        XCTAssertEqual(recorder.take(), [], "an update in place")
        fixture.harness.waitForFrames()
        if native {
            XCTAssertEqual(fixture.take(), ["configure later [1]"], "the same header row, configured with its new model")
            XCTAssertEqual(fixture.shown.headerTexts, ["TODAY", "LATER"])
        }

        // The first section goes: the header of the other one follows it to section 0.
        _ = fixture.take()
        storage.deleteSections(IndexSet(integer: 0))
        XCTAssertEqual(recorder.take(), [native ? "0-1" : "0-2"])
        fixture.harness.waitForFrames()
        let events = fixture.take()
        XCTAssertTrue(events.contains("end today [0]"), "\(events)")
        XCTAssertEqual(fixture.misplacedHeaders, [])
        if native {
            XCTAssertEqual(fixture.shown.entries, [.header("LATER"), .row(0), .row(1)])
        }
        // An event now names the section where it is.
        storage.setSectionHeaderModel(Banner(text: "all"), forSection: 0)
        fixture.harness.waitForFrames()
        XCTAssertTrue(fixture.take().contains("configure all [0]"))
        recorder.disconnect()
        fixture.harness.close()
    } }

    func testSelectionAndActivationNameTheStorageIndexPaths() { onMain {
        let fixture = Fixture()
        let manager = fixture.manager
        _ = fixture.take()
        let third = manager.position(of: IndexPath(item: 1, section: 1))!
        XCTAssertEqual(third, native ? 3 : 5)
        fixture.harness.selectRow(third)
        fixture.harness.activateRow(third)
        XCTAssertEqual(fixture.take(), ["select 4 [1,1]", "activate 4 [1,1]"])
        XCTAssertEqual(manager.selectedIndexPaths, [IndexPath(item: 1, section: 1)])
        // Items moved under the selection keep it, and events follow.
        manager.memoryStorage.moveItem(at: IndexPath(item: 0, section: 1), to: IndexPath(item: 0, section: 0))
        XCTAssertEqual(manager.selectedIndexPaths, [IndexPath(item: 0, section: 1)])
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.misplacedHeaders, [])
        fixture.harness.activateRow(manager.position(of: IndexPath(item: 0, section: 1))!)
        XCTAssertEqual(fixture.take().last, "activate 4 [1,0]")
        fixture.harness.close()
    } }

    func testAnEmptySectionShowsItsHeaderAboveAnEmptyRowThatCannotBeSelected() { onMain {
        let fixture = Fixture { manager in
            manager.memoryStorage.setSectionHeaderModels([Banner(text: "today"), Banner(text: "earlier"), Banner(text: "empty")])
        }
        let manager = fixture.manager
        XCTAssertEqual(manager.storage.numberOfSections(), 3)
        XCTAssertEqual(manager.numberOfRows, native ? 5 : 7)
        let last = manager.numberOfRows - 1
        if native {
            XCTAssertEqual(fixture.shown.headerTexts, ["TODAY", "EARLIER", "EMPTY"])
            XCTAssertEqual(fixture.misplacedHeaders, [])
        }
        fixture.harness.selectRow(last)
        XCTAssertEqual(manager.selectedIndexPaths, [], "the empty section's row is not an item")
        // Hidden on empty sections: the header goes with its row.
        manager.configuration.displayHeaderOnEmptySection = false
        fixture.harness.waitForFrames()
        XCTAssertEqual(manager.numberOfRows, native ? 4 : 6)
        if native { XCTAssertEqual(fixture.shown.headerTexts, ["TODAY", "EARLIER"]) }
        fixture.harness.close()
    } }

    func testTheListOpensAtItsTopWithTheFirstHeaderInView() { onMain {
        let fixture = Fixture { manager in
            manager.memoryStorage.addItems((10..<60).map { Post(id: $0, title: "more") }, toSection: 1)
        }
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(fixture.manager.view))!
        fixture.harness.waitForFrames()
        XCTAssertEqual(gtk_adjustment_get_value(adjustment), 0, "GTK anchors the first item at the top, under its header")
        XCTAssertEqual(fixture.shown.entries.first, native ? .header("TODAY") : .row(0))
        let first = try! XCTUnwrap(gtk_widget_get_first_child(fixture.manager.view))
        var allocation = GtkAllocation()
        gtk_widget_get_allocation(first, &allocation)
        XCTAssertEqual(allocation.y, 0, "the first header (or header row) is wholly in view")
        fixture.harness.close()
    } }

    func testScrollingUpToASectionBringsItsHeaderWhollyIntoView() { onMain {
        let fixture = Fixture { manager in
            manager.memoryStorage.addItems((10..<70).map { Post(id: $0, title: "more") }, toSection: 1)
            manager.memoryStorage.addItems((100..<160).map { Post(id: $0, title: "older") }, toSection: 2)
            manager.memoryStorage.setSectionHeaderModel(Banner(text: "older"), forSection: 2)
        }
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(fixture.manager.view))!
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_upper(adjustment))
        fixture.harness.waitForFrames()
        XCTAssertTrue(fixture.manager.scrollTo(section: 1))
        fixture.harness.waitForFrames(4)
        var child = gtk_widget_get_first_child(fixture.manager.view)
        while let widget = child, ShownSections.visibleText(in: widget) != "EARLIER" { child = gtk_widget_get_next_sibling(widget) }
        let header = try! XCTUnwrap(child, "the header is shown")
        var allocation = GtkAllocation()
        gtk_widget_get_allocation(header, &allocation)
        XCTAssertEqual(allocation.y, 0, "at the top, wholly in view")
        fixture.harness.close()
    } }

    func testHeadersAreRowsOnEveryGTKByDefault() { onMain {
        openTestDisplay()
        XCTAssertFalse(ListViewManager().configuration.usesGTKSectionHeaders)
        let fixture = Fixture { $0.configuration.usesGTKSectionHeaders = false }
        XCTAssertFalse(fixture.manager.showsNativeSectionHeaders)
        XCTAssertEqual(fixture.manager.numberOfRows, 6)
        XCTAssertEqual(fixture.shown.headerTexts.filter { !$0.isEmpty }, [], "no header widgets of GTK's with content")
        fixture.harness.close()
    } }
}
