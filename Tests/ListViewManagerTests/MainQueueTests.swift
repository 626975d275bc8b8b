import CGtk
import Foundation
import GtkTestSupport
@testable import ListViewManager
import XCTest

/// Swift's main queue on GLib's main loop.
final class MainQueueTests: XCTestCase {
    func testAnIdleMainLoopHasNothingToDo() { onMain {
        MainQueue.attachToGLib()
        var ran = false
        DispatchQueue.main.async { ran = true }
        MainLoopPump.run(until: { ran }, iterations: 3)
        XCTAssertTrue(ran)
        _ = GtkHarness.drainMainLoop()
        // The main queue's eventfd was read: GLib is not woken again for it.
        XCTAssertEqual(g_main_context_pending(nil), 0)
    } }
}
