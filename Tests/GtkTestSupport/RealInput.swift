import CGtk
import Foundation
@testable import ListViewManager
import XCTest

/// Real input on the X display, through xdotool (XTEST), as a user's keyboard and mouse.
extension GtkHarness {
    /// Presses `keys` (X key names, e.g. "Delete", "shift+F10") with `widget` focused.
    public func press(_ keys: [String], focusing widget: UnsafeMutablePointer<GtkWidget>, file: StaticString = #filePath, line: UInt = #line) {
        gtk_widget_grab_focus(widget)
        xdotool(["key", "--delay", "20"] + keys.map(Self.namingItsKeycode), file: file, line: line)
    }

    /// `combination` ("shift+F10") with its last key given as the keycode that types it
    /// with no modifier, when that is a number xdotool cannot take for a key name (10 and
    /// up). Given a key's name, xdotool picks a level showing it and presses that level's
    /// modifiers too: with xkeyboard-config 2.48 (Debian unstable), whose function keys'
    /// type `CTRL+ALT` changed, it pressed Alt with Shift+F10, and GTK saw Shift+Alt+F10.
    private static func namingItsKeycode(_ combination: String) -> String {
        var parts = combination.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.last, case let keyval = gdk_keyval_from_name(name), keyval != UInt32(GDK_KEY_VoidSymbol) else { return combination }
        var keys: UnsafeMutablePointer<GdkKeymapKey>?
        var count: Int32 = 0
        guard gdk_display_map_keyval(gdk_display_get_default(), keyval, &keys, &count) != 0, let keys else { return combination }
        defer { g_free(keys) }
        let plain = UnsafeBufferPointer(start: keys, count: Int(count)).first { $0.group == 0 && $0.level == 0 }
        guard let plain, plain.keycode >= 10 else { return combination }
        parts[parts.count - 1] = String(plain.keycode)
        return parts.joined(separator: "+")
    }

    /// Clicks mouse `button` (1 left, 3 right) in the middle of `widget` (in the window or
    /// in one of its popovers; or at `fraction` of its height), or holds it down for
    /// `holding` seconds (a long press), with `keys` held down meanwhile (X key names, e.g.
    /// "ctrl").
    public func click(_ widget: UnsafeMutablePointer<GtkWidget>, at fraction: Float = 0.5, button: Int = 1, holding: Double? = nil,
                      keys: [String] = [], file: StaticString = #filePath, line: UInt = #line) {
        let move = pointerMove(to: widget, fraction: fraction, file: file, line: line)
        let press = keys.isEmpty ? [] : ["keydown"] + [keys.joined(separator: "+")]
        let release = keys.isEmpty ? [] : ["keyup"] + [keys.joined(separator: "+")]
        if let holding {
            xdotool(move + press + ["mousedown", "\(button)", "sleep", "\(holding)", "mouseup", "\(button)"] + release, file: file, line: line)
        } else {
            xdotool(move + press + ["click", "\(button)"] + release, file: file, line: line)
        }
    }

    /// Turns the mouse wheel over the middle of `widget` by `clicks` notches, up (X buttons 4
    /// and 5: each notch scrolls GTK's views by a step).
    public func turnWheel(over widget: UnsafeMutablePointer<GtkWidget>, clicks: Int, up: Bool = true,
                          file: StaticString = #filePath, line: UInt = #line) {
        let notches = (0..<clicks).flatMap { _ in ["click", up ? "4" : "5", "sleep", "0.02"] }
        xdotool(pointerMove(to: widget, file: file, line: line) + notches, file: file, line: line)
    }

