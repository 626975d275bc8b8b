import CGtk
import Foundation
@testable import ListViewManager
import ModelStorage
import TestSupport
import XCTest
import GtkTestSupport

/// The view stays on the same items through changes of the storage
/// (`Configuration.keepsPlace`): the item row at the top keeps its offset through inserts,
/// removes, moves, re-sorts and a storage replaced, in real windows.
final class KeepingPlaceTests: XCTestCase {
    private struct Song: Identifiable, Equatable {
        let id: Int
        var title: String { "song \(id)" }
    }

    private final class SongRow: ListRow, ModelTransfer {
        let title = Label()
        required init() { super.init(); append(title) }
        func update(with model: Song) { title.text = model.title }
    }

    /// A manager keeping its place, showing songs 0..<count in one section, in a real window.
    @MainActor
    private static func show(_ manager: ItemViewManager, count: Int) -> GtkHarness {
        manager.configuration.keepsPlace = true
        manager.register(SongRow.self)
        manager.memoryStorage.addItems((0..<count).map(Song.init))
        let harness = GtkHarness(showing: { manager })
        harness.waitForFrames()
        return harness
    }

    /// The song at the top of the view and its row's offset.
    @MainActor
    private static func top(of manager: ItemViewManager) -> (song: Int, offset: Double)? {
        guard let row = manager.topItemRow(), let song = manager.storage.item(at: row.indexPath) as? Song else { return nil }
        return (song.id, row.offset)
    }

    /// The offset of the row of `song`, if it is laid out.
    @MainActor
    private static func offset(of song: Int, in manager: ItemViewManager) -> Double? {
        let storage = manager.memoryStorage!
        let index = (0..<storage.numberOfItems(inSection: 0)).first { (storage.item(at: IndexPath(item: $0, section: 0)) as? Song)?.id == song }
        return index.flatMap { manager.shownSpan(of: IndexPath(item: $0, section: 0))?.top }
    }

