/// A weak reference to an object that lives on one thread (a storage), carried through
/// closures that run on others and are handed back to it (`schedule`).
final class WeakBox<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
    init(_ object: Object) { self.object = object }
}
