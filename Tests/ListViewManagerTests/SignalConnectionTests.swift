import CGtk
import Foundation
import GtkTestSupport
@testable import ListViewManager
import XCTest

/// A handler held as a `SignalConnection` lives exactly as long as the value.
final class SignalConnectionTests: XCTestCase {
    func testTheHandlerGoesWithTheConnection() { onMain {
        let adjustment = ObjectReference(sinking: gtk_adjustment_new(0, 0, 100, 1, 10, 10)!)
        let instance = UnsafeMutableRawPointer(adjustment.pointer)
        var changes = 0
        var connection: SignalConnection? = SignalConnection(Signal.connect(instance, "value-changed") { changes += 1 }, on: instance)
        gtk_adjustment_set_value(adjustment.pointer, 5)
        XCTAssertEqual(changes, 1)
        XCTAssertTrue(connection?.isConnected(to: instance) == true)
        connection = nil
        gtk_adjustment_set_value(adjustment.pointer, 6)
        XCTAssertEqual(changes, 1, "a handler let go of still ran")
        XCTAssertEqual(g_signal_has_handler_pending(instance, g_signal_lookup("value-changed", gtk_adjustment_get_type()), 0, 0), 0)
    } }

    func testDisconnectingTwiceOrAfterTheObjectIsGoneDoesNothing() { onMain {
        var adjustment: ObjectReference<UnsafeMutablePointer<GtkAdjustment>>? = ObjectReference(sinking: gtk_adjustment_new(0, 0, 100, 1, 10, 10)!)
        let instance = UnsafeMutableRawPointer(adjustment!.pointer)
        let connection = SignalConnection(Signal.connect(instance, "value-changed") {}, on: instance)
        adjustment = nil
        // Finalized: its handlers went with it; a disconnection now would be a GLib critical,
        // which the tests' fatal warnings would turn into a crash.
        XCTAssertFalse(connection.isConnected(to: instance))
        connection.disconnect()
        connection.disconnect()
    } }
}
