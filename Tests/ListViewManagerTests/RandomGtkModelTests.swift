import CGtk
import Foundation
@testable import ListViewManager
import XCTest

/// The seeded random storage operations of the storage tests, run against the real GObject
/// list model with GTK's own consumers chained on top (a GtkFilterListModel and a
/// GtkMultiSelection, shown by a GtkListView in a window).
final class RandomGtkModelTests: XCTestCase {
    func testRandomOperationsThroughGTKConsumers() { onMain {
        let seeds: [UInt64] = ProcessInfo.processInfo.environment["STORAGE_SEED"].flatMap(UInt64.init).map { [$0] } ?? Array(0..<12)
        let harness = GtkHarness(selectionMode: .multiple) { manager in
            manager.register(PostRow.self)
            manager.anomalyHandler.silence(.noItemMappingFound)
        }
        let manager = harness.manager!
        // GTK's own consumers: everything passes the filter; a selection model over it.
        let filter = gtk_custom_filter_new({ _, _ in 1 }, nil, nil)
        g_object_ref(UnsafeMutableRawPointer(manager.bridge.listModel))
        let filtered = gtk_filter_list_model_new(manager.bridge.listModel, UnsafeMutableRawPointer(filter!).assumingMemoryBound(to: GtkFilter.self))!
        let selection = gtk_multi_selection_new(OpaquePointer(g_object_ref(UnsafeMutableRawPointer(filtered))))!
        defer {
            g_object_unref(UnsafeMutableRawPointer(selection))
            g_object_unref(UnsafeMutableRawPointer(filtered))
        }
        for seed in seeds {
            var random = SeededGenerator(seed: seed)
            let storage = MemoryStorage()
            storage.anomalyHandler.anomalyAction = { _ in }
            manager.storage = storage
            // Rows by identity: content updates change a row in place and emit nothing.
            let recorder = ItemsChangedRecorder(selection) { object in
                guard let item = RowItem.of(object) else { return "<not a row item>" }
                return "\(item.kind) \((item.model as? Post)?.id ?? -1)"
            }
            for step in 0..<150 {
                RandomOperations.perform(on: storage, using: &random)
                _ = recorder.take()
                let expected = recorder.fetchAll()
                guard recorder.shadow == expected, expected.count == manager.numberOfRows else {
                    XCTFail("seed \(seed), step \(step): the chained model replayed \(recorder.shadow.count) rows, holds \(expected.count); rerun with STORAGE_SEED=\(seed)")
                    break
                }
                if step % 25 == 0 { harness.waitForFrames(1) }
            }
            recorder.disconnect()
        }
        harness.close()
    } }
}

/// A compact set of random storage operations over posts (single and batched; items and
/// sections; moves across sections; headers on empty sections).
enum RandomOperations {
    static func perform(on storage: MemoryStorage, using random: inout SeededGenerator) {
        if Int.random(in: 0..<4, using: &random) == 0 {
            storage.performUpdates {
                for _ in 0..<Int.random(in: 1...5, using: &random) { single(storage, &random) }
            }
        } else {
            single(storage, &random)
        }
    }

    private static func single(_ storage: MemoryStorage, _ random: inout SeededGenerator) {
        let sections = storage.numberOfSections()
        func int(_ bound: Int) -> Int { bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &random) }
        func post() -> Post { let id = int(1_000_000); return Post(id: id, title: "Post \(id)") }
        switch int(12) {
        case 0, 1: storage.addItems((0..<int(4)).map { _ in post() }, toSection: int(sections + 1))
        case 2: try? storage.insertItem(post(), to: IndexPath(item: 0, section: int(sections + 1)))
        case 3:
            let section = int(sections)
            storage.removeItems(at: (0..<storage.numberOfItems(inSection: section)).filter { _ in int(3) == 0 }.map { IndexPath(item: $0, section: section) })
        case 4:
            let from = int(sections), to = int(sections)
            guard storage.numberOfItems(inSection: from) > 0 else { return }
            let toCount = storage.numberOfItems(inSection: to) - (from == to ? 1 : 0)
            storage.moveItem(at: IndexPath(item: int(storage.numberOfItems(inSection: from)), section: from), to: IndexPath(item: int(toCount + 1), section: to))
        case 5: storage.setSectionHeaderModel(int(2) == 0 ? nil : "Header \(int(100))", forSection: int(sections + 1))
        case 6: storage.setSectionFooterModel(int(2) == 0 ? nil : "Footer", forSection: int(sections))
        case 7: if sections > 0 { storage.moveSection(int(sections), toSection: int(sections)) }
        case 8: if sections > 3 { storage.deleteSections(IndexSet(integer: int(sections))) }
        case 9: storage.setItems((0..<int(5)).map { _ in post() }, forSection: int(sections + 1))
        case 10:
            let section = int(sections)
            if let item = storage.items(inSection: section)?.first as? Post { storage.reloadItem(Post(id: item.id, title: "Edited")) }
        default: storage.insertSection(SectionModel(items: (0..<int(3)).map { _ in post() }, headerModel: "Inserted"), atIndex: int(sections + 1))
        }
    }
}

/// SplitMix64, as in the storage tests.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
