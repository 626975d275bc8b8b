import CGtk
import Foundation
import ListViewManager
import ListViewerKit
import XCTest
import GtkTestSupport

/// The viewer's use of the manager's interactions: reordering, deleting, menus, dropped
/// folders and catalogs, tooltips.
final class ViewerInteractionTests: XCTestCase {
    @MainActor
    private static func makeViewer() throws -> ViewerWindow {
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.show(try CatalogLoader.load(path: ViewerResources.sampleCatalog.path))
        MainLoopPump.drain(rounds: 20)
        return viewer
    }

    /// Types `text` into the search entry and waits for the search to apply.
    @MainActor
    private static func search(_ viewer: ViewerWindow, _ text: String) {
        viewer.searchEntry.text = text
        ViewerTestLoop.wait("the search \"\(text)\" to apply") { viewer.filter.query == text }
    }

    @MainActor
    private static func title(_ viewer: ViewerWindow, _ indexPath: IndexPath) -> String? {
        (viewer.manager.memoryStorage.item(at: indexPath) as? any Detailed)?.detailTitle
    }

    func testCatalogItemsAreReorderedAndTheOrderSurvivesASearch() throws { try MainActor.assumeIsolated {
        let viewer = try Self.makeViewer()
        let first = Self.title(viewer, IndexPath(item: 0, section: 0))
        XCTAssertTrue(viewer.manager.canMove(IndexPath(item: 0, section: 0)))
        XCTAssertTrue(viewer.manager.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 1)))
        XCTAssertEqual(Self.title(viewer, IndexPath(item: 2, section: 1)), first)

        Self.search(viewer, "machine")
        XCTAssertFalse(viewer.manager.canMove(IndexPath(item: 0, section: 0)), "no reordering while a search hides items")
        Self.search(viewer, "")
        XCTAssertEqual(Self.title(viewer, IndexPath(item: 2, section: 1)), first, "the search kept the new order")
        ViewerTestLoop.close(viewer)
    } }

    func testDeletingAnItemRemovesItFromTheListAndFromLaterSearches() throws { try MainActor.assumeIsolated {
        let viewer = try Self.makeViewer()
        let doomed = try XCTUnwrap(Self.title(viewer, IndexPath(item: 1, section: 0)))
        XCTAssertTrue(viewer.manager.select(IndexPath(item: 1, section: 0)))
        XCTAssertEqual(viewer.manager.deleteSelectedItems(), [IndexPath(item: 1, section: 0)])
        XCTAssertEqual(viewer.countText, "309 items")
        Self.search(viewer, doomed.lowercased())
        Self.search(viewer, "")
        XCTAssertEqual(viewer.countText, "309 items", "the deleted item does not come back")
        ViewerTestLoop.close(viewer)
    } }

    func testARowsMenuOffersItsActionsAndShowDetailsSelects() throws { try MainActor.assumeIsolated {
        let viewer = try Self.makeViewer()
        XCTAssertTrue(viewer.manager.openContextMenu(at: IndexPath(item: 0, section: 0)))
        XCTAssertEqual(viewer.manager.shownContextMenuTitles, ["Show Details", "Copy Name", "Delete"])
        ViewerTestLoop.close(viewer)
    } }

    func testADroppedFolderOrCatalogOpensAndAnythingElseIsAMessage() throws { try MainActor.assumeIsolated {
        let viewer = try Self.makeViewer()
        let root = NSTemporaryDirectory() + "list-viewer-drop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/inside", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        viewer.open(root)
        ViewerTestLoop.wait("the dropped folder to load") { viewer.isLoaded }
        XCTAssertEqual(viewer.titleText, (root as NSString).lastPathComponent)
        viewer.open(ViewerResources.sampleCatalog.path)
        XCTAssertEqual(viewer.countText, "310 items")
        viewer.open(root + "/missing.json")
        XCTAssertEqual(viewer.problem, "\(root)/missing.json: no such file or folder")
        ViewerTestLoop.close(viewer)
    } }
}
