import CGtk
import Foundation
@testable import ListViewManager
import XCTest

/// Real input on the X display, through xdotool (XTEST), as a user's keyboard and mouse.
extension GtkHarness {
    /// Presses `keys` (X key names, e.g. "Delete", "shift+F10") with `widget` focused.
    func press(_ keys: [String], focusing widget: UnsafeMutablePointer<GtkWidget>, file: StaticString = #filePath, line: UInt = #line) {
        gtk_widget_grab_focus(widget)
        xdotool(["key", "--delay", "20"] + keys, file: file, line: line)
    }

    /// Clicks mouse `button` (1 left, 3 right) in the middle of `widget`, or holds it down
    /// for `holding` seconds (a long press).
    func click(_ widget: UnsafeMutablePointer<GtkWidget>, button: Int = 1, holding: Double? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let move = pointerMove(to: widget, file: file, line: line)
        if let holding {
            xdotool(move + ["mousedown", "\(button)", "sleep", "\(holding)", "mouseup", "\(button)"], file: file, line: line)
        } else {
            xdotool(move + ["click", "\(button)"], file: file, line: line)
        }
    }

    /// Moves the pointer to the middle of `widget`.
    func hover(_ widget: UnsafeMutablePointer<GtkWidget>, file: StaticString = #filePath, line: UInt = #line) {
        xdotool(pointerMove(to: widget, file: file, line: line), file: file, line: line)
    }

    /// The xdotool command moving the pointer to the middle of `widget`.
    private func pointerMove(to widget: UnsafeMutablePointer<GtkWidget>, file: StaticString, line: UInt) -> [String] {
        var bounds = graphene_rect_t()
        XCTAssertTrue(gtk_widget_compute_bounds(widget, window, &bounds) != 0, "the widget is in the window", file: file, line: line)
        var surfaceX = 0.0, surfaceY = 0.0
        gtk_native_get_surface_transform(OpaquePointer(window), &surfaceX, &surfaceY)
        let x = Int(surfaceX + Double(bounds.origin.x + bounds.size.width / 2))
        let y = Int(surfaceY + Double(bounds.origin.y + bounds.size.height / 2))
        return ["mousemove", "--window", "%1", "\(x)", "\(y)"]
    }

    /// Runs xdotool on this window (found by a unique title and given the input focus)
    /// with `commands`, running the main loop meanwhile, then lets GTK handle the events.
    private func xdotool(_ commands: [String], file: StaticString, line: UInt) {
        let title = "list-view-manager-test-\(UUID().uuidString)"
        gtk_window_set_title(windowPointer, title)
        waitForFrames(1)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = ["search", "--sync", "--name", title, "windowfocus", "--sync"] + commands
        do { try process.run() } catch {
            XCTFail("xdotool could not run (install it with meson-helpers/install-dependencies.sh): \(error)", file: file, line: line)
            return
        }
        wait(until: { !process.isRunning }, timeout: 10, "xdotool to finish", file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, "xdotool \(commands)", file: file, line: line)
        iterate(times: 5)
        waitForFrames(1)
    }
}
