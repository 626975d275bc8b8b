import CGtk
import CGtkShims
import Foundation
@testable import ListViewManager
import XCTest

/// A real GtkWindow (800×600) with a scrolled GtkListView driven by a manager.
@MainActor
public final class GtkHarness {
    public let window: UnsafeMutablePointer<GtkWidget>
    public var manager: ListViewManager!
    public var windowPointer: UnsafeMutablePointer<GtkWindow> { gtkCast(window, to: GtkWindow.self) }

    /// The manager, whatever its view (`manager` is the same one when it is a list's).
    public var viewManager: ItemViewManager!
    /// What shows the manager's view in the window: the test's scrolled window, or
    /// `gtkWidget`.
    public private(set) var list: UnsafeMutablePointer<GtkWidget>!

    /// A window showing a new list view manager, set up by `configure`.
    public convenience init(selectionMode: SelectionMode = .single, configure: (ListViewManager) -> Void = { _ in }) {
        self.init(showing: {
            let manager = ListViewManager(selectionMode: selectionMode)
            configure(manager)
            return manager
        })
    }

    /// A window showing the view of the manager `make` returns (made once GTK is up), in a
    /// scrolled window of the test's own, or through `gtkWidget` (with the pinned header and
    /// the section index).
    public init(showing make: () -> ItemViewManager, throughScrolledView: Bool = false) {
        openTestDisplay()
        MainQueue.attachToGLib()
        window = gtk_window_new()
        g_object_ref_sink(window)
        gtk_window_set_default_size(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self), 800, 600)
        let manager = make()
        self.manager = manager as? ListViewManager
        viewManager = manager
        if throughScrolledView {
            list = manager.gtkWidget
        } else {
            list = Self.scrolled(manager.view)
        }
        gtk_window_set_child(windowPointer, list)
        gtk_window_present(windowPointer)
        waitForFrames()
    }

    /// Closes the window and lets GTK finish with it.
    public func close() {
        gtk_window_destroy(windowPointer)
        g_object_unref(window)
        iterate(times: 20)
    }

    /// Renders the window to a PNG at `path` (for looking at what a test shows).
    public func screenshot(to path: String) {
        waitForFrames()
        XCTAssertTrue(Screenshot.savePNG(of: window, to: path), "the window was rendered to \(path)")
    }

    /// Runs the main loop until nothing is pending (idle callbacks, finalisations).
    public static func drainMainLoop() -> Bool {
        MainLoopPump.drain(rounds: 50)
        return true
    }

    /// Runs pending main-loop work without blocking.
    public func iterate(times: Int = 1) {
        MainLoopPump.drain(rounds: times)
    }

    /// Runs the main loop until `condition` holds (or fails after `timeout` seconds).
    public func wait(until condition: () -> Bool, timeout: Double = 5, _ message: String = "condition", file: StaticString = #filePath, line: UInt = #line) {
        if !MainLoopPump.run(until: condition, timeout: timeout) {
            XCTFail("timed out waiting for \(message)", file: file, line: line)
        }
    }

    /// Lets the window lay out and draw a few frames, so rows are realised and bound.
    public func waitForFrames(_ count: Int = 3) {
        let clock = gtk_widget_get_frame_clock(window)
        guard let clock else {
            wait(until: { gtk_widget_get_mapped(window) != 0 }, "the window to be mapped")
            return waitForFrames(count)
        }
        let start = gdk_frame_clock_get_frame_counter(clock)
        wait(until: {
            gtk_widget_queue_draw(window)  // a frame happens only when something asks for one
            return gdk_frame_clock_get_frame_counter(clock) >= start + Int(count)
        }, "\(count) frames")
    }
}

/// Runs a test body on the main actor. XCTest on Linux runs tests on the main thread but
/// cannot call main-actor test methods, so tests are nonisolated and wrap their body.
public func onMain(_ body: @MainActor () throws -> Void) rethrows {
    try MainActor.assumeIsolated(body)
}

