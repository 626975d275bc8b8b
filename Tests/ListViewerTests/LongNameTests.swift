import CGtk
import Foundation
import ListViewManager
import ListViewerKit
import XCTest

/// Long names and titles, shown in the header bar, the list and the details pane.
final class LongNameTests: XCTestCase {
    func testANameOf255BytesWrapsWithinTheDetailsPane() throws { try MainActor.assumeIsolated {
        let root = NSTemporaryDirectory() + "list-viewer-long-name-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // 255 bytes, the longest name ext4 and tmpfs allow, with no space to wrap at.
        let name = String(repeating: "n", count: 251) + ".txt"
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/" + name, contents: Data("x".utf8)))
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDirectory(root)
        ViewerTestLoop.wait("the folder to load") { viewer.isLoaded }
        ViewerTestLoop.waitForFrames(of: viewer.window.gtkWidget)
        let windowWidth = gtk_widget_get_width(viewer.window.gtkWidget)

        XCTAssertTrue(viewer.manager.select(IndexPath(item: 0, section: EntryKind.document.rawValue)))
        XCTAssertEqual(viewer.detailsTitle, name)
        ViewerTestLoop.waitForFrames(of: viewer.window.gtkWidget)
        XCTAssertEqual(gtk_widget_get_width(viewer.window.gtkWidget), windowWidth, "the window kept its width")
        let pane = try XCTUnwrap(ProblemBannerTests.descendant(of: viewer.window.gtkWidget, withClass: "details"))
        let scroller = try XCTUnwrap(gtk_widget_get_ancestor(pane, gtk_scrolled_window_get_type()))
        let shownWidth = gtk_widget_get_width(scroller)
        let heading = try XCTUnwrap(gtk_widget_get_first_child(pane))
        XCTAssertLessThanOrEqual(gtk_widget_get_width(heading), shownWidth, "the name is no wider than the pane")
        XCTAssertGreaterThan(gtk_widget_get_height(heading), 2 * gtk_widget_get_height(gtk_widget_get_first_child(gtk_widget_get_last_child(pane))),
                             "the name wraps onto several lines")
        let horizontal = try XCTUnwrap(gtk_scrolled_window_get_hadjustment(OpaquePointer(scroller)))
        XCTAssertLessThanOrEqual(gtk_adjustment_get_upper(horizontal), gtk_adjustment_get_page_size(horizontal) + 1,
                                 "nothing in the pane runs past its right edge")
        ViewerTestLoop.close(viewer)
    } }

