import Foundation
import CGtk
import CGtkShims

/// A Swift closure kept alive for a GTK signal handler; released by the handler's destroy
/// notify when the signal is disconnected or the object finalised.
final class SignalClosure<Action> {
    let action: Action

    init(_ action: Action) {
        self.action = action
    }

    static func from(_ data: UnsafeMutableRawPointer?) -> SignalClosure<Action> {
        Unmanaged<SignalClosure<Action>>.fromOpaque(data!).takeUnretainedValue()
    }
}

/// Connects `handler` to `signal` of `instance` (after the default handlers when `after`),
/// keeping `closure` alive until GTK releases it through the destroy notify. Returns the
/// handler id.
@MainActor
@discardableResult
func connect<Action>(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: GCallback, _ closure: SignalClosure<Action>,
                     after: Bool = false) -> UInt {
    let destroy: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }
    let data = Unmanaged<AnyObject>.passRetained(closure).toOpaque()
    guard after else { return UInt(cgtk_shims_signal_connect(instance, signal, handler, data, destroy)) }
    return UInt(g_signal_connect_data(instance, signal, handler, data, destroy, G_CONNECT_AFTER))
}

/// A signal whose handler takes no arguments: `void (*)(GObject *self, gpointer data)`.
typealias PlainSignalHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

/// Connects a no-argument signal to `action`.
@MainActor
@discardableResult
func connectAction(_ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false, _ action: @escaping @MainActor () -> Void) -> UInt {
    let handler: PlainSignalHandler = { _, data in
        let closure = SignalClosure<@MainActor () -> Void>.from(data)
        MainActor.assumeIsolated { closure.action() }
    }
    return connect(instance, signal, unsafeBitCast(handler, to: GCallback.self), SignalClosure(action), after: after)
}

/// A GAction's `activate` handler: `void (*)(GSimpleAction *self, GVariant *parameter, gpointer data)`.
typealias ActivateSignalHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

/// Runs `action` each time the GSimpleAction `instance` is activated (its parameter unused).
@MainActor
@discardableResult
func connectActivate(_ instance: UnsafeMutableRawPointer, _ action: @escaping @MainActor () -> Void) -> UInt {
    let handler: ActivateSignalHandler = { _, _, data in
        let closure = SignalClosure<@MainActor () -> Void>.from(data)
        MainActor.assumeIsolated { closure.action() }
    }
    return connect(instance, "activate", unsafeBitCast(handler, to: GCallback.self), SignalClosure(action))
}

/// A property-notification handler: `void (*)(GObject *self, GParamSpec *pspec, gpointer data)`.
typealias NotifySignalHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

/// Runs `action` each time `property` of `instance` changes.
@MainActor
@discardableResult
func connectNotify(_ instance: UnsafeMutableRawPointer, property: String, _ action: @escaping @MainActor () -> Void) -> UInt {
    let handler: NotifySignalHandler = { _, _, data in
        let closure = SignalClosure<@MainActor () -> Void>.from(data)
        MainActor.assumeIsolated { closure.action() }
    }
    return connect(instance, "notify::" + property, unsafeBitCast(handler, to: GCallback.self), SignalClosure(action))
}

/// Connects GTK signals to Swift closures, each kept alive by GTK and released through the
/// handler's destroy notify when the handler is disconnected or the object finalised.
public enum Signal {
    /// Runs `action` each time `instance` emits `signal`, a signal whose handler takes no
    /// arguments besides the instance (e.g. GtkButton's `clicked`, GtkSearchEntry's
    /// `search-changed`). Returns the handler id.
    @MainActor
    @discardableResult
    public static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ action: @escaping @MainActor () -> Void) -> UInt {
        connectAction(instance, signal, action)
    }

    /// Runs `action` each time `property` of `instance` changes (`notify::property`).
    @MainActor
    @discardableResult
    public static func onChange(of property: String, of instance: UnsafeMutableRawPointer, _ action: @escaping @MainActor () -> Void) -> UInt {
        connectNotify(instance, property: property, action)
    }
}
