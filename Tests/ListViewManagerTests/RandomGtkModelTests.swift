import CGtk
import CGtkShims
import Foundation
@testable import ListViewManager
import TestSupport
import XCTest
import GtkTestSupport

/// Shows a `Tagged` model: items, headers and footers of the random runs.
final class TaggedRow: ListRow, ModelTransfer {
    let label = Label()
    required init() { super.init(); append(label) }
    func update(with model: Tagged) { label.text = model.description }
}

/// The seeded random storage operations of the storage tests (the same generator), run against the real GObject
/// list model with GTK's own consumers chained on top (a GtkFilterListModel and a
/// GtkMultiSelection), and shown by a GtkListView in a window (which shows section headers
/// itself for half the seeds on GTK 4.12 and later).
final class RandomGtkModelTests: XCTestCase {
    func testRandomOperationsThroughGTKConsumers() { onMain {
        let seeds: [UInt64] = ProcessInfo.processInfo.environment["STORAGE_SEED"].flatMap(UInt64.init).map { [$0] } ?? Array(0..<12)
        let harness = GtkHarness(selectionMode: .multiple) { manager in
            manager.register(TaggedRow.self)
            manager.registerHeader(TaggedRow.self)
            manager.registerFooter(TaggedRow.self)
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
            let storage = MemoryStorage()
            storage.anomalyHandler.anomalyAction = { _ in }  // the runs include bad input on purpose
            let operations = RandomStorageOperations(storage: storage, seed: seed)
            manager.configuration.displayHeaderOnEmptySection = seed % 2 == 0
            // Half the seeds use GTK's own section headers: on GTK 4.12 and later the list
            // view asks the model's GtkSectionModel while each update is emitted.
            manager.configuration.usesGTKSectionHeaders = seed % 4 >= 2
            manager.storage = storage
            // Rows by identity: content updates change a row in place and emit nothing.
            let recorder = ItemsChangedRecorder(selection) { object in
                guard let item = RowItem.of(object) else { return "<not a row item>" }
                return "\(item.kind) \((item.model as? Tagged)?.uid ?? -1)"
            }
            for step in 0..<150 {
                let randomStep = operations.next()
                _ = recorder.take()
                let expected = recorder.fetchAll()
                guard recorder.shadow == expected, expected.count == manager.numberOfRows else {
                    XCTFail("seed \(seed), step \(step) (\(randomStep.description)): the chained model replayed \(recorder.shadow.count) rows, holds \(expected.count); rerun with STORAGE_SEED=\(seed)")
                    break
                }
                if step % 25 == 0 || manager.showsNativeSectionHeaders {
                    harness.waitForFrames(1)
                    // GTK's headers sit exactly where sections start.
                    let bridge = manager.bridge
                    let problems = ShownSections(manager).misplacedHeaders { bridge.sectionRange(containing: $0).lowerBound == $0 }
                    XCTAssertEqual(problems, [], "seed \(seed), step \(step) (\(randomStep.description)); rerun with STORAGE_SEED=\(seed)")
                }
            }
            recorder.disconnect()
        }
        harness.close()
    } }
}
