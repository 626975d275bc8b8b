/// Models on their way into a section, unwrapped from their optionals.
///
/// When `T` cannot hold an optional, the caller's array is kept as it is, so that
/// `ItemChunks` can fill chunks of `T` from it without first boxing every model into an
/// `Any` (a heap allocation each for a model larger than `Any`'s inline buffer).
enum StoredModels<T> {
    /// The caller's models, none of them optional.
    case values([T])
    /// The models unwrapped from their optionals, or given as `Any` in the first place.
    case unwrapped([Any])

    /// The number of models.
    var count: Int {
        switch self {
        case .values(let values): values.count
        case .unwrapped(let models): models.count
        }
    }

    /// Whether there are no models.
    var isEmpty: Bool { count == 0 }
}

/// `values` as stored models, each unwrapped from any level of `Optional`; nil when any
/// of them is nil. Keeps `values` as they are when `T` cannot hold an optional.
func storedModels<T>(_ values: [T]) -> StoredModels<T>? {
    guard T.self is OptionalUnwrapping.Type || T.self == Any.self else {
        return .values(values)
    }
    if T.self == Any.self {
        // The same type: no copy is made.
        let models = unsafeBitCast(values, to: [Any].self)
        if !containsOptionals(models) { return .unwrapped(models) }
    }
    var models: [Any] = []
    models.reserveCapacity(values.count)
    for value in values {
        guard let model = unwrap(value) else { return nil }
        models.append(model)
    }
    return .unwrapped(models)
}

/// Whether any of `values` holds an `Optional`. Asks once per run of
/// models of one dynamic type, not once per model: a conformance check costs thousands of
/// instructions, and a million models of one type are common.
private func containsOptionals(_ values: [Any]) -> Bool {
    var checkedType: ObjectIdentifier?
    for value in values {
        let dynamicType = type(of: value)
        let identifier = ObjectIdentifier(dynamicType)
        guard identifier != checkedType else { continue }
        if dynamicType is OptionalUnwrapping.Type { return true }
        checkedType = identifier
    }
    return false
}
