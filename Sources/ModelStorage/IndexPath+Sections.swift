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
}
