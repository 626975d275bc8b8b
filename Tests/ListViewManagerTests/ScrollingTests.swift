import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// Scrolling to an item, and the viewport staying put while items come and go above it.
final class ScrollingTests: XCTestCase {
    /// Two sections of 1,000 posts (ids 0..<1000 and 1000..<2000), with headers.
    @MainActor
    private static func makeHarness() -> GtkHarness {
        GtkHarness { manager in
            manager.register(PostRow.self)
            manager.memoryStorage.setSectionHeaderModels(["First", "Second"])
            manager.memoryStorage.addItems((0..<1000).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
            manager.memoryStorage.addItems((1000..<2000).map { Post(id: $0, title: "post \($0)") }, toSection: 1)
        }
    }

    func testScrollingToAnItemShowsItsRowInTheViewport() { onMain {
        let harness = Self.makeHarness()
        XCTAssertNil(harness.visibleTitles.first { $0 == "post 900" })
        XCTAssertTrue(harness.manager.scrollTo(IndexPath(item: 900, section: 0)))
        harness.waitForFrames(2)
        XCTAssertTrue(harness.visibleTitles.contains("post 900"), "visible: \(harness.visibleTitles)")

        XCTAssertTrue(harness.manager.scrollTo(section: 1))
        harness.waitForFrames(2)
        XCTAssertTrue(harness.visibleTitles.contains("Second"), "visible: \(harness.visibleTitles)")

        XCTAssertFalse(harness.manager.scrollTo(IndexPath(item: 5000, section: 0)))
        XCTAssertFalse(harness.manager.scrollTo(section: 7))
        harness.close()
    } }

    func testScrollingBeforeTheWindowIsShownShowsTheRowOnceShown() { onMain {
        // An app restoring its place scrolls before its window is shown: the view has no size
        // yet (GTK 4.8 would show its top, with the rows around the row scrolled to bound
        // out of sight: a blank list).
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.memoryStorage.addItems((0..<5000).map { Post(id: $0, title: "post \($0)") })
            XCTAssertTrue(manager.scrollTo(IndexPath(item: 3000, section: 0)))
        }
        harness.waitForFrames(2)
        XCTAssertTrue(harness.visibleTitles.contains("post 3000"), "visible: \(harness.visibleTitles)")
        XCTAssertGreaterThan(gtk_adjustment_get_value(gtk_scrollable_get_vadjustment(OpaquePointer(harness.manager.view))), 0)
        harness.close()
    } }

    func testInsertingAndRemovingAboveTheViewportDoesNotMoveWhatIsShown() throws { try onMain {
        let harness = Self.makeHarness()
        harness.manager.scrollTo(IndexPath(item: 500, section: 0))
        harness.waitForFrames(2)
        let before = harness.visibleTitles
        XCTAssertTrue(before.contains("post 500"))

        try harness.manager.memoryStorage.insertItems((0..<10).map { Post(id: -1 - $0, title: "new \($0)") },
                                                      to: (0..<10).map { IndexPath(item: $0, section: 0) })
        harness.waitForFrames(2)
        XCTAssertEqual(harness.visibleTitles, before, "ten items inserted at the top")

        harness.manager.memoryStorage.removeItems(at: (20..<40).map { IndexPath(item: $0, section: 0) })
        harness.waitForFrames(2)
        XCTAssertEqual(harness.visibleTitles, before, "twenty items removed above")
        harness.close()
    } }
}

extension GtkHarness {
    /// The texts of the rows inside the list view's visible area, top to bottom.
    var visibleTitles: [String] {
        let height = Float(gtk_widget_get_height(manager.view))
        return manager.factory.boundRows.compactMap { entry -> (Float, String)? in
            var bounds = graphene_rect_t()
            guard gtk_widget_get_mapped(entry.row.row.rootWidget) != 0,
                  gtk_widget_compute_bounds(entry.row.row.rootWidget, manager.view, &bounds) != 0,
                  bounds.origin.y + bounds.size.height > 0, bounds.origin.y < height else { return nil }
            let text = (entry.row.row as? PostRow)?.title.text ?? (entry.row.row as? TitleRow)?.label.text ?? "?"
            return (bounds.origin.y, text)
        }
        .sorted { $0.0 < $1.0 }
        .map(\.1)
    }
}
