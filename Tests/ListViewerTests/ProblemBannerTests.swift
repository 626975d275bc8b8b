import CGtk
import Foundation
import GRDB
import ListViewManager
import ListViewerKit
import XCTest

/// The banner above the list that says what went wrong: readable, and gone once the
/// problem is.
final class ProblemBannerTests: XCTestCase {
    /// The descendant of `widget` (or `widget`) with the CSS class `name`.
    @MainActor
    static func descendant(of widget: UnsafeMutablePointer<GtkWidget>, withClass name: String) -> UnsafeMutablePointer<GtkWidget>? {
        if gtk_widget_has_css_class(widget, name) != 0 { return widget }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let found = descendant(of: current, withClass: name) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    /// The relative luminance of an sRGB colour (WCAG 2).
    static func luminance(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Double {
        let linear = [red, green, blue].map { (value: UInt8) -> Double in
            let channel = Double(value) / 255
            return channel <= 0.03928 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    /// The pixels (R, G, B) of the window's last drawn frame inside `widget`'s area, as the
    /// user sees them (the window's background under it included).
    @MainActor
    static func shownPixels(of widget: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>) throws -> [(UInt8, UInt8, UInt8)] {
        var bounds = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(widget, window, &bounds), 0)
        let renderer = try XCTUnwrap(gtk_native_get_renderer(gtk_widget_get_native(window)))
        let paintable = gtk_widget_paintable_new(window)
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(gtk_widget_get_width(window)), Double(gtk_widget_get_height(window)))
        let node = try XCTUnwrap(gtk_snapshot_free_to_node(snapshot), "the window was drawn")
        defer { gsk_render_node_unref(node) }
        let texture = try XCTUnwrap(gsk_renderer_render_texture(renderer, node, &bounds))
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
        // GDK_MEMORY_DEFAULT is B, G, R, A (premultiplied; the window is opaque).
        return stride(from: 0, to: bytes.count, by: 4).map { (bytes[$0 + 2], bytes[$0 + 1], bytes[$0]) }
    }

    func testTheBannersTextStandsOutFromWhatIsBehindIt() throws { try MainActor.assumeIsolated {
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        ViewerApp.loadStyle()
        viewer.present()
        viewer.openDirectory("/no/such/folder")
        XCTAssertEqual(viewer.problem, "Cannot open /no/such/folder: No such file or directory")
        let banner = try XCTUnwrap(Self.descendant(of: viewer.window.gtkWidget, withClass: "error-banner"))
        var pixels: [(UInt8, UInt8, UInt8)] = []
        var drawn = false
        Screenshot.afterPaintedFrames(of: viewer.window.gtkWidget, 2) {
            pixels = (try? Self.shownPixels(of: banner, in: viewer.window.gtkWidget)) ?? []
            drawn = true
        }
        ViewerTestLoop.wait("the banner to be drawn") { drawn }
        XCTAssertFalse(pixels.isEmpty)
        // The background is the commonest colour; the text, the one that differs most.
        var counts: [UInt32: Int] = [:]
        for (red, green, blue) in pixels { counts[UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue), default: 0] += 1 }
        let background = try XCTUnwrap(counts.max { $0.value < $1.value }?.key)
        let backgroundLuminance = Self.luminance(UInt8(background >> 16), UInt8(background >> 8 & 0xFF), UInt8(background & 0xFF))
        let contrast = pixels.map { pixel -> Double in
            let luminance = Self.luminance(pixel.0, pixel.1, pixel.2)
            return (max(luminance, backgroundLuminance) + 0.05) / (min(luminance, backgroundLuminance) + 0.05)
        }.max() ?? 1
        XCTAssertGreaterThanOrEqual(contrast, 4.5, "the text (contrast \(contrast)) is readable on its background #\(String(background, radix: 16))")
        ViewerTestLoop.close(viewer)
    } }

    func testTheBannerGoesOnceTheDatabaseCanBeReadAgain() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit")
        ViewerTestLoop.wait("the first rows") { viewer.isLoaded }
        XCTAssertNil(viewer.problem)
        let other = try sample.otherConnection()
        try other.write { db in try db.execute(sql: "ALTER TABLE fruit RENAME TO old_fruit") }
        ViewerTestLoop.wait("the failed fetch's message") { viewer.problem != nil }
        XCTAssertTrue(viewer.problem?.contains("no such table: fruit") ?? false, viewer.problem ?? "")
        XCTAssertEqual(viewer.countText, "3 rows", "the rows stay as they were")

        try other.write { db in
            try db.execute(sql: "ALTER TABLE old_fruit RENAME TO fruit; INSERT INTO fruit (id, name, category) VALUES (4, 'plum', 'stone')")
        }
        ViewerTestLoop.wait("the next fetch") { viewer.countText == "4 rows" }
        XCTAssertNil(viewer.problem, "the banner went with the problem")
        ViewerTestLoop.close(viewer)
    } }
}
