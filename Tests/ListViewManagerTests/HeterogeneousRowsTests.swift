import CGtk
import Foundation
@testable import ListViewManager
import CGtkShims
import GtkTestSupport
import XCTest

final class HeterogeneousRowsTests: XCTestCase {
    func testEachModelKindIsShownByItsMappedRowType() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.register(WeatherRow.self)
            manager.register(MediaRow.self)
            manager.registerHeader(BannerRow.self)
            let storage = manager.memoryStorage!
            storage.setSectionHeaderModels(["Today", Banner(text: "Weather")] as [Any])
            storage.setSectionFooterModel("3 posts", forSection: 0)
            storage.addItems([Post(id: 1, title: "Hello"), Post(id: 2, title: "GTK")] as [Any] + [Photo(caption: "Sea") as any Media], toSection: 0)
            storage.addItems([Weather.sunny, .rain(millimetres: 4)], toSection: 1)
        }
        let rows = harness.boundRowsByPosition
        XCTAssertEqual(harness.manager.numberOfRows, 8)
        XCTAssertEqual((rows[0] as? TitleRow)?.label.text, "Today")
        XCTAssertTrue(rows[0].map { gtk_widget_has_css_class($0.rootWidget, "section-header") != 0 } ?? false)
        XCTAssertEqual((rows[1] as? PostRow)?.title.text, "Hello")
        XCTAssertEqual((rows[2] as? PostRow)?.title.text, "GTK")
        XCTAssertEqual((rows[3] as? MediaRow)?.caption.text, "Sea")
        XCTAssertEqual((rows[4] as? TitleRow)?.label.text, "3 posts")
        XCTAssertTrue(rows[4].map { gtk_widget_has_css_class($0.rootWidget, "section-footer") != 0 } ?? false)
        XCTAssertEqual((rows[5] as? BannerRow)?.text.text, "WEATHER")
        XCTAssertEqual((rows[6] as? WeatherRow)?.icon.iconName, "weather-clear-symbolic")
        XCTAssertEqual((rows[7] as? WeatherRow)?.summary.text, "rain 4 mm")
        if let directory = ProcessInfo.processInfo.environment["SCREENSHOT_DIR"] {
            harness.screenshot(to: directory + "/heterogeneous-rows.png")
        }
        harness.close()
    } }

    func testConditionsPickTheFirstMappingThatApplies() { onMain {
        final class PinnedPostRow: ListRow, ModelTransfer {
            let title = Label()
            required init() { super.init(); append(title) }
            func update(with model: Post) { title.text = "📌 " + model.title }
        }
        let harness = GtkHarness { manager in
            manager.register(PinnedPostRow.self) { $0.condition = .section(1) }
            manager.register(PinnedPostRow.self) { $0.modelCondition = { _, post in post.id == 7 } }
            manager.register(PostRow.self)
            manager.memoryStorage.addItems([Post(id: 1, title: "a"), Post(id: 7, title: "b")], toSection: 0)
            manager.memoryStorage.addItems([Post(id: 2, title: "c")], toSection: 1)
        }
        let rows = harness.boundRowsByPosition
        XCTAssertTrue(rows[0] is PostRow)
        XCTAssertEqual((rows[1] as? PinnedPostRow)?.title.text, "📌 b")
        XCTAssertEqual((rows[2] as? PinnedPostRow)?.title.text, "📌 c")
        harness.close()
    } }

    func testAModelWithoutMappingShowsAVisibleFallbackAndOneAnomaly() { onMain {
        var anomalies: [ListViewManagerAnomaly] = []
        let harness = GtkHarness { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0) }
            manager.register(PostRow.self)
            manager.memoryStorage.addItems([Weather.sunny, Weather.rain(millimetres: 1), Post(id: 1, title: "x")] as [Any])
        }
        let rows = harness.boundRowsByPosition
        XCTAssertEqual((rows[0] as? MissingMappingRow)?.label.text, "No row registered for Weather")
        XCTAssertTrue(rows[1] is MissingMappingRow)
        XCTAssertTrue(rows[2] is PostRow)
        XCTAssertEqual(anomalies, [.noItemMappingFound(modelType: "Weather", indexPath: IndexPath(item: 0, section: 0))])
        XCTAssertTrue(anomalies[0].debugDescription.hasPrefix("⚠️ [ListViewManager] No row type is registered for Weather"))

        // Registering the row type later fixes the rows on screen.
        harness.manager.register(WeatherRow.self)
        XCTAssertTrue(harness.boundRowsByPosition[0] is WeatherRow)
        harness.close()
    } }

    func testRowsAreReusedAcrossModelsOfTheSameMapping() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.memoryStorage.addItems((0..<2000).map { Post(id: $0, title: "Post \($0)") })
        }
        let created = harness.manager.createdRowCount
        XCTAssertLessThan(created, 400, "only realised rows get widgets")
        cgtk_shims_widget_activate_action(harness.manager.view, "list.scroll-to-item", g_variant_new_uint32(1500))
        harness.waitForFrames()
        XCTAssertNotNil(harness.manager.row(at: IndexPath(item: 1500, section: 0)))
        XCTAssertLessThanOrEqual(harness.manager.createdRowCount, created + 50, "scrolling reuses rows")
        harness.close()
    } }
}
