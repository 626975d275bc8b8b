import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// `didHighlight` / `didUnhighlight` as the real pointer moves over rows, and tooltips
/// per model type.
final class HoverAndTooltipTests: XCTestCase {
    func testThePointerMovingOverRowsHighlightsAndUnhighlightsThem() { onMain {
        var events: [String] = []
        let harness = GtkHarness { manager in
            manager.register(PostRow.self) { mapping in
                mapping.didUnhighlight { _, post, _ in events.append("unhighlight \(post.id)") }
            }
            manager.register(WeatherRow.self)
            manager.didHighlight(PostRow.self) { row, post, indexPath in
                events.append("highlight \(post.id) \(row.title.text) [\(indexPath.section),\(indexPath.item)]")
            }
            manager.memoryStorage.addItems([Post(id: 1, title: "one"), Post(id: 2, title: "two")] as [Any] + [Weather.sunny])
        }
        let rows = harness.boundRowsByPosition
        harness.hover(rows[0]!.rootWidget)
        harness.hover(rows[1]!.rootWidget)
        harness.hover(rows[2]!.rootWidget)
        XCTAssertEqual(events, ["highlight 1 one [0,0]", "unhighlight 1", "highlight 2 two [0,1]", "unhighlight 2"])
        harness.close()
    } }

    func testARowShouldHighlightRefusesNeitherLightsUpNorFiresEvents() { onMain {
        var events: [String] = []
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.didHighlight(model: Post.self) { post, _ in events.append("highlight \(post.id)") }
            manager.didUnhighlight(model: Post.self) { post, _ in events.append("unhighlight \(post.id)") }
            manager.shouldHighlight(model: Post.self) { post, _ in post.id != 2 }
            manager.memoryStorage.addItems([Post(id: 1, title: "one"), Post(id: 2, title: "two"), Post(id: 3, title: "three")])
        }
        let rows = harness.boundRowsByPosition
        for position in 0..<3 { harness.hover(rows[position]!.rootWidget) }
        XCTAssertEqual(events, ["highlight 1", "unhighlight 1", "highlight 3"])
        @MainActor func lightsUp(_ position: Int) -> Bool {
            gtk_widget_has_css_class(harness.viewManager.factory.itemWidget(at: position)!, "no-highlight") == 0
        }
        XCTAssertEqual((0..<3).map(lightsUp), [true, false, true])
        harness.manager.memoryStorage.removeItems(at: [IndexPath(item: 0, section: 0)])
        harness.waitForFrames()
        XCTAssertEqual((0..<2).map(lightsUp), [false, true], "the style follows the item to its new row")
        harness.close()
    } }

    func testTooltipsComeFromTheProviderOfTheModelsTypeAndFollowContentUpdates() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.register(WeatherRow.self)
            manager.tooltip(model: Post.self) { post, indexPath in
                post.id == 3 ? nil : "\(post.title) (item \(indexPath.item + 1))"
            }
            manager.memoryStorage.addItems([Post(id: 1, title: "one"), Post(id: 3, title: "three")] as [Any] + [Weather.sunny])
        }
        @MainActor func row(_ position: Int) -> UnsafeMutablePointer<GtkWidget> { harness.boundRowsByPosition[position]!.rootWidget }
        harness.hover(row(0), untilTooltip: "one (item 1)")
        harness.hover(row(1), untilTooltip: nil)  // the provider gave none
        harness.hover(row(0), untilTooltip: "one (item 1)")
        harness.hover(row(2), untilTooltip: nil)  // no provider for Weather
        harness.manager.memoryStorage.reloadItem(Post(id: 1, title: "one, edited"))
        harness.waitForFrames(1)
        harness.hover(row(0), untilTooltip: "one, edited (item 1)")
        harness.close()
    } }

    func testRowsWithTooltipsAreUpdatedWithoutWaitingForTheDisplayServer() throws {
        let posts = (1...60).map { Post(id: $0, title: "post \($0)") }
        try onMain {
            let harness = GtkHarness { manager in
                manager.register(PostRow.self)
                manager.tooltip(model: Post.self) { post, _ in post.title }
                manager.memoryStorage.addItems(posts)
            }
            harness.waitForFrames()
            // Another client holds the X server: a round trip to it would wait until the grab
            // ends, which it does by itself after 20 s (and then the test fails).
            let grab = try DisplayServerGrab()
            grab.release(after: 20)
            // Every row gets new content, bound rows in place, their tooltips with them.
            for post in posts { harness.manager.memoryStorage.reloadItem(Post(id: post.id, title: post.title + ", edited")) }
            XCTAssertTrue(grab.release(), "the rows were updated while the display server answered nobody: nothing waited for it")
            harness.waitForFrames()
            XCTAssertEqual((harness.boundRowsByPosition[0] as? PostRow)?.title.text, "post 1, edited")
            harness.hover(harness.boundRowsByPosition[0]!.rootWidget, untilTooltip: "post 1, edited")
            harness.close()
        }
    }
}
