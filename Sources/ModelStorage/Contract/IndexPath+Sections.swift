import Foundation

extension IndexPath {
    /// Creates an index path for `item` in `section`, as UIKit does on Apple platforms.
    /// - Parameters:
    ///   - item: the item's index inside its section.
    ///   - section: the section's index.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section index (the first index of the path).
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The item index inside the section (the second index of the path).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// Whether the path is a section and an item, the one shape a storage's index paths
    /// have: `section` and `item` trap on a path of fewer indexes, and a longer one is no
    /// storage's. Storages and managers refuse other paths as they refuse paths out of range.
    public var isSectionAndItem: Bool { count == 2 }

    /// "[section, item]", for messages; a path of another shape lists its indexes ("[]" for
    /// none), so that describing a wrong path never traps.
    public var shortDescription: String {
        "[" + map(String.init).joined(separator: ", ") + "]"
    }
}
