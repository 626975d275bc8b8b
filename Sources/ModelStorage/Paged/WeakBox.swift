/// A weak reference to an object that lives on one thread (a storage), carried through
/// closures that run on others and are handed back to it (`schedule`).
package final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    package weak var object: Object?
    package init(_ object: Object) { self.object = object }
}

/// A value that belongs to one thread (a storage's caller's block), carried through
/// closures that run on others and used only once handed back to it (`schedule`).
package final class HandedBack<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
