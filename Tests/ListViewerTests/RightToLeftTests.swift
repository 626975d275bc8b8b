import CGtk
import Foundation
import ListViewManager
import ListViewerKit
import XCTest

/// The viewer laid out right to left (`list-viewer --direction rtl`, or an Arabic or
/// Hebrew desktop): the list at the right of the details, each row's icon at its right,
/// and the pinned section header at the list's right edge.
final class RightToLeftTests: XCTestCase {
    /// `widget`'s bounds in `window`'s coordinates.
    @MainActor
    private static func bounds(_ widget: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>) throws -> graphene_rect_t {
        var bounds = graphene_rect_t()
        XCTAssertNotEqual(gtk_widget_compute_bounds(widget, window, &bounds), 0)
        return bounds
    }

    func testRowsPanesAndThePinnedHeaderAreMirrored() throws { try MainActor.assumeIsolated {
        // After GTK's start (the shared application's), which sets the language's direction.
        let application = ViewerTestApplication.shared
        ViewerApp.loadStyle()
        Widget.defaultDirection = .rightToLeft
        defer { Widget.defaultDirection = .leftToRight }
        let viewer = ViewerWindow(application: application)
        viewer.present()
        viewer.show(try CatalogLoader.load(path: ViewerResources.sampleCatalog.path))
        let first = IndexPath(item: 0, section: 0)
        ViewerTestLoop.wait("the first book's row") { viewer.manager.row(at: first) != nil }
        ViewerTestLoop.waitForFrames(of: viewer.window.gtkWidget)
        let window = viewer.window.gtkWidget
        XCTAssertEqual(gtk_widget_get_direction(window), GTK_TEXT_DIR_RTL)

        let list = try XCTUnwrap(gtk_widget_get_ancestor(viewer.manager.view, gtk_scrolled_window_get_type()))
        let details = try XCTUnwrap(ProblemBannerTests.descendant(of: window, withClass: "details"))
        let listBounds = try Self.bounds(list, in: window)
        XCTAssertGreaterThan(listBounds.origin.x, try Self.bounds(details, in: window).origin.x, "the list is at the right of the details")

        let row = try XCTUnwrap(viewer.manager.row(at: first) as? BookRow)
        let icon = try Self.bounds(row.icon.gtkWidget, in: window), title = try Self.bounds(row.title.gtkWidget, in: window)
        let note = try Self.bounds(row.note.gtkWidget, in: window)
        XCTAssertGreaterThan(icon.origin.x, title.origin.x, "a row's icon is at its right, before its title")
        XCTAssertLessThan(note.origin.x, title.origin.x, "and its year at its left")
        XCTAssertGreaterThan(icon.origin.x, listBounds.origin.x + listBounds.size.width - 80, "the icon is at the list's right edge")

        // Scrolled into the books, their header is pinned over the top, at the right.
        XCTAssertTrue(viewer.manager.scrollTo(IndexPath(item: 30, section: 0)))
        ViewerTestLoop.waitForFrames(of: window)
        let pinned = try XCTUnwrap(ProblemBannerTests.descendant(of: window, withClass: "pinned-section-header"))
        ViewerTestLoop.wait("the pinned header") { gtk_widget_get_mapped(pinned) != 0 && gtk_widget_get_first_child(pinned) != nil }
        let heading = try XCTUnwrap(Self.label(in: pinned, reading: "Books"), "the pinned copy shows the Books header")
        let headingBounds = try Self.bounds(heading, in: window)
        XCTAssertGreaterThan(headingBounds.origin.x, listBounds.origin.x + listBounds.size.width / 2, "the pinned header reads from the right")
        if let directory = ProcessInfo.processInfo.environment["SCREENSHOT_DIR"] {
            var written = false
            Screenshot.afterPaintedFrames(of: window, 2) { written = Screenshot.savePNG(of: window, to: directory + "/screenshot-rtl.png") }
            ViewerTestLoop.wait("the screenshot") { written }
        }
        ViewerTestLoop.close(viewer)
    } }

    /// The label under `widget` showing `text`.
    @MainActor
    private static func label(in widget: UnsafeMutablePointer<GtkWidget>, reading text: String) -> UnsafeMutablePointer<GtkWidget>? {
        if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type()) != 0,
           String(cString: gtk_label_get_text(OpaquePointer(widget))) == text {
            return widget
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if let found = label(in: current, reading: text) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    func testTheDirectionIsAnOption() throws {
        XCTAssertEqual(try ViewerOptions.parse(["--direction", "rtl"]).direction, .rightToLeft)
        XCTAssertEqual(try ViewerOptions.parse(["--direction", "ltr"]).direction, .leftToRight)
        XCTAssertNil(try ViewerOptions.parse([]).direction, "the language's direction by default")
        XCTAssertThrowsError(try ViewerOptions.parse(["--direction", "up"]))
    }
}
