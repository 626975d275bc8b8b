import Foundation
import Synchronization

/// Another client of the X display holding the server grabbed (`XGrabServer`): the server
/// answers no other client meanwhile, so anything of this process that waits for an answer
/// from it (an X round trip) waits until the grab ends. A test holds one to show that the
/// main thread did something without waiting for the display server. Needs `DISPLAY` (the
/// tests run under Xvfb); libX11 is loaded when the grab is made, as GDK has it loaded.
public final class DisplayServerGrab: Sendable {
    private typealias OpenDisplay = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias DisplayCall = @convention(c) (OpaquePointer?) -> Int32
    private typealias Sync = @convention(c) (OpaquePointer?, Int32) -> Int32

    private struct Functions: @unchecked Sendable {
        let grab: DisplayCall, ungrab: DisplayCall, close: DisplayCall, sync: Sync
    }

    private let functions: Functions
    /// The grabbing client's connection, until the grab ends.
    private let connection: Mutex<UInt?>

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens a connection of its own to the display and grabs the server (done once the
    /// server has answered it).
    public init() throws {
        guard let library = dlopen("libX11.so.6", RTLD_NOW) else { throw Failure(description: "libX11.so.6 cannot be loaded") }
        func function<T>(_ name: String, as type: T.Type) throws -> T {
            guard let symbol = dlsym(library, name) else { throw Failure(description: "libX11 has no \(name)") }
            return unsafeBitCast(symbol, to: type)
        }
        let open = try function("XOpenDisplay", as: OpenDisplay.self)
        functions = Functions(grab: try function("XGrabServer", as: DisplayCall.self), ungrab: try function("XUngrabServer", as: DisplayCall.self),
                              close: try function("XCloseDisplay", as: DisplayCall.self), sync: try function("XSync", as: Sync.self))
        guard let display = open(nil) else { throw Failure(description: "no X display (run the tests under xvfb-run)") }
        _ = functions.grab(display)
        _ = functions.sync(display, 0)
        connection = Mutex(UInt(bitPattern: Int(bitPattern: UnsafeMutableRawPointer(display))))
    }

    /// Ends the grab and closes the connection, unless that is done already; returns
    /// whether the grab was still held (false: `release(after:)` ended it first).
    @discardableResult
    public func release() -> Bool {
        guard let address = connection.withLock({ address in defer { address = nil }; return address }) else { return false }
        let display = OpaquePointer(bitPattern: address)
        _ = functions.ungrab(display)
        _ = functions.close(display)
        return true
    }

    /// Ends the grab after `seconds` on another thread, if it is still held then: what
    /// waits for the server during the grab then ends (and the test fails) instead of
    /// waiting for ever.
    public func release(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in release() }
    }
}
