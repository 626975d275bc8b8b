import CGtk
import Foundation
@testable import ListViewManager
import ModelStorage
import XCTest
import GtkTestSupport

/// Prefetching (`prefetch(model:)`, `cancelPrefetch(model:)`, `prefetchCount`): the items
/// just outside the view in the direction of the scroll, in real windows scrolled with a
/// real wheel, on every kind of view.
final class PrefetchTests: XCTestCase {
    /// The items (of one section) GTK shows at least partly in the view, in order.
    @MainActor
    private static func itemsInView(_ manager: ItemViewManager) -> [Int] {
        var items: [Int] = []
        manager.forEachItemRowInView { _, indexPath, _, _ in items.append(indexPath.item) }
        return Set(items).sorted()
    }

    func testTheItemsBeyondTheViewInTheDirectionOfTheScrollArePrefetchedAndCancelledWhenTheUserTurnsBack() { onMain {
        openTestDisplay()
        for make in everyKindOfView(column: "Title", { (post: Post) in post.title }) {
            let manager = make()
            let name = "\(type(of: manager))"
            manager.register(PostRow.self)
            manager.memoryStorage.setItems((0..<600).map { Post(id: $0, title: "post \($0)") })
            var prefetched: [Int] = [], cancelled: [Int] = []
            manager.prefetch(model: Post.self) { post, indexPath in
                XCTAssertEqual(post.id, indexPath.item)
                prefetched.append(post.id)
            }
            manager.cancelPrefetch(model: Post.self) { post, _ in cancelled.append(post.id) }
            let harness = GtkHarness(showing: { manager }, throughScrolledView: true)
            harness.waitForFrames(5)

            // Opened: the 24 items after the last one in view, nearest first.
            let opened = Self.itemsInView(manager)
            let last = opened.last!
            XCTAssertEqual(prefetched, Array(last + 1...last + 24), "\(name): the items below the first screen")
            XCTAssertEqual(manager.prefetchedIndexPaths.map(\.item), prefetched)

            // Scrolled down: the items below the new view, each prefetched once; none cancelled
            // (those that came into view were shown).
            prefetched = []
            harness.turnWheel(over: manager.view, clicks: 3, up: false)
            harness.wait(until: { Self.itemsInView(manager).last! > last + 5 }, "\(name): scrolled down")
            harness.waitForFrames(3)
            let down = Self.itemsInView(manager)
            XCTAssertEqual(manager.prefetchedIndexPaths.map(\.item), Array(down.last! + 1...down.last! + 24), "\(name): below the view scrolled down")
            XCTAssertTrue(prefetched.allSatisfy { $0 > last + 24 }, "\(name): nothing prefetched twice: \(prefetched)")
            XCTAssertEqual(Set(prefetched).count, prefetched.count, "\(name): each item once")
            XCTAssertEqual(cancelled, [], "\(name): nothing cancelled on the way down")

            // Turned back: those below are cancelled, those above prefetched.
            let below = manager.prefetchedIndexPaths.map(\.item)
            prefetched = []
            harness.turnWheel(over: manager.view, clicks: 1, up: true)
            harness.wait(until: { Self.itemsInView(manager).first! < down.first! }, "\(name): scrolled up")
            harness.waitForFrames(3)
            let up = Self.itemsInView(manager)
            XCTAssertEqual(Set(cancelled), Set(below).subtracting(up), "\(name): the items below that were not shown, cancelled")
            let above = Array((max(0, up.first! - 24)..<up.first!).reversed())
            XCTAssertEqual(manager.prefetchedIndexPaths.map(\.item), above, "\(name): the items above the view, nearest first")
            XCTAssertEqual(prefetched, above)
            harness.close()
        }
    } }

    func testAPrefetchedItemDeletedOrReloadedIsCancelledAndOneMovedIsFollowed() { onMain {
        openTestDisplay()
        let manager = ListViewManager()
        manager.register(PostRow.self)
        manager.memoryStorage.setItems((0..<300).map { Post(id: $0, title: "post \($0)") })
        var prefetched: [Int] = [], cancelled: [Int] = []
        manager.prefetch(model: Post.self) { post, _ in prefetched.append(post.id) }
        manager.cancelPrefetch(model: Post.self) { post, _ in cancelled.append(post.id) }
        let harness = GtkHarness(showing: { manager }, throughScrolledView: true)
        harness.waitForFrames(5)
        let last = Self.itemsInView(manager).last!
        XCTAssertEqual(prefetched.count, 24)

        // Deleted: cancelled at once. Moved: followed to its new place.
        let deleted = last + 3, moved = last + 10
        manager.memoryStorage.removeItems(at: [IndexPath(item: deleted, section: 0)])
        XCTAssertEqual(cancelled, [deleted])
        XCTAssertTrue(manager.prefetchedIndexPaths.contains(IndexPath(item: moved - 1, section: 0)), "the items after the one deleted moved up one")
        XCTAssertFalse(manager.prefetchedIndexPaths.contains(IndexPath(item: last + 24, section: 0)), "the last one too")

        // The storage's items replaced: every item prefetched is cancelled.
        cancelled = []
        manager.memoryStorage.setItems((1000..<1300).map { Post(id: $0, title: "new \($0)") })
        XCTAssertEqual(cancelled.count, 23, "the 23 left, cancelled")
        XCTAssertEqual(Set(cancelled), Set(prefetched).subtracting([deleted]), "with the models they were prefetched with")
        prefetched = []
        harness.waitForFrames(3)
        XCTAssertEqual(prefetched.count, 24, "the new items below the view, prefetched")
        XCTAssertTrue(prefetched.allSatisfy { $0 >= 1000 })
        harness.close()
    } }

    func testNoPrefetchWithoutAWorkingRange() { onMain {
        openTestDisplay()
        let manager = ListViewManager()
        manager.register(PostRow.self)
        manager.configuration.prefetchCount = 0
        manager.memoryStorage.setItems((0..<300).map { Post(id: $0, title: "post \($0)") })
        var prefetched: [Int] = []
        manager.prefetch(model: Post.self) { post, _ in prefetched.append(post.id) }
        let harness = GtkHarness(showing: { manager }, throughScrolledView: true)
        harness.waitForFrames(5)
        harness.turnWheel(over: manager.view, clicks: 3, up: false)
        harness.waitForFrames(5)
        XCTAssertEqual(prefetched, [])
        XCTAssertNil(manager.prefetcher)
        // A working range given later: prefetching starts.
        manager.configuration.prefetchCount = 5
        harness.turnWheel(over: manager.view, clicks: 1, up: false)
        harness.wait(until: { !prefetched.isEmpty }, "items prefetched")
        harness.waitForFrames(3)
        XCTAssertEqual(manager.prefetchedIndexPaths.count, 5, "five items beyond the view")
        harness.close()
    } }
}
