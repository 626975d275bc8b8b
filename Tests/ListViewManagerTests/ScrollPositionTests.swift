import CGtk
import CGtkShims
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// `scrollTo` with a place: the row at the top, middle or bottom of the view, or as little
/// as needed; a section at the top, under nothing. In real windows, on every kind of view.
final class ScrollPositionTests: XCTestCase {
    /// The height of the area the rows scroll in.
    @MainActor
    private static func viewHeight(_ manager: ItemViewManager) -> Double {
        Double(gtk_widget_get_height(manager.kind.listBase(manager.view)))
    }

    /// Scrolls to `indexPath` at each place in turn, from far away each time, and checks
    /// where its row comes to rest: `top` is where a row at the top rests (below a pinned
    /// header, if any).
    @MainActor
    private static func checkPlaces(of indexPath: IndexPath, in manager: ItemViewManager, harness: GtkHarness, top: () -> Double,
                                    far: IndexPath, file: StaticString = #filePath, line: UInt = #line) {
        let name = "\(type(of: manager))"
        for place in [ScrollPosition.top, .center, .bottom, .nearest] {
            XCTAssertTrue(manager.scrollTo(far, at: .top), name, file: file, line: line)
            harness.waitForFrames(5)
            XCTAssertTrue(manager.scrollTo(indexPath, at: place), name, file: file, line: line)
            harness.waitForFrames(5)
            guard let span = manager.shownSpan(of: indexPath) else {
                XCTFail("\(name): no row shown for \(indexPath) at \(place)", file: file, line: line)
                continue
            }
            let height = viewHeight(manager)
            switch place {
            case .top: XCTAssertEqual(span.top, top(), accuracy: 1, "\(name) at the top", file: file, line: line)
            case .nearest:
                // From a row far below, as little as needed brings the row in at the top edge
                // (a sectioned grid's strip there, the tile a margin below it).
                XCTAssertEqual(span.top, top(), accuracy: 3, "\(name) in at the top edge", file: file, line: line)
                XCTAssertGreaterThanOrEqual(span.top, top() - 1, "\(name) wholly in view", file: file, line: line)
            case .center: XCTAssertEqual((span.top + span.bottom) / 2, height / 2, accuracy: 1, "\(name) in the middle", file: file, line: line)
            case .bottom: XCTAssertEqual(span.bottom, height, accuracy: 1, "\(name) at the bottom", file: file, line: line)
            }
        }
    }

    /// Fifty sections of twenty posts, each with a header.
    @MainActor
    private static func fill(_ manager: ItemViewManager) {
        manager.register(PostRow.self)
        manager.registerHeader(BannerRow.self)
        manager.memoryStorage.setSectionHeaderModels((0..<50).map { Banner(text: "section \($0)") })
        for section in 0..<50 {
            manager.memoryStorage.addItems((0..<20).map { Post(id: section * 100 + $0, title: "post \(section)-\($0)") }, toSection: section)
        }
    }

    func testAListPutsAnItemAtTheTopBelowThePinnedHeaderInTheMiddleOrAtTheBottom() { onMain {
        openTestDisplay()
        let manager = ListViewManager()
        Self.fill(manager)
        let harness = GtkHarness(showing: { manager }, throughScrolledView: true)
        harness.waitForFrames()
        let pinnedBottom = { () -> Double in
            guard let pinned = manager.pinnedHeader, pinned.shownSection != nil else { return 0 }
            var bounds = graphene_rect_t()
            let holder = gtk_widget_get_last_child(pinned.overlay)!
            XCTAssertNotEqual(gtk_widget_compute_bounds(holder, manager.view, &bounds), 0)
            return Double(bounds.origin.y + bounds.size.height)
        }
        Self.checkPlaces(of: IndexPath(item: 10, section: 30), in: manager, harness: harness, top: pinnedBottom,
                         far: IndexPath(item: 19, section: 49))
        XCTAssertEqual(manager.pinnedHeader?.shownSection, 30, "the copy names the section of the row at the top")
        XCTAssertGreaterThan(pinnedBottom(), 0, "an item at the top rests below the pinned copy of its header")
        harness.close()
    } }

    func testASectionScrolledToFromTheTopHasItsHeaderAtTheTopUnderNothing() { onMain {
        // From the top of a fifty-section list: before, the header of section 37 came to rest
        // at the bottom edge, and the pinned copy named section 36.
        openTestDisplay()
        let manager = ListViewManager()
        Self.fill(manager)
        let harness = GtkHarness(showing: { manager }, throughScrolledView: true)
        harness.waitForFrames()
        XCTAssertTrue(manager.scrollTo(section: 37))
        harness.waitForFrames(5)
        let header = try? XCTUnwrap(manager.factory.itemWidget(at: manager.bridge.layout.position(of: .header(section: 37))!))
        var bounds = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(header!, manager.view, &bounds), 0)
        XCTAssertEqual(Double(bounds.origin.y), 0, accuracy: 1, "the header at the top")
        XCTAssertNil(manager.pinnedHeader?.shownSection, "no copy over the header itself")

        // As little as needed, from the top: the section's header comes in at the bottom.
        gtk_adjustment_set_value(gtk_scrollable_get_vadjustment(OpaquePointer(manager.view)), 0)
        harness.waitForFrames()
        XCTAssertTrue(manager.scrollTo(section: 37, at: .nearest))
        harness.waitForFrames(5)
        XCTAssertNotEqual(gtk_widget_compute_bounds(manager.factory.itemWidget(at: manager.bridge.layout.position(of: .header(section: 37))!)!,
                                                    manager.view, &bounds), 0)
        XCTAssertEqual(Double(bounds.origin.y + bounds.size.height), Self.viewHeight(manager), accuracy: 1)
        harness.close()
    } }

    func testGridsAndTablesPutAnItemAtTheTopInTheMiddleOrAtTheBottom() { onMain {
        openTestDisplay()
        let grid = GridViewManager(maxColumns: 3)
        let sectionedGrid = SectionedGridViewManager(maxColumns: 3)
        let table = ColumnViewManager()
        table.addColumn(TableColumn("Title") { (post: Post) in post.title })
        for manager in [grid, sectionedGrid, table] as [ItemViewManager] {
            manager.register(PostRow.self)
            manager.memoryStorage.addItems((0..<3000).map { Post(id: $0, title: "post \($0)") })
            let harness = GtkHarness(showing: { manager })
            harness.waitForFrames()
            Self.checkPlaces(of: IndexPath(item: 1500, section: 0), in: manager, harness: harness, top: { 0 },
                             far: IndexPath(item: 2999, section: 0))
            harness.close()
        }
    } }

    func testNearTheEndsARowGoesAsFarAsTheListScrolls() { onMain {
        openTestDisplay()
        let manager = ListViewManager()
        manager.register(PostRow.self)
        manager.memoryStorage.addItems((0..<200).map { Post(id: $0, title: "post \($0)") })
        let harness = GtkHarness(showing: { manager })
        harness.waitForFrames()
        XCTAssertTrue(manager.scrollTo(IndexPath(item: 199, section: 0), at: .top))
        harness.waitForFrames(5)
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view))!
        XCTAssertEqual(gtk_adjustment_get_value(adjustment),
                       gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment), accuracy: 1,
                       "the last row cannot reach the top: the list rests at its end")
        XCTAssertEqual(manager.shownSpan(of: IndexPath(item: 199, section: 0))?.bottom ?? 0, Self.viewHeight(manager), accuracy: 1)
        harness.close()
    } }
}
