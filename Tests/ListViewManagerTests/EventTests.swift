import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

final class EventTests: XCTestCase {
    /// Sections: "Today" header, two posts and a weather item; "Earlier" header, one post.
    @MainActor
    private static func makeHarness(_ mode: SelectionMode = .single, _ configure: (ListViewManager) -> Void) -> GtkHarness {
        GtkHarness(selectionMode: mode) { manager in
            manager.register(PostRow.self)
            manager.register(WeatherRow.self)
            configure(manager)
            manager.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
            manager.memoryStorage.addItems([Post(id: 1, title: "one"), Post(id: 2, title: "two")] as [Any] + [Weather.sunny], toSection: 0)
            manager.memoryStorage.addItems([Post(id: 3, title: "three")], toSection: 1)
        }
    }

    func testSelectingThroughGTKFiresTypedEventsOnce() { onMain {
        var events: [String] = []
        let harness = Self.makeHarness { manager in
            manager.didSelect(PostRow.self) { row, post, indexPath in
                events.append("select \(post.id) [\(indexPath.section),\(indexPath.item)] \(row.title.text)")
            }
            manager.didDeselect(PostRow.self) { _, post, _ in events.append("deselect \(post.id)") }
            manager.didSelect(WeatherRow.self) { _, weather, _ in events.append("select \(weather)") }
            manager.didSelect(model: Post.self) { post, _ in events.append("model select \(post.id)") }
        }
        harness.selectRow(2)
        XCTAssertEqual(events, ["select 2 [0,1] two", "model select 2"])
        events = []
        harness.selectRow(3)
        XCTAssertEqual(events, ["deselect 2", "select sunny"])
        XCTAssertEqual(harness.manager.selectedIndexPaths, [IndexPath(item: 2, section: 0)])
        events = []
        harness.manager.select(IndexPath(item: 0, section: 1))
        XCTAssertEqual(events, ["select 3 [1,0] three", "model select 3"])
        XCTAssertTrue(harness.manager.isSelected(IndexPath(item: 0, section: 1)))
        harness.close()
    } }

    func testHeadersAreNeitherSelectableNorActivatable() { onMain {
        var events: [String] = []
        let harness = Self.makeHarness { manager in
            manager.didSelect(model: Any.self) { model, _ in events.append("select \(model)") }
            manager.didActivate(model: Any.self) { model, _ in events.append("activate \(model)") }
        }
        harness.selectRow(0)
        harness.activateRow(0)
        XCTAssertEqual(events, [])
        XCTAssertEqual(harness.manager.selectedIndexPaths, [])
        let headerItem = harness.manager.factory.boundRows.first { gtk_list_item_get_position($0.listItem) == 0 }!.listItem
        XCTAssertEqual(gtk_list_item_get_selectable(headerItem), 0)
        XCTAssertEqual(gtk_list_item_get_activatable(headerItem), 0)
        harness.close()
    } }

    func testActivationFiresOnceWithRowModelAndIndexPath() { onMain {
        var events: [String] = []
        let harness = Self.makeHarness { manager in
            manager.didActivate(PostRow.self) { row, post, indexPath in
                events.append("activate \(post.id) [\(indexPath.section),\(indexPath.item)] \(row.title.text)")
            }
        }
        harness.activateRow(5)
        XCTAssertEqual(events, ["activate 3 [1,0] three"])
        harness.close()
    } }

    func testMappingEventsAndCanSelect() { onMain {
        var events: [String] = []
        let harness = GtkHarness(selectionMode: .multiple) { manager in
            manager.register(PostRow.self) { mapping in
                mapping.didSelect { _, post, _ in events.append("select \(post.id)") }
                mapping.willDisplay { _, post, _ in events.append("display \(post.id)") }
            }
            manager.canSelect(withItem: Post.self) { post, _ in post.id != 2 }
            manager.memoryStorage.addItems([Post(id: 1, title: "one"), Post(id: 2, title: "two")])
        }
        XCTAssertEqual(events, ["display 1", "display 2"])
        events = []
        harness.selectRow(0, modify: true)
        harness.selectRow(1, modify: true)
        XCTAssertEqual(events, ["select 1"])
        XCTAssertEqual(harness.manager.selectedIndexPaths, [IndexPath(item: 0, section: 0)])
        let refused = harness.manager.factory.boundRows.first { gtk_list_item_get_position($0.listItem) == 1 }!.listItem
        XCTAssertEqual(gtk_list_item_get_selectable(refused), 0)
        harness.close()
    } }