    /// A database table whose section value and title are 255 characters long: the
    /// section's header and the row's title end in "…" at the list pane's edge, the row's
    /// note ("#4") stays in view, and nothing in the list runs into the details pane.
    func testLongSectionNamesAndTitlesAreCutAtTheListPanesEdge() throws { try MainActor.assumeIsolated {
        let long = String(repeating: "long name ", count: 26).prefix(255)
        let sample = try SampleDatabase(extraSQL: "INSERT INTO fruit (id, name, category) VALUES (4, '\(long)', 'z \(long)');")
        defer { sample.remove() }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit", sectionBy: "category")
        ViewerTestLoop.wait("the first rows") { viewer.isLoaded }
        let indexPath = IndexPath(item: 0, section: 2)
        XCTAssertEqual(viewer.manager.storage.headerModel(forSection: 2) as? String, "category: z \(long)")
        ViewerTestLoop.wait("the long row") { viewer.manager.row(at: indexPath) != nil }
        ViewerTestLoop.waitForFrames(of: viewer.window.gtkWidget)

        let row = try XCTUnwrap(viewer.manager.row(at: indexPath) as? DatabaseRecordRow)
        XCTAssertEqual(row.title.text, String(long))
        XCTAssertTrue(row.title.isEllipsized, "the title ends in …")
        let list = try XCTUnwrap(gtk_widget_get_ancestor(viewer.manager.view, gtk_scrolled_window_get_type()))
        let paneWidth = Float(gtk_widget_get_width(list))
        let labels = Self.labels(in: viewer.manager.view)
        let header = try XCTUnwrap(labels.first { String(cString: gtk_label_get_text(OpaquePointer($0))) == "category: z \(long)" },
                                   "the long section's header is shown")
        XCTAssertNotEqual(pango_layout_is_ellipsized(gtk_label_get_layout(OpaquePointer(header))), 0, "the header ends in …")
        XCTAssertGreaterThan(labels.count, 8)
        for label in labels where gtk_widget_get_mapped(label) != 0 {
            var bounds = graphene_rect_t()
            XCTAssertNotEqual(gtk_widget_compute_bounds(label, list, &bounds), 0)
            XCTAssertLessThanOrEqual(bounds.origin.x + bounds.size.width, paneWidth,
                                     "\"\(String(cString: gtk_label_get_text(OpaquePointer(label))).prefix(20))\" ends within the list pane")
        }
        let note = try XCTUnwrap(labels.first { String(cString: gtk_label_get_text(OpaquePointer($0))) == "#4" })
        XCTAssertGreaterThan(gtk_widget_get_width(note), 0, "the row's note keeps its place")
        let horizontal = try XCTUnwrap(gtk_scrolled_window_get_hadjustment(OpaquePointer(list)))
        XCTAssertLessThanOrEqual(gtk_adjustment_get_upper(horizontal), gtk_adjustment_get_page_size(horizontal) + 1,
                                 "the list is no wider than its pane")
        ViewerTestLoop.close(viewer)
    } }

    /// Every label under `widget`.
    @MainActor
    private static func labels(in widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var found: [UnsafeMutablePointer<GtkWidget>] = []
        if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), gtk_label_get_type()) != 0 {
            found.append(widget)
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            found += labels(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return found
    }

    func testATitleOfThousandsOfCharactersIsShownCutWithAnEllipsis() throws { try MainActor.assumeIsolated {
        let long = String(repeating: "T", count: 5000)
        let catalog: [String: Any] = ["title": long, "sections": [["header": "Books", "items": [
            ["book": ["title": long, "author": "A. Writer", "year": 2001, "pages": 10]],
        ]]]]
        let path = NSTemporaryDirectory() + "list-viewer-long-title-\(UUID().uuidString).json"
        try JSONSerialization.data(withJSONObject: catalog).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.show(try CatalogLoader.load(path: path))
        XCTAssertEqual(viewer.titleText, String(repeating: "T", count: 2000) + "…")
        ViewerTestLoop.wait("the book's row") { viewer.manager.row(at: IndexPath(item: 0, section: 0)) != nil }
        let row = try XCTUnwrap(viewer.manager.row(at: IndexPath(item: 0, section: 0)) as? BookRow)
        XCTAssertEqual(row.title.text, viewer.titleText)
        ViewerTestLoop.waitForFrames(of: viewer.window.gtkWidget)
        XCTAssertLessThanOrEqual(gtk_widget_get_width(viewer.window.gtkWidget), 1024, "the window is no wider than the screen")
        ViewerTestLoop.close(viewer)
    } }

    /// A long title of flags (each two Unicode scalars) is cut between flags, never through
    /// one, after 2,000 characters (not 2,000 scalars).
    func testALongTitleIsCutBetweenCharacters() throws { try MainActor.assumeIsolated {
        let flag = "\u{1F1EB}\u{1F1F7}"
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.show(try CatalogLoader.decode(Data(#"{"title": "x\#(String(repeating: flag, count: 3000))", "sections": []}"#.utf8),
                                             path: "flags.json"))
        XCTAssertEqual(Array(viewer.titleText.unicodeScalars), Array(("x" + String(repeating: flag, count: 1999) + "…").unicodeScalars))
        ViewerTestLoop.close(viewer)
    } }
}
