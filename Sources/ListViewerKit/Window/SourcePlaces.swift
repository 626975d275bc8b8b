import ListViewManager

/// Each folder's and table's place (`ItemViewManager.place`) when the user left it, shown
/// again when it is opened again, for as long as the window is open.
struct SourcePlaces {
    private var places: [String: ListPlace] = [:]
    /// The source shown now, by a key naming it (nil: none, or one not kept).
    private(set) var current: String?

    /// The user leaves the source shown, at `place` (nil: at none).
    mutating func leave(at place: ListPlace?) {
        if let current, let place { places[current] = place }
        current = nil
    }

    /// The source named `key` is shown now.
    mutating func enter(_ key: String) {
        current = key
    }

    /// Where the user was when they last left the source shown now, if they did.
    var placeToRestore: ListPlace? {
        current.flatMap { places[$0] }
    }
}
