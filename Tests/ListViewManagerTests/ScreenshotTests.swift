import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// Screenshots of a window that keeps redrawing part of itself, as an animation or a
/// scrollbar fading in does.
final class ScreenshotTests: XCTestCase {
    func testAScreenshotAfterPaintedFramesIsWrittenWhileAWidgetKeepsRedrawing() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.memoryStorage.addItems((0..<50).map { Post(id: $0, title: "Post \($0)") })
        }
        harness.waitForFrames()
        // Asks for a new drawing of the list every frame, before the frame is drawn.
        let redraw: GtkTickCallback = { widget, _, _ in
            gtk_widget_queue_draw(widget)
            return 1
        }
        let tick = gtk_widget_add_tick_callback(harness.manager.view, redraw, nil, nil)
        defer { gtk_widget_remove_tick_callback(harness.manager.view, tick) }
        let path = NSTemporaryDirectory() + "screenshot-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        for attempt in 0..<5 {
            var written: Bool?
            Screenshot.afterPaintedFrames(of: harness.window, 2) {
                written = Screenshot.savePNG(of: harness.window, to: path)
            }
            harness.wait(until: { written != nil }, "screenshot \(attempt)")
            XCTAssertEqual(written, true, "screenshot \(attempt) was written")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        harness.close()
    } }
}