    func testConfigureAndDisplayEventsOfRowsHeadersAndFooters() { onMain {
        var events: [String] = []
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.configure(PostRow.self) { _, post, _ in events.append("configure \(post.id)") }
            manager.configureHeader(TitleRow.self) { row, title, _ in events.append("header \(title) \(row.label.text)") }
            manager.willDisplayFooter(TitleRow.self) { _, title, indexPath in events.append("footer \(title) \(indexPath.section)") }
            manager.memoryStorage.setSectionHeaderModels(["H"])
            manager.memoryStorage.setSectionFooterModels(["F"])
            manager.memoryStorage.addItems([Post(id: 1, title: "one")])
        }
        XCTAssertEqual(events.sorted(), ["configure 1", "footer F 0", "header H H"])
        harness.close()
    } }

    func testEventsForUnregisteredRowTypesAreAnomalies() { onMain {
        var anomalies: [ListViewManagerAnomaly] = []
        let harness = GtkHarness { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0) }
            manager.didSelect(PostRow.self) { _, _, _ in }
            manager.configureHeader(BannerRow.self) { _, _, _ in }
        }
        XCTAssertEqual(anomalies.map(\.kind), [.eventRegisteredForUnregisteredMapping, .eventRegisteredForUnregisteredMapping])
        XCTAssertEqual(anomalies.first?.description, "ListViewManagerAnomaly.eventRegisteredForUnregisteredMapping(PostRow, didSelect)")
        harness.close()
    } }

    func testSelectionEventsOfHeaderAndFooterRowTypesAreAnomalies() { onMain {
        var anomalies: [ListViewManagerAnomaly] = []
        let harness = GtkHarness { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0) }
            manager.registerHeader(BannerRow.self) { mapping in
                mapping.configure { _, _, _ in }
                mapping.didSelect { _, _, _ in }
                mapping.didActivate { _, _, _ in }
            }
        }
        XCTAssertEqual(anomalies.map(\.description), [
            "ListViewManagerAnomaly.eventNotSupportedForSupplementaryRows(BannerRow, didActivate)",
            "ListViewManagerAnomaly.eventNotSupportedForSupplementaryRows(BannerRow, didSelect)",
        ])
        harness.close()
    } }

    func testDidEndDisplayingFiresOnceWhenARowGoesAway() { onMain {
        var events: [String] = []
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.willDisplay(PostRow.self) { _, post, _ in events.append("display \(post.id)") }
            manager.didEndDisplaying(PostRow.self) { _, post, _ in events.append("end \(post.id)") }
            manager.memoryStorage.addItems([Post(id: 1, title: "a"), Post(id: 2, title: "b")])
        }
        XCTAssertEqual(events, ["display 1", "display 2"])
        events = []
        harness.selectRow(1)
        try? harness.manager.memoryStorage.removeItem(Post(id: 1, title: ""))
        harness.waitForFrames()
        XCTAssertEqual(events, ["end 1"], "selection and shifts rebind rows without display events")
        harness.close()
    } }

    func testSingleClickActivationFollowsTheConfiguration() { onMain {
        let harness = GtkHarness { $0.register(PostRow.self) }
        XCTAssertEqual(gtk_list_view_get_single_click_activate(OpaquePointer(harness.manager.view)), 0)
        harness.manager.configuration.singleClickActivation = true
        XCTAssertEqual(gtk_list_view_get_single_click_activate(OpaquePointer(harness.manager.view)), 1)
        harness.close()
    } }
}
