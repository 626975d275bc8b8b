// The models of the seeded random storage operations, shared by the storage and GTK tests.

/// A model of the random runs: a stable identity and a content version; equal by identity,
/// as an app's model with an id is.
public protocol TaggedModel: Equatable, CustomStringConvertible {
    var uid: Int { get }
    var version: Int { get }
    init(uid: Int, version: Int)
    /// The same model with new content.
    var bumped: Self { get }
}

/// The 16-byte model of the random runs, used for items, headers and footers alike.
public struct Tagged: TaggedModel {
    public let uid: Int
    public var version: Int

    public init(uid: Int, version: Int) {
        self.uid = uid
        self.version = version
    }

    public static func == (lhs: Tagged, rhs: Tagged) -> Bool { lhs.uid == rhs.uid }

    public var bumped: Tagged { Tagged(uid: uid, version: version + 1) }
    public var description: String { "#\(uid).v\(version)" }
}

/// A 48-byte item model, for the runs that mix model types: larger than `Any`'s inline
/// buffer, so that the storage keeps a section's models in chunks of their own type, and
/// turns a chunk into one of `Any` when a model of the other type joins it.
public struct WideTagged: TaggedModel {
    public let uid: Int
    public var version: Int
    public let title: String
    public let note: String

    public init(uid: Int, version: Int) {
        self.uid = uid
        self.version = version
        title = "wide \(uid)"
        note = ""
    }

    public static func == (lhs: WideTagged, rhs: WideTagged) -> Bool { lhs.uid == rhs.uid }

    public var bumped: WideTagged { WideTagged(uid: uid, version: version + 1) }
    public var description: String { "#\(uid).v\(version)w" }
}
