import CGtk

/// A Swift value handed to C as a callback's `user_data` (a closure, or a weak reference to
/// the object the callback serves): retained once when handed over, released once by the
/// destroy notify C calls when the callback goes (a signal disconnected, an object or a
/// source finalised). Every closure handed to C travels this way.
package final class UserData<Value> {
    let value: Value

    private init(_ value: Value) {
        self.value = value
    }

    /// `value`, retained for C until one of the notifies below releases it.
    package static func retained(_ value: Value) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(UserData(value)).toOpaque()
    }

    /// The value behind `data`, a pointer made by `retained(_:)`, still held by C.
    package static func value(_ data: UnsafeMutableRawPointer?) -> Value {
        Unmanaged<UserData<Value>>.fromOpaque(data!).takeUnretainedValue().value
    }
}

/// Releases what `UserData.retained(_:)` (or `Unmanaged.passRetained`) handed to C: as a
/// `GDestroyNotify` (sources, sorters, item payloads) or a `GClosureNotify` (signals).
package enum ReleaseUserData {
    package static let destroyNotify: GDestroyNotify = { data in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }

    package static let closureNotify: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<AnyObject>.fromOpaque(data).release()
    }
}

/// A weak reference, for C callbacks that must reach an object without keeping it alive (a
/// C vtable reaching the Swift object behind it, a signal handler reaching the object it
/// serves).
package final class WeakReference<Object: AnyObject> {
    package weak var object: Object?

    package init(_ object: Object? = nil) {
        self.object = object
    }
}
