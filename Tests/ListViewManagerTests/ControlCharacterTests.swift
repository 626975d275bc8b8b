import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// A row's text reaches GTK whole: GTK takes C strings, which end at a NUL, so control
/// characters are shown as their symbols (U+2400 "␀" on), tab and line feed as themselves.
final class ControlCharacterTests: XCTestCase {
    func testRowsShowTheTextAfterANulAndControlCharactersAsSymbols() { onMain {
        let titles = ["nul\0inside", "tab\tbell\u{7}escape\u{1B}[2Jdelete\u{7F}end", "two\nlines, é and 😀"]
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.tooltip(model: Post.self) { post, _ in "Tooltip: \(post.title)" }
            manager.memoryStorage.addItems(titles.enumerated().map { Post(id: $0.offset, title: $0.element) })
        }
        harness.waitForFrames()
        let shown = ["nul␀inside", "tab\tbell␇escape␛[2Jdelete␡end", "two\nlines, é and 😀"]
        for (position, expected) in shown.enumerated() {
            let row = try! XCTUnwrap(harness.boundRowsByPosition[position] as? PostRow)
            XCTAssertEqual(row.title.text, expected)
            // What Pango lays out and draws.
            let layout = gtk_label_get_layout(OpaquePointer(row.title.gtkWidget))
            XCTAssertEqual(String(cString: pango_layout_get_text(layout)), expected)
            // The tooltip GTK shows when the pointer rests on the row.
            harness.hover(row.rootWidget, untilTooltip: "Tooltip: \(expected)")
        }
        let first = (harness.boundRowsByPosition[0] as! PostRow).title.gtkWidget
        let cut = gtk_widget_create_pango_layout(first, "nul")
        defer { g_object_unref(UnsafeMutableRawPointer(cut)) }
        var cutWidth: Int32 = 0, wholeWidth: Int32 = 0
        pango_layout_get_pixel_size(cut, &cutWidth, nil)
        pango_layout_get_pixel_size(gtk_label_get_layout(OpaquePointer(first)), &wholeWidth, nil)
        XCTAssertGreaterThan(wholeWidth, cutWidth * 3, "the text after the NUL takes room: it is drawn")
        harness.close()
    } }

    func testALabelsTextAndAWidgetsTooltipShowControlCharacters() { onMain {
        XCTAssertNotEqual(gtk_init_check(), 0)
        let label = Label("a\0b")
        XCTAssertEqual(label.text, "a␀b")
        label.text = "\u{1}\u{1F}\u{7F}\u{80}"
        XCTAssertEqual(label.text, "␁␟␡\u{80}", "C0 controls and DELETE")
        label.tooltip = "c\0d"
        XCTAssertEqual(label.tooltip, "c␀d")
        label.text = "plain text"
        XCTAssertEqual(label.text, "plain text")
    } }
}
