import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// The README's quick start, compiled and run in a real window; the test also checks that
/// the README still shows exactly these lines, so neither can rot.
final class ReadmeQuickStartTests: XCTestCase {
    func testTheQuickStartRunsAsWritten() throws { try onMain {
        var events: [String] = []
        XCTAssertNotEqual(gtk_init_check(), 0, "GTK needs a display: run the tests under xvfb-run")
        let listView = gtk_list_view_new(nil, nil)!
        let todayPosts = [Post(id: 1, title: "Swift on GTK"), Post(id: 2, title: "Sections in 4.8")]
        // README quick start: begin
        final class PostRow: Row, ModelTransfer {        // a row widget written in Swift
            let title = Label()
            required init() { super.init(); append(title) }
            func update(with model: Post) { title.text = model.title }
        }
        let manager = ListViewManager(listView: listView)
        manager.register(PostRow.self)
        manager.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
        manager.memoryStorage.addItems(todayPosts, toSection: 0)
        manager.didSelect(PostRow.self) { row, post, indexPath in print("selected", post.title) }
        manager.didActivate(PostRow.self) { row, post, indexPath in print("opened", post.title) }
        // README quick start: end
        manager.didSelect(PostRow.self) { row, post, indexPath in events.append("select \(row.title.text) \(indexPath.item)") }

        let harness = GtkHarness()
        let scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), manager.listView)
        gtk_window_set_child(harness.windowPointer, scrolled)
        harness.waitForFrames()
        XCTAssertEqual(manager.numberOfRows, 4, "a header row, two posts, the empty section's header row")
        harness.activateAction(manager, "list.select-item", [g_variant_new_uint32(2), g_variant_new_boolean(0), g_variant_new_boolean(0)])
        XCTAssertEqual(events, ["select Sections in 4.8 1"])
        harness.close()

        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardizedFileURL, encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let begin = lines.firstIndex { $0.contains("README quick start: begin") }!
        let end = lines.firstIndex { $0.contains("README quick start: end") }!
        let snippet = lines[(begin + 1)..<end].map { $0.trimmingCharacters(in: .whitespaces) }
        let readmeLines = Set(readme.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for line in snippet {
            XCTAssertTrue(readmeLines.contains(line), "README.md lacks the quick start line: \(line)")
        }
    } }
}
