import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// A GtkGridView driven by a GridViewManager, in a real window: the same registration,
/// storage, splices, events and anomalies as a list.
final class GridViewManagerTests: XCTestCase {
    @MainActor
    private static func makeGrid(anomalies: @escaping (ListViewManagerAnomaly) -> Void = { XCTFail("unexpected anomaly \($0)") },
                          events: @escaping (String) -> Void = { _ in }) -> (GtkHarness, GridViewManager) {
        var grid: GridViewManager!
        let harness = GtkHarness(showing: {
            let manager = GridViewManager(minColumns: 2, maxColumns: 3)
            manager.anomalyHandler.anomalyAction = anomalies
            manager.itemSize = (width: 150, height: 60)
            manager.register(PostRow.self)
            manager.didSelect(PostRow.self) { row, post, indexPath in events("select \(row.title.text) \(post.id) [\(indexPath.section),\(indexPath.item)]") }
            manager.didActivate(model: Post.self) { post, indexPath in events("activate \(post.id) [\(indexPath.section),\(indexPath.item)]") }
            manager.memoryStorage.addItems((1...3).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
            manager.memoryStorage.addItems((4...5).map { Post(id: $0, title: "post \($0)") }, toSection: 1)
            grid = manager
            return manager
        })
        return (harness, grid)
    }

    func testAGridShowsEverySectionsItemsInOrderInAtMostMaxColumns() { onMain {
        let (harness, grid) = Self.makeGrid()
        XCTAssertEqual(grid.numberOfRows, 5)
        let titles = (0..<5).map { (harness.boundRowsByPosition[$0] as? PostRow)?.title.text }
        XCTAssertEqual(titles, ["post 1", "post 2", "post 3", "post 4", "post 5"])
        // 800 pixels would fit five 150-pixel cells: max-columns keeps them to three.
        var columnsSeen: Set<Int> = []
        var rowsSeen: Set<Int> = []
        for row in harness.boundRowsByPosition.values {
            var bounds = graphene_rect_t()
            XCTAssertNotEqual(gtk_widget_compute_bounds(row.rootWidget, grid.view, &bounds), 0)
            columnsSeen.insert(Int(bounds.origin.x))
            rowsSeen.insert(Int(bounds.origin.y))
            XCTAssertGreaterThanOrEqual(bounds.size.width, 150, "the item size is the cells' size request")
        }
        XCTAssertEqual(columnsSeen.count, 3)
        XCTAssertEqual(rowsSeen.count, 2)
        XCTAssertEqual(grid.maxColumns, 3)
        XCTAssertEqual(grid.minColumns, 2)
        harness.close()
    } }

    func testChangesArriveAsTheSameSplicesAsInAList() { onMain {
        let (harness, grid) = Self.makeGrid()
        let recorder = ItemsChangedRecorder(grid.bridge.listModel) { object in
            (RowItem.of(object)?.model as? Post)?.title ?? "?"
        }
        try? grid.memoryStorage.insertItem(Post(id: 6, title: "post 6"), to: IndexPath(item: 0, section: 1))
        XCTAssertEqual(recorder.take(), ["3+1"])
        grid.memoryStorage.removeItems(at: [IndexPath(item: 0, section: 0), IndexPath(item: 2, section: 0)])
        XCTAssertEqual(recorder.take(), ["0-1", "1-1"])
        XCTAssertEqual(recorder.shadow, ["post 2", "post 6", "post 4", "post 5"])
        recorder.disconnect()
        harness.waitForFrames()
        XCTAssertEqual((harness.boundRowsByPosition[1] as? PostRow)?.title.text, "post 6")
        harness.close()
    } }

    func testSelectionAndActivationAreTypedEventsWithStorageIndexPaths() { onMain {
        var events: [String] = []
        let (harness, grid) = Self.makeGrid(events: { events.append($0) })
        harness.selectRow(3)
        harness.activateRow(4)
        XCTAssertEqual(events, ["select post 4 4 [1,0]", "activate 5 [1,1]"])
        XCTAssertEqual(grid.selectedIndexPaths, [IndexPath(item: 0, section: 1)])
        harness.close()
    } }

    func testHeaderAndFooterModelsAreReportedOnceNotShown() { onMain {
        var anomalies: [ListViewManagerAnomaly] = []
        let (harness, grid) = Self.makeGrid(anomalies: { anomalies.append($0) })
        XCTAssertEqual(anomalies, [])
        grid.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
        grid.memoryStorage.setSectionFooterModels(["2 posts", "1 post"])
        grid.memoryStorage.setSectionHeaderModel("Later", forSection: 2)
        XCTAssertEqual(anomalies.map(\.description), ["ListViewManagerAnomaly.supplementaryRowsNotShown(grid view, header, section 0)"])
        XCTAssertTrue(anomalies.first?.debugDescription.contains("a grid view shows no header or footer rows") ?? false)
        XCTAssertEqual(grid.numberOfRows, 5, "the grid still shows only the items")
        harness.close()
    } }

    func testAGridMadeOnAStorageWithHeadersReportsThemToTheHandlerSetAfterInit() { onMain {
        var anomalies: [ListViewManagerAnomaly] = []
        let storage = MemoryStorage()
        storage.setSectionHeaderModels(["Today"])
        storage.addItems([Post(id: 1, title: "post 1")], toSection: 0)
        let harness = GtkHarness(showing: {
            let manager = GridViewManager(storage: storage)
            manager.anomalyHandler.anomalyAction = { anomalies.append($0) }
            manager.register(PostRow.self)
            return manager
        })
        XCTAssertEqual(anomalies.map(\.kind), [.supplementaryRowsNotShown])
        XCTAssertEqual(harness.viewManager.numberOfRows, 1)
        harness.close()
    } }

    func testDraggingATileGoesBeforeOrAfterTheTileByTheHorizontalHalf() { onMain {
        var moves: [String] = []
        let (harness, grid) = Self.makeGrid()
        grid.configuration.movesItemsInStorage = true
        grid.canMove(withItem: Post.self) { _, _ in true }
        grid.moveItem(model: Post.self) { post, from, to in moves.append("\(post.id) [\(from.section),\(from.item)] to [\(to.section),\(to.item)]") }
        harness.waitForFrames()
        var tiles = harness.boundRowsByPosition
        // Post 1 dropped on the right half of post 3 (same grid row): after it.
        harness.drag(from: tiles[0]!.rootWidget, to: tiles[2]!.rootWidget, across: 0.8, drop: false)
        harness.iterate(times: 5)
        XCTAssertEqual(grid.drag.indicatorClass, "drop-after")
        harness.releaseButton()
        harness.wait(until: { !moves.isEmpty }, "the drop")
        XCTAssertEqual(moves, ["1 [0,0] to [0,2]"])
        XCTAssertEqual(grid.memoryStorage.items(inSection: 0)!.map { ($0 as! Post).id }, [2, 3, 1])
        harness.waitForFrames()
        tiles = harness.boundRowsByPosition
        // Post 5 dropped on the left half of post 2: before it.
        harness.drag(from: tiles[4]!.rootWidget, to: tiles[0]!.rootWidget, across: 0.2)
        harness.wait(until: { moves.count == 2 }, "the second drop")
        XCTAssertEqual(moves.last, "5 [1,1] to [0,0]")
        XCTAssertEqual(grid.memoryStorage.items(inSection: 0)!.map { ($0 as! Post).id }, [5, 2, 3, 1])
        harness.close()
    } }
}