    /// Whether the view rests against one of its ends, where a row cannot keep every offset.
    @MainActor
    private static func isAtAnEnd(_ manager: ItemViewManager) -> Bool {
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.kind.listBase(manager.view)))!
        let value = gtk_adjustment_get_value(adjustment)
        return value < 1 || value > gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment) - 1
    }

    func testTheTopRowKeepsItsPlaceThroughInsertsMovesResortsRemovesAndANewStorage() throws { try onMain {
        openTestDisplay()
        let manager = ListViewManager()
        let harness = Self.show(manager, count: 3000)
        let storage = manager.memoryStorage!
        XCTAssertTrue(manager.scrollTo(IndexPath(item: 1500, section: 0), at: .center))
        harness.waitForFrames(5)
        let before = try XCTUnwrap(Self.top(of: manager))

        @MainActor func check(_ what: String, song: Int? = nil, file: StaticString = #filePath, line: UInt = #line) {
            harness.waitForFrames(5)  // a row moved far: GTK brings it in, then the view moves it
            XCTAssertEqual(Self.offset(of: song ?? before.song, in: manager) ?? .nan, before.offset, accuracy: 1, what, file: file, line: line)
        }
        try storage.insertItems((10_000..<10_040).map(Song.init), at: IndexPath(item: 0, section: 0))
        check("forty songs inserted at the top")
        let index = try XCTUnwrap((0..<storage.numberOfItems(inSection: 0)).first {
            (storage.item(at: IndexPath(item: $0, section: 0)) as? Song)?.id == before.song })
        storage.moveItem(at: IndexPath(item: index, section: 0), to: IndexPath(item: 200, section: 0))
        check("the top song moved far up")
        storage.reorderItems { _, items in Array(items.indices.reversed()) }
        check("every song resorted, last to first")
        let fresh = MemoryStorage()
        fresh.addItems((0..<3000).map(Song.init))
        manager.storage = fresh
        check("a new storage of the same songs")

        // The song at the top removed: the one after it takes its place.
        let top = try XCTUnwrap(Self.top(of: manager))
        let topIndex = try XCTUnwrap(manager.topItemRow()?.indexPath)
        let next = try XCTUnwrap(fresh.item(at: IndexPath(item: topIndex.item + 1, section: 0)) as? Song)
        fresh.removeItems(at: [topIndex])
        harness.waitForFrames(3)
        XCTAssertEqual(Self.offset(of: next.id, in: manager) ?? .nan, top.offset, accuracy: 1, "the next song where the removed one was")
        harness.close()
    } }

    func testWithoutKeepingPlaceAResortShowsWhateverIsAtThePosition() throws { try onMain {
        openTestDisplay()
        let manager = ListViewManager()
        let harness = Self.show(manager, count: 3000)
        manager.configuration.keepsPlace = false
        XCTAssertTrue(manager.scrollTo(IndexPath(item: 1500, section: 0), at: .top))
        harness.waitForFrames(5)
        let before = try XCTUnwrap(Self.top(of: manager))
        manager.memoryStorage.reorderItems { _, items in Array(items.indices.reversed()) }
        harness.waitForFrames(3)
        XCTAssertNotEqual(Self.top(of: manager)?.song, before.song, "GTK keeps the position, not the item")
        harness.close()
    } }

    func testRandomChangesKeepTheTopRowInPlaceOnEveryKindOfView() { onMain {
        openTestDisplay()
        let makers = everyKindOfView(column: "Song") { (song: Song) in song.title }
        // A hundred seeds in all, shared among the kinds of view: seed n on kind n % 4.
        let seeds = ProcessInfo.processInfo.environment["KEEPING_PLACE_SEEDS"].flatMap(Int.init) ?? 100
        for (kind, make) in makers.enumerated() {
            let manager = make()
            let harness = Self.show(manager, count: 2000)
            var nextID = 100_000
            for seed in stride(from: kind, to: seeds, by: makers.count) {
                var random = SeededGenerator(seed: UInt64(seed))
                let count = manager.memoryStorage.numberOfItems(inSection: 0)
                manager.scrollTo(IndexPath(item: count / 4 + Int.random(in: 0..<count / 2, using: &random), section: 0), at: .center)
                harness.waitForFrames(5)
                for step in 0..<4 {
                    guard let before = Self.top(of: manager) else { XCTFail("no row at the top"); break }
                    let storage = manager.memoryStorage!
                    let count = storage.numberOfItems(inSection: 0)
                    let operation = Int.random(in: 0..<5, using: &random)
                    switch operation {
                    case 0:
                        let songs = (0..<Int.random(in: 1...20, using: &random)).map { Song(id: nextID + $0) }
                        nextID += songs.count
                        try? storage.insertItems(songs, at: IndexPath(item: Int.random(in: 0...count, using: &random), section: 0))
                    case 1:
                        let start = Int.random(in: 0..<count - 20, using: &random)
                        storage.removeItems(at: (start..<start + Int.random(in: 1...10, using: &random)).map { IndexPath(item: $0, section: 0) })
                    case 2:
                        storage.moveItem(at: IndexPath(item: Int.random(in: 0..<count, using: &random), section: 0),
                                         to: IndexPath(item: Int.random(in: 0..<count, using: &random), section: 0))
                    case 3:
                        var order = Array(0..<count)
                        order.shuffle(using: &random)
                        storage.reorderItems { _, _ in order }
                    default:
                        let fresh = MemoryStorage()
                        fresh.addItems((0..<count).compactMap { storage.item(at: IndexPath(item: $0, section: 0)) as? Song })
                        manager.storage = fresh
                    }
                    harness.waitForFrames(3)
                    let name = "\(type(of: manager)), seed \(seed), step \(step), operation \(operation)"
                    guard let after = Self.offset(of: before.song, in: manager) else {
                        // Removed: the row at the top now is one that was near it.
                        XCTAssertNotNil(Self.top(of: manager), name)
                        continue
                    }
                    if !Self.isAtAnEnd(manager) {
                        XCTAssertEqual(after, before.offset, accuracy: 1, name)
                    }
                }
            }
            harness.close()
        }
    } }
    func testAScrollJustBeforeAChangeIsKept() throws { try onMain {
        // The user scrolls, and a change comes before GTK lays the rows out again (a live
        // list): the view stays where the user took it.
        openTestDisplay()
        let manager = ListViewManager()
        let harness = Self.show(manager, count: 3000)
        XCTAssertTrue(manager.scrollTo(IndexPath(item: 1000, section: 0), at: .top))
        harness.waitForFrames(5)
        try manager.memoryStorage.insertItems([Song(id: 50_000)], at: IndexPath(item: 0, section: 0))
        harness.waitForFrames(3)
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(manager.view))!
        gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + 320)
        try manager.memoryStorage.insertItems([Song(id: 50_001)], at: IndexPath(item: 0, section: 0))
        harness.waitForFrames(3)
        let top = try XCTUnwrap(Self.top(of: manager))
        XCTAssertEqual(top.song, 1010, "ten rows of 32 pixels further down")
        harness.close()
    } }
}
