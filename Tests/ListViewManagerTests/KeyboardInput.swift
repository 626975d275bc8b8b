import CGtk
import Foundation
@testable import ListViewManager
import XCTest

extension GtkHarness {
    /// Presses `keys` (X key names, e.g. "Delete", "shift+F10") on the real keyboard of the
    /// X display, with `widget` focused in the window: xdotool gives the window the input
    /// focus and types through XTEST, as a user would.
    func press(_ keys: [String], focusing widget: UnsafeMutablePointer<GtkWidget>, file: StaticString = #filePath, line: UInt = #line) {
        let title = "list-view-manager-test-\(UUID().uuidString)"
        gtk_window_set_title(windowPointer, title)
        gtk_widget_grab_focus(widget)
        waitForFrames(1)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = ["search", "--sync", "--name", title, "windowfocus", "--sync", "key", "--delay", "20"] + keys
        do { try process.run() } catch {
            XCTFail("xdotool could not run (install it with meson-helpers/install-dependencies.sh): \(error)", file: file, line: line)
            return
        }
        wait(until: { !process.isRunning }, timeout: 10, "xdotool to finish", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, "xdotool \(keys)", file: file, line: line)
        iterate(times: 5)
        waitForFrames(1)
    }
}
