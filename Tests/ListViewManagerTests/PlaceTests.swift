import CGtk
import Foundation
@testable import ListViewManager
import ModelStorage
import XCTest
import GtkTestSupport

/// `manager.place` and `restore(_:)`: the user's place kept by item identity, through JSON,
/// a re-sort, a new storage of the same items, and a window not shown yet.
final class PlaceTests: XCTestCase {
    private struct Song: Identifiable, Equatable {
        let id: String
        var title: String
    }

    private final class SongRow: ListRow, ModelTransfer {
        let title = Label()
        required init() { super.init(); append(title) }
        func update(with model: Song) { title.text = model.title }
    }

    private static func songs(_ ids: some Sequence<Int>) -> [Song] {
        ids.map { Song(id: "song-\($0)", title: "song \($0)") }
    }

    func testAPlaceKeptAsJSONComesBackAfterAResortAndANewStorage() throws { try onMain {
        openTestDisplay()
        let manager = ListViewManager()
        manager.register(SongRow.self)
        manager.memoryStorage.addItems(Self.songs(0..<2000))
        let harness = GtkHarness(showing: { manager })
        harness.waitForFrames()
        XCTAssertTrue(manager.scrollTo(IndexPath(item: 700, section: 0), at: .center))
        harness.waitForFrames(5)
        let place = try XCTUnwrap(manager.place)
        let json = try JSONEncoder().encode(place)
        XCTAssertEqual(try JSONDecoder().decode(ListPlace.self, from: json), place)
        let identity = try XCTUnwrap(place.itemIdentity)
        XCTAssertTrue(identity.hasPrefix("song-"), identity)
        XCTAssertGreaterThan(place.offset, 0, "the row at the top of a centred one is below the top")

        // Resorted, last to first: the same song is now near the other end.
        manager.memoryStorage.reorderItems { _, items in Array(items.indices.reversed()) }
        harness.waitForFrames()
        XCTAssertTrue(manager.restore(try JSONDecoder().decode(ListPlace.self, from: json)))
        harness.waitForFrames(5)
        let moved = try XCTUnwrap(manager.place)
        XCTAssertEqual(moved.itemIdentity, identity)
        XCTAssertNotEqual(moved.indexPath, place.indexPath)
        XCTAssertEqual(moved.offset, place.offset, accuracy: 1)

        // A new storage holding the same songs, in the first order.
        let fresh = MemoryStorage()
        fresh.addItems(Self.songs(0..<2000))
        manager.storage = fresh
        harness.waitForFrames()
        XCTAssertTrue(manager.restore(place))
        harness.waitForFrames(5)
        XCTAssertEqual(manager.place?.itemIdentity, identity)
        XCTAssertEqual(manager.place?.indexPath, place.indexPath)
        XCTAssertEqual(manager.place?.offset ?? .nan, place.offset, accuracy: 1)
        harness.close()
    } }

    func testAPlaceRestoredBeforeTheWindowIsShownIsShownOnceItIs() { onMain {
        openTestDisplay()
        let place = ListPlace(itemIdentity: "song-1234", indexPath: IndexPath(item: 0, section: 0), offset: 37)
        let manager = GridViewManager(maxColumns: 4)
        manager.register(SongRow.self)
        manager.memoryStorage.addItems(Self.songs(0..<3000))
        XCTAssertTrue(manager.restore(place), "found though not where the place says it was")
        let harness = GtkHarness(showing: { manager })
        harness.waitForFrames(6)
        XCTAssertEqual(manager.shownSpan(of: IndexPath(item: 1234, section: 0))?.top ?? .nan, 37, accuracy: 1)
        harness.close()
    } }

    func testAModelWithNoIdentityIsKeptByItsIndexPathAndAMissingItemChangesNothing() throws { try onMain {
        openTestDisplay()
        let manager = ListViewManager()
        manager.register(PostRow.self)
        manager.memoryStorage.addItems((0..<1000).map { Post(id: $0, title: "post \($0)") })
        let harness = GtkHarness(showing: { manager })
        harness.waitForFrames()
        XCTAssertTrue(manager.scrollTo(IndexPath(item: 400, section: 0), at: .top))
        harness.waitForFrames(5)
        let place = try XCTUnwrap(manager.place)
        XCTAssertNil(place.itemIdentity, "a Post is not Identifiable")
        XCTAssertEqual(place.indexPath, IndexPath(item: 400, section: 0))
        XCTAssertEqual(place.offset, 0, accuracy: 1)

        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view))!
        let value = gtk_adjustment_get_value(adjustment)
        XCTAssertFalse(manager.restore(ListPlace(itemIdentity: "post-5000", indexPath: IndexPath(item: 5, section: 0), offset: 0)),
                       "no item of that identity")
        XCTAssertFalse(manager.restore(ListPlace(itemIdentity: nil, indexPath: IndexPath(item: 5000, section: 0), offset: 0)))
        harness.waitForFrames()
        XCTAssertEqual(gtk_adjustment_get_value(adjustment), value, "nothing moved")

        gtk_adjustment_set_value(adjustment, 0)
        harness.waitForFrames()
        XCTAssertTrue(manager.restore(place))
        harness.waitForFrames(5)
        XCTAssertEqual(manager.place, place)
        harness.close()
    } }
}
