import CGtk
import CGtkShims
import CGtkTestShims
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// Reordering by dragging rows with the real pointer: `canMove`, typed `moveItem` events,
/// the automatic storage move, the drop indicator, drops from outside, invalid moves.
final class DragAndDropTests: XCTestCase {
    /// "A": posts 1…4; "B": posts 5, 6. Post 3 can't be moved.
    @MainActor
    private static func makeHarness(_ configure: (ListViewManager) -> Void = { _ in }) -> GtkHarness {
        GtkHarness { manager in
            manager.register(PostRow.self)
            manager.configuration.movesItemsInStorage = true
            manager.canMove(withItem: Post.self) { post, _ in post.id != 3 }
            configure(manager)
            manager.memoryStorage.setSectionHeaderModels(["A", "B"])
            manager.memoryStorage.addItems((1...4).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
            manager.memoryStorage.addItems((5...6).map { Post(id: $0, title: "post \($0)") }, toSection: 1)
        }
    }

    func testDraggingARowBelowAnotherMovesItThereWithATypedEvent() { onMain {
        var events: [String] = []
        let harness = Self.makeHarness { manager in
            manager.moveItem(PostRow.self) { row, post, source, destination in
                events.append("row \(row.title.text) \(post.id) \(describe(source)) -> \(describe(destination))")
            }
            manager.moveItem(model: Post.self) { post, _, _ in events.append("model \(post.id)") }
        }
        let rows = harness.boundRowsByPosition  // 0 "A", 1…4 posts 1…4, 5 "B", 6 post 5, 7 post 6
        harness.drag(from: rows[1]!.rootWidget, to: rows[3]!.rootWidget, at: 0.8)
        XCTAssertEqual(events, ["row post 1 1 [0,0] -> [0,2]", "model 1"])
        XCTAssertEqual(titles(harness.manager), [[2, 3, 1, 4], [5, 6]])

        let moved = harness.boundRowsByPosition
        harness.drag(from: moved[2]!.rootWidget, to: moved[7]!.rootWidget, at: 0.2)  // post 3: can't move
        harness.drag(from: moved[4]!.rootWidget, to: moved[7]!.rootWidget, at: 0.2)  // post 4 above post 6
        XCTAssertEqual(titles(harness.manager), [[2, 3, 1], [5, 4, 6]])
        XCTAssertEqual(events.count, 4, "post 3 did not move: \(events)")
        harness.close()
    } }

    func testTheRowUnderTheDragShowsWhereTheDropGoes() { onMain {
        let harness = Self.makeHarness()
        let rows = harness.boundRowsByPosition
        XCTAssertEqual(linePixels(in: rows[4]!.rootWidget), 0, "no line before the drag")
        harness.drag(from: rows[1]!.rootWidget, to: rows[4]!.rootWidget, at: 0.2, drop: false)
        XCTAssertTrue(gtk_widget_has_css_class(rows[4]!.rootWidget, "drop-above") != 0, "a line above post 4")
        harness.waitForFrames(1)
        XCTAssertGreaterThan(linePixels(in: rows[4]!.rootWidget), 100, "the line is drawn, in the selection colour")
        harness.releaseButton()
        harness.waitForFrames(1)
        XCTAssertTrue(gtk_widget_has_css_class(rows[4]!.rootWidget, "drop-above") == 0, "the line goes with the drag")
        XCTAssertEqual(linePixels(in: rows[4]!.rootWidget), 0, "and is no longer drawn")
        XCTAssertEqual(titles(harness.manager), [[2, 3, 1, 4], [5, 6]])
        harness.close()
    } }

    func testAMoveToAPlaceOutsideTheStorageIsAnAnomalyAndChangesNothing() { onMain {
        var anomalies: [String] = []
        let harness = Self.makeHarness { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0.description) }
        }
        XCTAssertFalse(harness.manager.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 9, section: 1)))
        XCTAssertFalse(harness.manager.moveItem(at: IndexPath(item: 7, section: 0), to: IndexPath(item: 0, section: 1)))
        XCTAssertEqual(anomalies, ["ListViewManagerAnomaly.invalidMove([0, 0] to [1, 9])", "ListViewManagerAnomaly.invalidMove([0, 7] to [1, 0])"])
        XCTAssertEqual(titles(harness.manager), [[1, 2, 3, 4], [5, 6]])
        harness.close()
    } }

    func testTextAndFilesDraggedFromOutsideTheListReachTheDropHook() { onMain {
        var drops: [String] = []
        let harness = Self.makeHarness { manager in
            manager.didDropFromOutside { content, indexPath in drops.append("\(content) at \(describe(indexPath))") }
        }
        // Labels above the list, dragging text and a file, as another part of the app (or
        // another app, a file manager) would.
        let note = Self.dragSource("a note", .text("a note"))
        let file = Self.dragSource("a file", .files(["/tmp/dropped file.txt"]))
        let scrolled = gtk_window_get_child(harness.windowPointer)!
        g_object_ref(scrolled)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_window_set_child(harness.windowPointer, box)
        for widget in [note, file, scrolled] {
            gtk_box_append(UnsafeMutableRawPointer(box).assumingMemoryBound(to: GtkBox.self), widget)
        }
        gtk_widget_set_vexpand(scrolled, 1)
        g_object_unref(scrolled)
        harness.waitForFrames(2)
        let rows = harness.boundRowsByPosition
        harness.drag(from: note, to: rows[6]!.rootWidget, at: 0.8)
        harness.drag(from: file, to: rows[0]!.rootWidget, at: 0.5)
        XCTAssertEqual(drops, ["text(\"a note\") at [1,1]", "files([\"/tmp/dropped file.txt\"]) at [0,0]"],
                       "below post 5; on the header of A: its first place")
        XCTAssertEqual(titles(harness.manager), [[1, 2, 3, 4], [5, 6]], "the storage is the app's to change")
        harness.close()
    } }

    /// A label whose drag carries `content`.
    @MainActor
    private static func dragSource(_ text: String, _ content: DragContent) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(text)!
        let source = gtk_drag_source_new()!
        let provider = content.makeProvider()
        withExtendedLifetime(provider) { gtk_drag_source_set_content(source, provider.pointer) }
        gtk_widget_add_controller(label, source)
        return label
    }
}

private func describe(_ indexPath: IndexPath) -> String {
    "[\(indexPath.section),\(indexPath.item)]"
}

/// The post ids of each section of `manager`'s storage.
@MainActor
private func titles(_ manager: ListViewManager) -> [[Int]] {
    (0..<manager.memoryStorage.numberOfSections()).map { section in
        (manager.memoryStorage.items(inSection: section) ?? []).map { ($0 as! Post).id }
    }
}

/// How many pixels of `row`, rendered as it looks now, are of a strong blue like the theme's
/// selection colour (rows are black text on white otherwise).
@MainActor
private func linePixels(in row: UnsafeMutablePointer<GtkWidget>) -> Int {
    guard let texture = Screenshot.render(row) else { return -1 }
    defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
    let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    pixels.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
    // gdk_texture_download writes B, G, R, A bytes (CAIRO_FORMAT_ARGB32, little-endian).
    return stride(from: 0, to: pixels.count, by: 4).filter { index in
        Int(pixels[index]) > Int(pixels[index + 2]) + 60 && pixels[index + 3] > 200
    }.count
}
