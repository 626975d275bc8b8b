import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// The copy of the current section's header pinned over the top of a list shown through
/// `gtkWidget`, in a real window, on every GTK.
final class PinnedHeaderTests: XCTestCase {
    @MainActor
    private final class Fixture {
        let harness: GtkHarness
        let manager: ListViewManager

        init(configure: (ListViewManager) -> Void = { _ in }) {
            openTestDisplay()
            let manager = ListViewManager()
            self.manager = manager
            manager.register(PostRow.self)
            manager.registerHeader(BannerRow.self)
            manager.memoryStorage.setSectionHeaderModels([Banner(text: "first"), Banner(text: "second"), Banner(text: "third")])
            for section in 0..<3 {
                manager.memoryStorage.addItems((0..<40).map { Post(id: section * 100 + $0, title: "post \(section)-\($0)") }, toSection: section)
            }
            configure(manager)
            harness = GtkHarness(showing: { manager }, throughScrolledView: true)
        }

        var adjustment: OpaquePointer { OpaquePointer(gtk_scrollable_get_vadjustment(OpaquePointer(manager.view)))! }

        /// Scrolls so that the row of `indexPath` is at the top, and lets GTK lay it out.
        func scroll(toTopOf indexPath: IndexPath) {
            let position = manager.position(of: indexPath)!
            // About: header and item rows differ a little in height (checks stay well inside sections).
            let rowHeight = Double(gtk_adjustment_get_upper(UnsafeMutablePointer(adjustment))) / Double(manager.numberOfRows)
            gtk_adjustment_set_value(UnsafeMutablePointer(adjustment), Double(position) * rowHeight)
            harness.waitForFrames()
        }

        /// The box the pinned copy is shown in.
        var pinnedHolder: UnsafeMutablePointer<GtkWidget>? {
            guard let pinned = manager.pinnedHeader else { return nil }
            var child = gtk_widget_get_first_child(pinned.overlay)
            while let widget = child {
                if gtk_widget_has_css_class(widget, "pinned-section-header") != 0 { return widget }
                child = gtk_widget_get_next_sibling(widget)
            }
            return nil
        }

        /// The text the pinned copy shows, or nil when it is hidden.
        var pinnedText: String? {
            guard manager.pinnedHeader?.shownSection != nil, let holder = pinnedHolder else { return nil }
            return ShownSections.visibleText(in: holder)
        }
    }

    func testTheCurrentSectionsHeaderStaysAtTheTopWhileItsRowsScroll() { onMain {
        let fixture = Fixture()
        XCTAssertNil(fixture.pinnedText, "at the top the first header row is in view itself")
        fixture.scroll(toTopOf: IndexPath(item: 10, section: 0))
        XCTAssertEqual(fixture.pinnedText, "FIRST")
        fixture.scroll(toTopOf: IndexPath(item: 5, section: 1))
        XCTAssertEqual(fixture.pinnedText, "SECOND")
        fixture.scroll(toTopOf: IndexPath(item: 20, section: 2))
        XCTAssertEqual(fixture.pinnedText, "THIRD")
        // A new header model for the pinned section shows in the next frame.
        fixture.manager.memoryStorage.setSectionHeaderModel(Banner(text: "last"), forSection: 2)
        fixture.harness.waitForFrames(1)
        XCTAssertEqual(fixture.pinnedText, "LAST")
        // Back at the top, the first header row is in view itself again.
        gtk_adjustment_set_value(UnsafeMutablePointer(fixture.adjustment), 0)
        fixture.harness.waitForFrames()
        XCTAssertNil(fixture.pinnedText)
        fixture.harness.close()
    } }

    func testARowScrolledToComesToRestBelowThePinnedHeader() { onMain {
        let fixture = Fixture()
        fixture.scroll(toTopOf: IndexPath(item: 30, section: 1))
        XCTAssertEqual(fixture.pinnedText, "SECOND")
        // Item 20 is above the view: GTK scrolls it to the top, under the pinned copy.
        let target = IndexPath(item: 20, section: 1)
        XCTAssertTrue(fixture.manager.scrollTo(target))
        fixture.harness.waitForFrames(4)
        let position = fixture.manager.position(of: target)!
        let row = try! XCTUnwrap(fixture.harness.boundRowsByPosition[position])
        var rowBounds = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(row.rootWidget, fixture.manager.view, &rowBounds), 0)
        let holder = try! XCTUnwrap(fixture.pinnedHolder)
        var holderBounds = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(holder, fixture.manager.pinnedHeader!.overlay, &holderBounds), 0)
        XCTAssertGreaterThanOrEqual(rowBounds.origin.y + 1, holderBounds.size.height, "the row is below the pinned header")
        XCTAssertLessThan(rowBounds.origin.y, holderBounds.size.height + rowBounds.size.height, "and right below it")
        XCTAssertEqual(fixture.pinnedText, "SECOND")
        fixture.harness.close()
    } }

    func testARowTheKeyboardFocusesComesToRestBelowThePinnedHeader() { onMain {
        let fixture = Fixture()
        fixture.scroll(toTopOf: IndexPath(item: 30, section: 1))
        XCTAssertEqual(fixture.pinnedText, "SECOND")
        // Page Up moves the focus a page up, to a row GTK scrolls to the top, under the copy.
        let start = try! XCTUnwrap(fixture.harness.boundRowsByPosition[fixture.manager.position(of: IndexPath(item: 35, section: 1))!])
        fixture.harness.press(["Page_Up"], focusing: gtk_widget_get_parent(start.rootWidget)!)
        fixture.harness.waitForFrames(4)
        let focused = try! XCTUnwrap(gtk_widget_get_focus_child(fixture.manager.view))
        XCTAssertNotEqual(focused, gtk_widget_get_parent(start.rootWidget), "the focus moved")
        var rowBounds = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(focused, fixture.manager.view, &rowBounds), 0)
        let holder = try! XCTUnwrap(fixture.pinnedHolder)
        var holderBounds = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(holder, fixture.manager.pinnedHeader!.overlay, &holderBounds), 0)
        XCTAssertGreaterThanOrEqual(rowBounds.origin.y + 1, holderBounds.size.height, "the focused row is below the pinned header")
        fixture.harness.close()
    } }

    func testThePinnedHeaderCanBeTurnedOff() { onMain {
        let fixture = Fixture()
        fixture.scroll(toTopOf: IndexPath(item: 10, section: 1))
        XCTAssertEqual(fixture.pinnedText, "SECOND")
        fixture.manager.configuration.pinsSectionHeaders = false
        fixture.harness.waitForFrames(1)
        XCTAssertNil(fixture.pinnedText)
        fixture.harness.close()
    } }
}
