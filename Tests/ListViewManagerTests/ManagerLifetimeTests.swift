import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// A manager dropped by an app while GTK is inside one of its callbacks (binding a row)
/// lets GTK finish first: the view is taken apart once GTK is done, with no GLib warning.
final class ManagerLifetimeTests: XCTestCase {
    /// What keeps the manager alive: the app's one reference.
    @MainActor
    private final class Holder {
        var manager: ItemViewManager?
    }

    @MainActor
    private static func dropManager(inside event: String, viewKind: String) {
        openTestDisplay()
        let holder = Holder()
        weak var dropped: ItemViewManager?
        var fired = 0
        let make: () -> ItemViewManager = {
            switch viewKind {
            case "grid": return GridViewManager()
            case "column":
                let table = ColumnViewManager()
                table.addColumn(TableColumn("Title", cell: PostRow.self))
                return table
            default: return ListViewManager()
            }
        }
        let window = gtk_window_new()!
        let windowPointer = UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self)
        // Only the holder keeps the manager: the closure's reference ends before GTK, which
        // binds rows as soon as the view is in a window, sees the view.
        let view: UnsafeMutablePointer<GtkWidget> = {
            let made = make()
            // A column view's cell type is its column's; lists and grids register the row type.
            if viewKind != "column" { made.register(PostRow.self) }
            let drop = { fired += 1; holder.manager = nil }
            if event == "configure" { made.configure(PostRow.self) { _, _, _ in drop() } } else { made.willDisplay(PostRow.self) { _, _, _ in drop() } }
            made.memoryStorage.addItems((0..<20).map { Post(id: $0, title: "post \($0)") })
            holder.manager = made
            dropped = made
            return made.view
        }()
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), view)
        gtk_window_set_child(windowPointer, scrolled)
        gtk_window_set_default_size(windowPointer, 400, 300)
        gtk_window_present(windowPointer)
        MainLoopPump.run(until: { fired > 0 }, timeout: 5)
        MainLoopPump.drain(rounds: 50)
        XCTAssertEqual(fired, 1, "the handler ran once, and nothing bound a row of the dropped manager after")
        XCTAssertNil(dropped, "the manager is gone")
        gtk_window_destroy(windowPointer)
        MainLoopPump.drain(rounds: 20)
    }

    func testAManagerDroppedInsideItsConfigureHandler() { onMain { Self.dropManager(inside: "configure", viewKind: "list") } }
    func testAManagerDroppedInsideItsWillDisplayHandler() { onMain { Self.dropManager(inside: "willDisplay", viewKind: "list") } }
    func testAGridManagerDroppedInsideItsWillDisplayHandler() { onMain { Self.dropManager(inside: "willDisplay", viewKind: "grid") } }
    func testAColumnManagerDroppedInsideItsConfigureHandler() { onMain { Self.dropManager(inside: "configure", viewKind: "column") } }
}