extension GtkHarness {
    /// A new scrolled window showing `view` (a second manager's, say).
    public static func scrolled(_ view: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), view)
        return scrolled
    }

    /// Lays the window out anew: `widgets` (among them `list`, where it goes) in a row,
    /// sharing the room equally, or in a column, where `list` takes the room the others
    /// leave.
    public func arrange(_ orientation: GtkOrientation, _ widgets: [UnsafeMutablePointer<GtkWidget>]) {
        let kept = ObjectReference(retaining: list!)  // while it moves from the window to the box
        let box = gtk_box_new(orientation, 0)!
        gtk_box_set_homogeneous(gtkCast(box, to: GtkBox.self), orientation == GTK_ORIENTATION_HORIZONTAL ? 1 : 0)
        gtk_window_set_child(windowPointer, box)
        for widget in widgets { gtk_box_append(gtkCast(box, to: GtkBox.self), widget) }
        gtk_widget_set_vexpand(list, 1)
        withExtendedLifetime(kept) {}
        waitForFrames(2)
    }

    /// Activates one of the list view's actions, as GTK's own key bindings and clicks do.
    public func activateAction(_ name: String, _ parameters: [OpaquePointer]) {
        activateAction(viewManager, name, parameters)
    }

    /// Activates an action of `manager`'s view (a column view's inner list view).
    public func activateAction(_ manager: ItemViewManager, _ name: String, _ parameters: [OpaquePointer]) {
        var children: [OpaquePointer?] = parameters
        let parameter = parameters.count == 1
            ? parameters[0]
            : children.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        cgtk_shims_widget_activate_action(manager.kind.listBase(manager.view), name, parameter)
        iterate()
    }

    /// `list.select-item`: select the row at `position` (alone, or added with `modify`).
    public func selectRow(_ position: Int, modify: Bool = false) {
        activateAction("list.select-item", [g_variant_new_uint32(UInt32(position)), g_variant_new_boolean(modify ? 1 : 0), g_variant_new_boolean(0)])
    }

    /// `list.activate-item`: activate the row at `position` (what Enter and double click do).
    public func activateRow(_ position: Int) {
        activateAction("list.activate-item", [g_variant_new_uint32(UInt32(position))])
    }

    /// The bound rows, by position.
    public var boundRowsByPosition: [Int: RowWidget] {
        Dictionary(viewManager.boundRows.map { (Int(gtk_list_item_get_position($0.listItem)), $0.row.row) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Records a GListModel's `items-changed` as GTK's testsuite does ("5-1+2"), and replays
/// each on a shadow of the model's items fetched during the emission, so a test checks both
/// the emissions and what the model answered between them. Every emission must be consumed
/// by `take()`; `assertConsumed()` fails the test otherwise.
@MainActor
public final class ItemsChangedRecorder {
    public private(set) var tokens: [String] = []
    public private(set) var shadow: [String] = []
    private let model: OpaquePointer
    private let describe: (UnsafeMutableRawPointer) -> String
    private var handler: UInt = 0

    public init(_ model: OpaquePointer, describe: @escaping (UnsafeMutableRawPointer) -> String) {
        self.model = model
        self.describe = describe
        shadow = fetchAll()
        typealias Handler = @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void
        let callback: Handler = { _, position, removed, added, data in
            let recorder = Unmanaged<ItemsChangedRecorder>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { recorder.record(Int(position), Int(removed), Int(added)) }
        }
        handler = UInt(g_signal_connect_data(UnsafeMutableRawPointer(model), "items-changed", unsafeBitCast(callback, to: GCallback.self),
                                             Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(rawValue: 0)))
    }

    public func disconnect() {
        if handler != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(model), gulong(handler)) }
        handler = 0
    }

    private func record(_ position: Int, _ removed: Int, _ added: Int) {
        tokens.append(Splice(position: position, removed: removed, added: added).description)
        let fetched = (position..<(position + added)).map { fetch($0) }
        shadow.replaceSubrange(position..<min(position + removed, shadow.count), with: fetched)
    }

    private func fetch(_ position: Int) -> String {
        guard let item = g_list_model_get_item(model, UInt32(position)) else { return "<nil>" }
        defer { g_object_unref(item) }
        return describe(item)
    }

    public func fetchAll() -> [String] {
        (0..<Int(g_list_model_get_n_items(model))).map(fetch)
    }

    /// The emissions since the last call.
    public func take() -> [String] {
        defer { tokens = [] }
        return tokens
    }

    public func assertConsumed(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(tokens, [], "unchecked items-changed emissions", file: file, line: line)
    }
}

/// Describes an item of the manager's list model: its kind and model.
@MainActor
public func describeRowItem(_ object: UnsafeMutableRawPointer) -> String {
    guard let item = RowItem.of(object) else { return "<not a row item>" }
    return "\(item.kind):\(item.model.map { String(describing: $0) } ?? "nil")"
}
