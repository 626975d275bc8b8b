import CGtk

/// A signal handler that is disconnected when this value goes (or at `disconnect()`), as
/// `ObjectReference` gives its reference back: hold it for as long as the handler is
/// wanted, instead of keeping a bare handler id to disconnect by hand.
///
/// It watches its object weakly (a GWeakRef): it keeps no object alive, and an object
/// finalized first took its handlers with it, so there is nothing left to disconnect.
///
/// ```swift
/// let window = Window(title: "Notes")
/// let connection = Signal.connection(window, .changed("title")) { print("retitled") }
/// ```
@MainActor
public final class SignalConnection {
    /// The handler's id, as `g_signal_connect` returned it.
    public let handlerID: UInt
    /// The object, weakly.
    private let object: UnsafeMutablePointer<GWeakRef>
    private var isConnected = true

    /// Takes charge of the handler `handlerID` of `instance`.
    package init(_ handlerID: UInt, on instance: UnsafeMutableRawPointer) {
        self.handlerID = handlerID
        object = .allocate(capacity: 1)
        object.initialize(to: GWeakRef())
        g_weak_ref_init(object, instance)
    }

    /// Disconnects the handler now (nothing when it already was, or its object is gone).
    public func disconnect() {
        guard isConnected else { return }
        isConnected = false
        guard let instance = g_weak_ref_get(object) else { return }
        g_signal_handler_disconnect(instance, gulong(handlerID))
        g_object_unref(instance)
    }

    /// Whether `instance` is the object the handler was connected to, and is still alive.
    package func isConnected(to instance: UnsafeMutableRawPointer) -> Bool {
        guard isConnected, let current = g_weak_ref_get(object) else { return false }
        g_object_unref(current)
        return current == instance
    }

    isolated deinit {
        disconnect()
        g_weak_ref_clear(object)
        object.deinitialize(count: 1)
        object.deallocate()
    }
}
