import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

struct Post: Equatable {
    let id: Int
    var title: String
    static func == (lhs: Post, rhs: Post) -> Bool { lhs.id == rhs.id }
}

final class PostRow: ListRow, ModelTransfer {
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: Post) { title.text = model.title }
}

final class SmokeTests: XCTestCase {
    func testRowsAreBoundInARealWindow() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.memoryStorage.setSectionHeaderModels(["Today"])
            manager.memoryStorage.addItems((0..<5).map { Post(id: $0, title: "Post \($0)") })
        }
        harness.waitForFrames()
        XCTAssertEqual(harness.manager.numberOfRows, 6)
        XCTAssertEqual((harness.manager.row(at: IndexPath(item: 2, section: 0)) as? PostRow)?.title.text, "Post 2")
        harness.close()
    } }
}
