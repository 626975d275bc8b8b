/// Lets an `Any` holding an `Optional` (at any depth) be unwrapped without knowing its type.
protocol OptionalUnwrapping {
    /// The wrapped value, unwrapped recursively; nil when any level is nil.
    var unwrappedAny: Any? { get }
}

extension Optional: OptionalUnwrapping {
    var unwrappedAny: Any? {
        switch self {
        case .none: return nil
        case .some(let wrapped): return unwrap(wrapped)
        }
    }
}

/// Returns `value` with every level of `Optional` removed, or nil when it holds nil.
///
/// Storages keep models unwrapped, so `Post?` and `Post` are found by the same mapping.
func unwrap(_ value: Any) -> Any? {
    if let optional = value as? OptionalUnwrapping {
        return optional.unwrappedAny
    }
    return value
}
