import CGtk
import CGtkShims
import CGtkTestShims
import Foundation
import ListViewManager
import ModelStorage

/// A `TreeStorage` in a `ListViewManager` (label rows, `BenchmarkRow`, behind the manager's
/// indent and expander arrow) in an 800 × 600 window, each scenario in a fresh process (issue 38):
///
/// - `tree_expand N`: three top items, the second with N children; `expand(at: [1])` timed
///   to the end of the first frame that shows its first child under it; `signals` counts
///   the `items-changed` emissions of the manager's list model meanwhile.
/// - `tree_expand_all N`: N top items with N leaf children each (N + N² items), collapsed
///   and shown; `expandAll()` timed to the end of the first frame after it. Memory: glibc's
///   heap in use (`mallinfo2`) and resident memory added from the empty list shown to the
///   tree built, shown and expanded (freed blocks handed back first).
/// - `tree_flat N`: the same N + N² items in a flat `MemoryStorage` (one section, no
///   headers) in the same kind of manager and window, filled and drawn; memory as above.
/// - `scroll_tree N`: N / 100 top items with 99 children each (N rows), all expanded,
///   scrolled as `scroll` scrolls (`GtkScenarios.scroll`); against the C baseline's
///   `scroll_tree`, a GtkTreeListModel of the same rows behind GtkTreeExpanders.
@MainActor
enum TreeScenarios {
    static func run(_ scenario: String, count: Int) -> Measurement? {
        guard GtkScenarios.openDisplay() else { return nil }
        let manager = ListViewManager()
        manager.register(BenchmarkRow.self)
        let window = GtkScenarios.window(showing: manager)
        defer { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
        switch scenario {
        case "tree_expand": return expand(count, manager, window)
        case "tree_expand_all", "tree_flat": return expandAllOrFlat(scenario, count, manager, window)
        case "scroll_tree": return scroll(count, manager, window)
        default:
            writeToStandardError("list-benchmarks: unknown scenario \(scenario)")
            return nil
        }
    }

    /// A post with no title (kept inside `Any`, no allocation of its own), as the other
    /// GTK scenarios' posts.
    private static func post(_ id: Int) -> BenchmarkPost { BenchmarkPost(id: id, title: "") }

    /// The text of the row shown at `row` of the list (nil when it is not bound).
    private static func text(_ manager: ListViewManager, row: Int) -> String? {
        (manager.row(at: IndexPath(item: row, section: 0)) as? BenchmarkRow)?.title.text
    }

    private static func expand(_ count: Int, _ manager: ListViewManager, _ window: UnsafeMutablePointer<GtkWidget>) -> Measurement? {
        let tree = TreeStorage(items: [
            TreeItem(post(0)),
            TreeItem(post(1), children: (0..<count).map { TreeItem(post(100 + $0)) }),
            TreeItem(post(2)),
        ])
        manager.storage = tree
        GtkScenarios.waitForFrames(window, 3)
        let signals = SignalCounter(listModel(of: manager))
        let bindsBefore = manager.rowUpdateCount
        let start = ContinuousClock.now
        let cpuStart = cpuMilliseconds()
        try! tree.expand(at: [1])
        let signalsAtOnce = signals.count
        var frames = 0
        repeat {
            GtkScenarios.waitForFrames(window, 1)
            frames += 1
        } while text(manager, row: 2) != "Post 100" && frames < 60
        let wall = milliseconds(of: ContinuousClock.now - start)
        let cpu = cpuMilliseconds() - cpuStart
        guard text(manager, row: 2) == "Post 100", tree.rowCount == count + 3 else {
            writeToStandardError("list-benchmarks: the children are not shown after \(frames) frames")
            return nil
        }
        return Measurement(scenario: "tree_expand", n: count, wallMilliseconds: wall, extra: [
            ("frames", Double(frames)), ("cpu_ms", cpu), ("signals", Double(signals.count)),
            ("signals_from_expand", Double(signalsAtOnce)), ("binds", Double(manager.rowUpdateCount - bindsBefore)),
            ("rows", Double(manager.numberOfRows)),
        ])
    }

    private static func expandAllOrFlat(_ scenario: String, _ count: Int, _ manager: ListViewManager,
                                        _ window: UnsafeMutablePointer<GtkWidget>) -> Measurement? {
        let items = count + count * count
        releaseFreedMemory()
        let heapBefore = cgtk_shims_heap_bytes_in_use(), residentBefore = residentBytes()
        var figures: [(String, Double)] = []
        var start = ContinuousClock.now
        var cpuStart = cpuMilliseconds()
        if scenario == "tree_flat" {
            // The same models in the same order as the expanded tree's rows.
            var models: [Any] = []
            models.reserveCapacity(items)
            for top in 0..<count {
                models.append(post(top * (count + 1)))
                for child in 0..<count { models.append(post(top * (count + 1) + 1 + child)) }
            }
            start = ContinuousClock.now
            cpuStart = cpuMilliseconds()
            manager.memoryStorage!.setItemsForAllSections([models])
            models = []
            GtkScenarios.waitForFrames(window, 1)
        } else {
            let built = ContinuousClock.now
            let tree = TreeStorage(items: (0..<count).map { top in
                TreeItem(post(top * (count + 1)), children: (0..<count).map { TreeItem(post(top * (count + 1) + 1 + $0)) })
            })
            figures.append(("build_ms", milliseconds(of: ContinuousClock.now - built)))
            manager.storage = tree
            GtkScenarios.waitForFrames(window, 3)
            start = ContinuousClock.now
            cpuStart = cpuMilliseconds()
            try! tree.expandAll()
            GtkScenarios.waitForFrames(window, 1)
            guard tree.rowCount == items, text(manager, row: 1) == "Post 1" else {
                writeToStandardError("list-benchmarks: the tree is not expanded")
                return nil
            }
        }
        let wall = milliseconds(of: ContinuousClock.now - start)
        let cpu = cpuMilliseconds() - cpuStart
        GtkScenarios.waitForFrames(window, 2)
        guard manager.numberOfRows == items else {
            writeToStandardError("list-benchmarks: \(manager.numberOfRows) rows, not \(items)")
            return nil
        }
        releaseFreedMemory()
        let heapAdded = Double(cgtk_shims_heap_bytes_in_use() - heapBefore)
        let residentAdded = Double(residentBytes() - residentBefore)
        return Measurement(scenario: scenario, n: count, wallMilliseconds: wall, peakResidentMegabytes: peakResidentMegabytes(), extra: [
            ("items", Double(items)), ("cpu_ms", cpu),
            ("heap_added_mb", heapAdded / 1_048_576), ("rss_added_mb", residentAdded / 1_048_576),
            ("heap_bytes_per_item", heapAdded / Double(items)), ("heap_counted", cgtk_shims_heap_is_counted() != 0 ? 1 : 0),
        ] + figures)
    }

    private static func scroll(_ count: Int, _ manager: ListViewManager, _ window: UnsafeMutablePointer<GtkWidget>) -> Measurement? {
        // Ids as the C baseline's: top item t is t × 100, its children t × 100 + 1 … + 99.
        let tree = TreeStorage(items: (0..<(count / 100)).map { top in
            TreeItem(post(top * 100), children: (1..<100).map { TreeItem(post(top * 100 + $0)) })
        })
        try! tree.expandAll()
        manager.storage = tree
        GtkScenarios.waitForFrames(window, 3)
        let signals = SignalCounter(listModel(of: manager))
        let bindsBefore = manager.rowUpdateCount, requestsBefore = manager.itemRequestCount
        let start = ContinuousClock.now
        let cpuStart = cpuMilliseconds()
        let frames = GtkScenarios.scroll(manager.view, window)
        let wall = milliseconds(of: ContinuousClock.now - start)
        let cpu = cpuMilliseconds() - cpuStart
        return Measurement(scenario: "scroll_tree", n: tree.rowCount, wallMilliseconds: wall, peakResidentMegabytes: peakResidentMegabytes(), extra: [
            ("binds", Double(manager.rowUpdateCount - bindsBefore)),
            ("get_item", Double(manager.itemRequestCount - requestsBefore)),
            ("signals", Double(signals.count)),
            ("realised_rows", Double(manager.boundRowCount)),
            ("created_rows", Double(manager.createdRowCount)),
            ("cpu_ms", cpu),
            ("cpu_ms_per_frame", frames > 0 ? cpu / Double(frames) : 0),
        ])
    }

    /// The manager's list model (under its selection model and the gate on it): the model
    /// whose `items-changed` the manager emits.
    static func listModel(of manager: ItemViewManager) -> OpaquePointer {
        let inner: OpaquePointer = cgtk_shims_gated_selection_get_inner(manager.selectionModel)
        let instance = UnsafeMutableRawPointer(inner)
        if cgtk_shims_instance_is_a(instance, gtk_single_selection_get_type()) != 0 { return gtk_single_selection_get_model(inner)! }
        if cgtk_shims_instance_is_a(instance, gtk_multi_selection_get_type()) != 0 { return gtk_multi_selection_get_model(inner)! }
        return gtk_no_selection_get_model(inner)!
    }
}