    /// Presses the left button on `source` and moves the pointer, in steps, to `target`
    /// (at `fraction` of its height and `across` of its width), dropping there unless
    /// `drop` is false (then `releaseButton` drops later), with `keys` (X key names, e.g.
    /// "ctrl") held down throughout. With `slowly`, the pointer first creeps GTK's drag
    /// threshold away from the press, as a hand moving a pixel at a time does: the drag
    /// begins on a motion exactly that far.
    public func drag(from source: UnsafeMutablePointer<GtkWidget>, to target: UnsafeMutablePointer<GtkWidget>, at fraction: Float = 0.5,
                     across: Float = 0.5, holding keys: [String] = [], drop: Bool = true, slowly: Bool = false,
                     file: StaticString = #filePath, line: UInt = #line) {
        let start = pointerMove(to: source, file: file, line: line)
        let end = pointerMove(to: target, fraction: fraction, across: across, file: file, line: line)
        var (x0, y0) = (Int(start[3])!, Int(start[4])!)
        let (x1, y1) = (Int(end[3])!, Int(end[4])!)
        var commands = start + keys.flatMap { ["keydown", $0] } + ["mousedown", "1", "sleep", "0.1"]
        if slowly {
            let threshold = intSetting("gtk-dnd-drag-threshold")
            if abs(y1 - y0) >= abs(x1 - x0) { y0 += y1 < y0 ? -threshold : threshold } else { x0 += x1 < x0 ? -threshold : threshold }
            commands += ["mousemove", "--window", "%1", "\(x0)", "\(y0)", "sleep", "0.1"]
        }
        for step in 1...8 {
            commands += ["mousemove", "--window", "%1", "\(x0 + (x1 - x0) * step / 8)", "\(y0 + (y1 - y0) * step / 8)", "sleep", "0.05"]
        }
        if drop { commands += ["sleep", "0.1", "mouseup", "1"] + keys.flatMap { ["keyup", $0] } }
        xdotool(commands, file: file, line: line)
    }

    /// Moves the pointer to `widget` (at `fraction` of its height), whatever it is doing: a
    /// drag started with `drop: false` goes on there.
    public func movePointer(to widget: UnsafeMutablePointer<GtkWidget>, at fraction: Float = 0.5, file: StaticString = #filePath, line: UInt = #line) {
        xdotool(pointerMove(to: widget, fraction: fraction, file: file, line: line), file: file, line: line)
    }

    /// Releases the left button (ending a drag started with `drop: false`).
    public func releaseButton(file: StaticString = #filePath, line: UInt = #line) {
        xdotool(["mouseup", "1"], file: file, line: line)
    }

    /// How long a press is held still before it is a long press (GtkSettings'
    /// `gtk-long-press-time`), in seconds.
    public var longPressTime: Double {
        Double(intSetting("gtk-long-press-time")) / 1000
    }

    /// The integer setting `name` of GtkSettings.
    private func intSetting(_ name: String) -> Int {
        var value = GValue()
        g_value_init(&value, g_type_from_name("gint"))
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutablePointer<GObject>(gtk_settings_get_default()), name, &value)
        return Int(g_value_get_int(&value))
    }

    /// Runs the main loop for as long as a press made now takes to become a long press, and
    /// then what became due meanwhile.
    public func outlastLongPress() {
        let due = Date().addingTimeInterval(longPressTime)
        MainLoopPump.run(until: { Date() > due }, timeout: longPressTime + 1)
        iterate(times: 5)
    }

    /// Moves the pointer to the middle of `widget`.
    public func hover(_ widget: UnsafeMutablePointer<GtkWidget>, file: StaticString = #filePath, line: UInt = #line) {
        xdotool(pointerMove(to: widget, file: file, line: line), file: file, line: line)
        // The X server delivers the crossing events in its own time (GTK 4.18 sometimes
        // after the frame waited for): done once GTK marks the widget as under the pointer.
        wait(until: { gtk_widget_get_state_flags(widget).rawValue & GTK_STATE_FLAG_PRELIGHT.rawValue != 0 }, timeout: 5,
             "the pointer over the widget", file: file, line: line)
        iterate(times: 5)
    }

    /// The xdotool command moving the pointer to the middle of `widget` (or to `fraction`
    /// of its height and `across` of its width).
    private func pointerMove(to widget: UnsafeMutablePointer<GtkWidget>, fraction: Float = 0.5, across: Float = 0.5,
                             file: StaticString, line: UInt) -> [String] {
        // A widget of a popover is placed in the popover's surface, placed relative to the window's.
        let native = gtk_widget_get_native(widget).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) } ?? window
        var bounds = graphene_rect_t()
        XCTAssertTrue(gtk_widget_compute_bounds(widget, native, &bounds) != 0, "the widget is in the window", file: file, line: line)
        var surfaceX = 0.0, surfaceY = 0.0
        gtk_native_get_surface_transform(OpaquePointer(native), &surfaceX, &surfaceY)
        if native != window, let surface = gtk_native_get_surface(OpaquePointer(native)) {
            surfaceX += Double(gdk_popup_get_position_x(surface))
            surfaceY += Double(gdk_popup_get_position_y(surface))
        }
        let x = Int(surfaceX + Double(bounds.origin.x + bounds.size.width * across))
        let y = Int(surfaceY + Double(bounds.origin.y + bounds.size.height * fraction))
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
