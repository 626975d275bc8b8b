import Foundation
import ModelStorage

func ip(_ section: Int, _ item: Int) -> IndexPath {
    IndexPath(item: item, section: section)
}

/// A 48-byte model, as an app's row model often is: larger than `Any`'s inline buffer, so
/// Swift boxes it on the heap when it is stored as an `Any`. Equal by identity, as an app's
/// model with an id is.
struct Article: Hashable, CustomStringConvertible {
    let id: Int
    var title = ""
    var author = ""
    var published = 0.0

    init(_ id: Int, title: String = "") {
        self.id = id
        self.title = title
    }

    static func == (lhs: Article, rhs: Article) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    var description: String { "article \(id)" }
}

/// `count` articles numbered from `start`.
func articles(_ start: Int, count: Int) -> [Article] {
    (start..<(start + count)).map { Article($0) }
}
