import CGtk
import CGtkShims

/// Connects GTK signals to Swift closures. Apps connect typed signals
/// (`Signal.connect(button, .clicked) { … }`, see ``TypedSignal``); under them, one
/// `connect` per shape of handler (package API, for the toolkit and the list module) writes
/// the C trampoline once. The closure is kept alive by GTK (as `UserData`) and released
/// through the handler's destroy notify when the handler is disconnected or the object
/// finalised. Handlers run on the main thread, as GTK emits its signals there.
public enum Signal {
    /// A handler with no arguments besides the instance (GtkButton's `clicked`,
    /// GtkSearchEntry's `search-changed`, GtkWidget's `map`); after the default handlers
    /// when `after`. Returns the handler id.
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
                               _ action: @escaping @MainActor () -> Void) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            let action = UserData<@MainActor () -> Void>.value(data)
            MainActor.assumeIsolated { action() }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action), after: after)
    }

    /// A handler with one pointer argument: a GtkListItemFactory's `bind` (the list item), a
    /// GSimpleAction's `activate` (its parameter), `notify` (the GParamSpec), GtkDragSource's
    /// `drag-begin` (the GdkDrag).
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, argument, data in
            let action = UserData<@MainActor (UnsafeMutableRawPointer?) -> Void>.value(data)
            MainActor.assumeIsolated { action(argument) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler with one `guint` argument: GtkListView's and GtkGridView's `activate` (the
    /// position).
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (UInt32) -> Void) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutableRawPointer?) -> Void = { _, value, data in
            let action = UserData<@MainActor (UInt32) -> Void>.value(data)
            MainActor.assumeIsolated { action(value) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler with one `int` or enum argument: GtkSorter's `changed` (a GtkSorterChange).
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (Int32) -> Void) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, value, data in
            let action = UserData<@MainActor (Int32) -> Void>.value(data)
            MainActor.assumeIsolated { action(value) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler with two `guint` arguments: GtkSelectionModel's `selection-changed`
    /// (position, count).
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (UInt32, UInt32) -> Void) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = { _, first, second, data in
            let action = UserData<@MainActor (UInt32, UInt32) -> Void>.value(data)
            MainActor.assumeIsolated { action(first, second) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler with three `guint` arguments: GListModel's `items-changed` (position,
    /// removed, added).
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (UInt32, UInt32, UInt32) -> Void) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = { _, first, second, third, data in
            let action = UserData<@MainActor (UInt32, UInt32, UInt32) -> Void>.value(data)
            MainActor.assumeIsolated { action(first, second, third) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler with three `guint` arguments answering whether it handled the signal:
    /// GtkEventControllerKey's `key-pressed` (keyval, keycode, GdkModifierType); false lets
    /// the key go on to other handlers.
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (UInt32, UInt32, UInt32) -> Bool) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> gboolean = { _, first, second, third, data in
            let action = UserData<@MainActor (UInt32, UInt32, UInt32) -> Bool>.value(data)
            return MainActor.assumeIsolated { action(first, second, third) } ? 1 : 0
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler with a point (x, y): GtkEventControllerMotion's `enter`,
    /// GtkGestureLongPress's `pressed`.
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (Double, Double) -> Void) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, x, y, data in
            let action = UserData<@MainActor (Double, Double) -> Void>.value(data)
            MainActor.assumeIsolated { action(x, y) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler with a count and a point (n, x, y): GtkGestureClick's `pressed`.
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (Int32, Double, Double) -> Void) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, count, x, y, data in
            let action = UserData<@MainActor (Int32, Double, Double) -> Void>.value(data)
            MainActor.assumeIsolated { action(count, x, y) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler with a pointer and a `gboolean`: GtkDragSource's `drag-end` (the GdkDrag,
    /// whether to delete the data).
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (UnsafeMutableRawPointer?, Bool) -> Void) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, argument, flag, data in
            let action = UserData<@MainActor (UnsafeMutableRawPointer?, Bool) -> Void>.value(data)
            MainActor.assumeIsolated { action(argument, flag != 0) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler of a point that answers with drag actions: GtkDropTarget's `enter` and
    /// `motion`.
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (Double, Double) -> GdkDragAction) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> GdkDragAction = { _, x, y, data in
            let action = UserData<@MainActor (Double, Double) -> GdkDragAction>.value(data)
            return MainActor.assumeIsolated { action(x, y) }
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler of a point that answers with an object, given to GTK with its reference
    /// (transfer full), or nil: GtkDragSource's `prepare` (a GdkContentProvider).
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (Double, Double) -> UnsafeMutableRawPointer?) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _, x, y, data in
            let action = UserData<@MainActor (Double, Double) -> UnsafeMutableRawPointer?>.value(data)
            return UnsafeMutableRawPointer(bitPattern: MainActor.assumeIsolated { Int(bitPattern: action(x, y)) })  // see Cast
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler of a dropped value at a point that answers whether it took it:
    /// GtkDropTarget's `drop`.
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (UnsafePointer<GValue>, Double, Double) -> Bool) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<GValue>?, Double, Double, UnsafeMutableRawPointer?) -> Int32 = { _, value, x, y, data in
            guard let value else { return 0 }
            let action = UserData<@MainActor (UnsafePointer<GValue>, Double, Double) -> Bool>.value(data)
            return MainActor.assumeIsolated { action(value, x, y) } ? 1 : 0
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// A handler of a point, a flag and an object that answers whether it handled the
    /// signal: GtkWidget's `query-tooltip` (x, y, whether the keyboard asked, the
    /// GtkTooltip to fill); true shows the tooltip.
    @MainActor
    @discardableResult
    package static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                               _ action: @escaping @MainActor (Int32, Int32, Bool, OpaquePointer?) -> Bool) -> UInt {
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, gboolean, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, x, y, keyboard, object, data in
            let action = UserData<@MainActor (Int32, Int32, Bool, OpaquePointer?) -> Bool>.value(data)
            return MainActor.assumeIsolated { action(x, y, keyboard != 0, object) } ? 1 : 0
        }
        return connect(instance, signal, unsafeBitCast(trampoline, to: GCallback.self), UserData.retained(action))
    }

    /// Runs `action` each time `property` of `instance` changes (`notify::property`).
    @MainActor
    @discardableResult
    package static func onChange(of property: String, of instance: UnsafeMutableRawPointer, _ action: @escaping @MainActor () -> Void) -> UInt {
        connect(instance, "notify::" + property) { (_: UnsafeMutableRawPointer?) in action() }
    }

    /// Connects `trampoline` with `data` (made by `UserData.retained`), released through the
    /// destroy notify.
    @MainActor
    private static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ trampoline: GCallback,
                                _ data: UnsafeMutableRawPointer, after: Bool = false) -> UInt {
        let connect = after ? cgtk_shims_signal_connect_after : cgtk_shims_signal_connect
        return UInt(connect(instance, signal, trampoline, data, ReleaseUserData.closureNotify))
    }
}
