import CGtk
import CGtkShims
import Foundation
import ListViewManager

/// A label row, what the C baseline's rows are.
final class BenchmarkRow: ListRow, ModelTransfer {
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: BenchmarkPost) { title.text = "Post \(model.id)" }
}

/// A second kind of model and row for the scrolling scenario: an icon and a label.
struct BenchmarkPhoto {
    let id: Int
}

final class BenchmarkPhotoRow: ListRow, ModelTransfer {
    let icon = Image(iconName: "image-x-generic-symbolic")
    let caption = Label()
    required init() { super.init(); append(icon); append(caption) }
    func update(with model: BenchmarkPhoto) { caption.text = "Photo \(model.id)" }
}

/// The grid scenario's cell: a 48-pixel icon over a caption.
final class BenchmarkTile: RowWidget, ModelTransfer {
    let box = Box(orientation: .vertical, spacing: 4)
    let icon = Image(iconName: "image-x-generic-symbolic")
    let caption = Label()
    var rootWidget: UnsafeMutablePointer<GtkWidget> { box.gtkWidget }
    required init() {
        icon.pixelSize = 48
        box.setMargins(vertical: 6, horizontal: 6)
        box.append(icon)
        box.append(caption)
    }
    func update(with model: BenchmarkPhoto) { caption.text = "Photo \(model.id)" }
}

/// A third kind: a title over a subtitle.
struct BenchmarkNote {
    let id: Int
}

final class BenchmarkNoteRow: ListRow, ModelTransfer {
    let title = Label()
    let subtitle = Label()
    required init() {
        super.init()
        let texts = Box(orientation: .vertical, spacing: 2)
        texts.append(title)
        texts.append(subtitle)
        append(texts)
    }
    func update(with model: BenchmarkNote) {
        title.text = "Note \(model.id)"
        subtitle.text = "written on day \(model.id % 365)"
    }
}

extension BenchmarkPost: Equatable {
    static func == (lhs: BenchmarkPost, rhs: BenchmarkPost) -> Bool { lhs.id == rhs.id }
}

/// The GTK scenarios, each run in a fresh process on the project and on the C baseline
/// (`list-baseline-c`, built beside this executable), in an 800×600 window under Xvfb.
enum GtkScenarios {
    /// Whether the project's list shows GTK 4.12's own section headers (`usesGTKSectionHeaders`).
    nonisolated(unsafe) static var gtkSectionHeaders = false
    /// Whether the project's list goes without its pinned section header (`pinsSectionHeaders` off).
    nonisolated(unsafe) static var noPinnedHeader = false

    static let names = ["bulk_load", "batch", "separate", "content_update", "full_reload", "random", "scroll", "scroll_labels", "scroll_grid",
                        "scroll_grid_sections", "scroll_tree"]
    /// The scenarios the PyGObject baseline does not have (`scroll_tree`: C's GtkTreeListModel only).
    static let withoutPython: Set<String> = ["scroll_tree"]

    /// The baselines' scenario for the project's `scenario`: a sectioned grid against C's and
    /// Python's GtkGridView of the same tiles without sections (no GTK view has sections).
    static func baselineScenario(_ scenario: String) -> String {
        scenario == "scroll_grid_sections" ? "scroll_grid" : scenario
    }

    /// Runs every scenario on both implementations and prints their lines and ratios.
    static func compare(count: Int) {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("baseline.py")
        for scenario in names {
            // Scrolling runs over a tenth of the items (100,000 of 1,000,000).
            let size = scenario.hasPrefix("scroll") ? count / 10 : count
            let swift = runProcess(directory.appendingPathComponent("list-benchmarks"),
                                   ["--gtk-one", scenario, "\(size)"] + (gtkSectionHeaders ? ["--gtk-section-headers"] : []) + (noPinnedHeader ? ["--no-pinned-header"] : []))
            let c = runProcess(directory.appendingPathComponent("list-baseline-c"), [baselineScenario(scenario), "\(size)"])
            let py = withoutPython.contains(scenario) ? nil
                : runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [python.path, baselineScenario(scenario), "\(size)"])
            for line in withoutPython.contains(scenario) ? [swift, c] : [swift, c, py] {
                print(line ?? "{\"scenario\":\"\(scenario)\", \"error\":\"no result\"}")
            }
            if let swift, let c { print(ratios(scenario, swift, c, "c")) }
            if let swift, let py { print(ratios(scenario, swift, py, "python")) }
            if scenario == "scroll" {
                // The same rows written in C: how much of the scroll is GTK's own work.
                let rich = runProcess(directory.appendingPathComponent("list-baseline-c"), ["scroll_rich", "\(size)"])
                print(rich ?? "{\"scenario\":\"scroll_rich\", \"error\":\"no result\"}")
                if let swift, let rich { print(ratios(scenario, swift, rich, "c_rich")) }
            }
        }
    }

    /// The ratio line of `scenario`: swift / the baseline for time and memory added.
    static func ratios(_ scenario: String, _ swift: String, _ c: String, _ baseline: String) -> String {
        func value(_ line: String, _ key: String) -> Double? {
            guard let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return (object[key] as? NSNumber)?.doubleValue
        }
        var fields = ["\"scenario\":\"\(scenario)\"", "\"ratio\":\"swift/\(baseline)\""]
        for key in ["wall_ms", "rss_added_mb", "cpu_ms_per_frame"] {
            if let s = value(swift, key), let c = value(c, key), c > 0.05 {
                fields.append("\"\(key)\":\(String(format: "%.3f", s / c))")
            }
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func runProcess(_ executable: URL, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init)
    }

    /// Opens the display for a GTK scenario and lets GLib's loop run the main queue; says
    /// why when there is no display.
    @MainActor
    static func openDisplay() -> Bool {
        guard gtk_init_check() != 0 else {
            writeToStandardError("list-benchmarks: no display for the GTK scenarios (run under xvfb-run)")
            return false
        }
        MainQueue.attachToGLib()
        return true
    }

    /// A window of 800 × 600 showing `manager`'s list, shown, once it has drawn 5 frames.
    @MainActor
    static func window(showing manager: ListViewManager) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new()!
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), 800, 600)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), manager.gtkWidget)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
        waitForFrames(window, 5)
        return window
    }

    /// Runs `scenario` on the project in this process and returns its line.
    @MainActor
    static func runOne(_ scenario: String, count: Int) -> Measurement? {
        guard openDisplay() else { return nil }
        let window = gtk_window_new()!
        let gtkWindow = gtkCast(window, to: GtkWindow.self)
        gtk_window_set_default_size(gtkWindow, 800, 600)
        // `reflow_grid`: the sectioned grid made narrower and wider, 20 times (the project only).
        let sectioned = scenario == "scroll_grid_sections" || scenario == "reflow_grid"
        let grid = scenario == "scroll_grid" || sectioned
        // `scroll_grid`: a grid of icon tiles; `scroll_grid_sections`: the same tiles in 100
        // sections under their headers; the other scenarios: a list.
        let manager: ItemViewManager = sectioned ? SectionedGridViewManager(maxColumns: 7) : grid ? GridViewManager() : ListViewManager()
        manager.configuration.usesGTKSectionHeaders = gtkSectionHeaders
        // `LIST_BENCHMARKS_KEEPS_PLACE=0`: the view not kept on the same items (the default
        // keeps it: issue 37's cost is the difference).
        manager.configuration.keepsPlace = ProcessInfo.processInfo.environment["LIST_BENCHMARKS_KEEPS_PLACE"] != "0"
        // `reflow_grid`: tiles of one size, so that a width decides the columns whatever the
        // tiles bound show (GtkGridView's rule, the widest tile, would depend on their texts).
        if scenario == "reflow_grid" { (manager as? SectionedGridViewManager)?.itemSize = (width: 140, height: 60) }
        if grid {
            // Tiles of one size in every program (`list-baseline-c`'s TILE_CSS).
            let css = ObjectReference(adopting: gtk_css_provider_new()!)
            cgtk_shims_css_provider_load(css.pointer, "gridview > child box { margin: 0; border-spacing: 0; }")
            gtk_style_context_add_provider_for_display(gdk_display_get_default(), OpaquePointer(css.pointer), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
            manager.register(BenchmarkTile.self)
        } else {
            manager.register(BenchmarkRow.self)
            manager.register(BenchmarkPhotoRow.self)
            manager.register(BenchmarkNoteRow.self)
        }
        // A list as apps show it, with its section's header pinned over the top (unless
        // `--no-pinned-header`); a grid in a scrolled window.
        manager.configuration.pinsSectionHeaders = !noPinnedHeader
        if let list = manager as? ListViewManager {
            gtk_window_set_child(gtkWindow, list.gtkWidget)
        } else if let sectionedGrid = manager as? SectionedGridViewManager {
            gtk_window_set_child(gtkWindow, sectionedGrid.gtkWidget)
        } else {
            let scrolled = gtk_scrolled_window_new()
            gtk_scrolled_window_set_child(OpaquePointer(scrolled), manager.view)
            gtk_window_set_child(gtkWindow, scrolled)
        }
        gtk_window_present(gtkWindow)
        waitForFrames(window, 3)
        let storage = manager.memoryStorage!
        let signals = SignalCounter(manager.selectionModel)

        let sections = sectioned ? 100 : 10
        func load(firstID: Int) {
            storage.setItemsForAllSections((0..<sections).map { section in
                (0..<(count / sections)).map { index -> Any in
                    let id = firstID + section * count / sections + index
                    if grid { return BenchmarkPhoto(id: id) }
                    guard scenario == "scroll" else { return BenchmarkPost(id: id, title: "") }
                    // `scroll_labels` (label rows only) is handled by the guard above.
                    switch id % 3 {
                    case 0: return BenchmarkPost(id: id, title: "")
                    case 1: return BenchmarkPhoto(id: id)
                    default: return BenchmarkNote(id: id)
                    }
                }
            })
            if scenario != "scroll_labels" && (!grid || sectioned) { storage.setSectionHeaderModels((0..<sections).map { "Section \($0)" }) }
        }

        var rssBefore = residentBytes()
        var updatesBefore = 0, requestsBefore = 0
        var start = ContinuousClock.now
        var cpuStart = cpuMilliseconds()
        var frames = 0
        var figures: [(String, Double)] = []
        if scenario == "bulk_load" {
            storage.performUpdates { load(firstID: 0) }
            waitForFrames(window, 1)
        } else {
            storage.performUpdates { load(firstID: 0) }
            waitForFrames(window, 3)
            rssBefore = residentBytes()
            signals.count = 0
            updatesBefore = manager.rowUpdateCount
            requestsBefore = manager.itemRequestCount
            start = ContinuousClock.now
            cpuStart = cpuMilliseconds()
            switch scenario {
            case "scroll", "scroll_labels", "scroll_grid", "scroll_grid_sections":
                frames = scroll(manager.view, window)
            case "batch":
                storage.performUpdates {
                    for offset in 0..<1000 {
                        try? storage.insertItem(BenchmarkPost(id: -1 - offset, title: ""), to: IndexPath(item: 5 + offset, section: 0))
                    }
                }
            case "separate":
                for offset in 0..<1000 {
                    try? storage.insertItem(BenchmarkPost(id: -1 - offset, title: ""), to: IndexPath(item: 5 + offset, section: 0))
                }
            case "type_ahead", "type_ahead_again", "type_ahead_read_ahead":
                // Type-ahead find's worst case: the only match is the last item, so the search
                // goes through every row; then its row is focused, scrolled to and drawn.
                // `type_ahead`: the first key, which reads every item's text; `type_ahead_again`:
                // a key after that (measured from there), which compares the texts read;
                // `type_ahead_read_ahead`: the first key once the list has had the focus long
                // enough for its texts to be read ahead (measured from there; the read ahead's
                // time and the longest time between two frames meanwhile are figures too).
                manager.typeAheadText(model: BenchmarkPost.self) { post, _ in "Post \(post.id)" }
                let last = count / sections * sections - 1
                if scenario == "type_ahead_again" {
                    _ = manager.typeAheadMatch(of: "post 0", from: 0, forward: true)
                    start = ContinuousClock.now
                    cpuStart = cpuMilliseconds()
                }
                if scenario == "type_ahead_read_ahead" {
                    let focused = ContinuousClock.now
                    manager.grabFocus()
                    _ = manager.focus(IndexPath(item: 0, section: 0))
                    let clock = gtk_widget_get_frame_clock(window)!
                    var lastFrame = ContinuousClock.now, longestGap = Duration.zero
                    let painted = Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
                        longestGap = max(longestGap, ContinuousClock.now - lastFrame)
                        lastFrame = ContinuousClock.now
                    }
                    MainLoop.run {
                        gtk_widget_queue_draw(window)  // frames go on, as while the user looks
                        return manager.typeAheadTextsAreRead
                    }
                    g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), painted)
                    figures = [("read_ahead_ms", milliseconds(of: ContinuousClock.now - focused)),
                               ("longest_frame_gap_ms", milliseconds(of: longestGap))]
                    start = ContinuousClock.now
                    cpuStart = cpuMilliseconds()
                }
                guard let found = manager.typeAheadMatch(of: "post \(last)", from: 0, forward: true) else {
                    writeToStandardError("list-benchmarks: type-ahead found nothing")
                    return nil
                }
                manager.focusAndSelect(position: found)
                waitForFrames(window, 1)
                frames += 1
            case "content_update":
                storage.reloadItem(BenchmarkPost(id: 3, title: "Edited"))
            case "full_reload":
                storage.performUpdates { load(firstID: count) }
            case "reflow_grid":
                // Each resize: GTK allocates the new width, the grid lays its strips out again
                // (an idle after the allocation) and GTK binds the strips it shows; measured
                // until the second frame after it. The page alternates 800 and 500 pixels wide.
                let grid = manager as! SectionedGridViewManager
                let page = gtk_widget_get_parent(grid.view)!
                gtk_widget_set_halign(page, GTK_ALIGN_START)
                var columns: Set<Int> = []
                for step in 0..<20 {
                    gtk_widget_set_size_request(page, step % 2 == 0 ? 500 : 800, -1)
                    waitForFrames(window, 2)
                    columns.insert(grid.columns)
                    frames += 2
                }
                if columns.count < 2 { writeToStandardError("list-benchmarks: the grid did not re-flow") }
            case "random":
                var random = SeededRandom(seed: 11)
                for step in 0..<10_000 {
                    let section = Int.random(in: 0..<10, using: &random)
                    let items = storage.numberOfItems(inSection: section)
                    let index = Int.random(in: 0..<max(items, 1), using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: try? storage.insertItem(BenchmarkPost(id: -step, title: ""), to: IndexPath(item: index, section: section))
                    case 1: storage.removeItems(at: [IndexPath(item: index, section: section)])
                    default:
                        let target = Int.random(in: 0..<10, using: &random)
                        let targetCount = storage.numberOfItems(inSection: target) - (target == section ? 1 : 0)
                        storage.moveItem(at: IndexPath(item: index, section: section),
                                         to: IndexPath(item: Int.random(in: 0...max(targetCount, 0), using: &random), section: target))
                    }
                }
            default:
                writeToStandardError("list-benchmarks: unknown scenario \(scenario)")
                return nil
            }
            if frames == 0 { waitForFrames(window, 2) }
        }
        let wall = milliseconds(of: ContinuousClock.now - start)
        let cpu = cpuMilliseconds() - cpuStart
        // Memory still in use: blocks freed meanwhile go back to the system first, in every
        // implementation, so that what is counted is what the list holds.
        releaseFreedMemory()
        let added = Double(residentBytes() - rssBefore) / 1_048_576
        return Measurement(scenario: scenario, n: count, wallMilliseconds: wall, peakResidentMegabytes: peakResidentMegabytes(), extra: [
            ("rss_added_mb", added),
            ("binds", Double(manager.rowUpdateCount - updatesBefore)),
            ("get_item", Double(manager.itemRequestCount - requestsBefore)),
            ("signals", Double(signals.count)),
            ("realised_rows", Double(manager.boundRowCount)),
            ("created_rows", Double(manager.createdRowCount)),
            ("cpu_ms", cpu),
            ("cpu_ms_per_frame", frames > 0 ? cpu / Double(frames) : 0),
        ] + figures)
    }

    /// Scrolls `view` (a GtkScrollable) 200 smooth steps of 40 pixels, then 100 random jumps,
    /// one frame each; returns the frames drawn (300).
    @MainActor
    static func scroll(_ view: UnsafeMutablePointer<GtkWidget>, _ window: UnsafeMutablePointer<GtkWidget>) -> Int {
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(view))!
        var random = SeededRandom(seed: 7)
        // `LIST_BENCHMARKS_SCROLL_STEPS=0` runs everything but the scrolling: callgrind's
        // count of a run without it, taken from one with it, is the scrolling's.
        let steps = ProcessInfo.processInfo.environment["LIST_BENCHMARKS_SCROLL_STEPS"].flatMap { Int($0) } ?? 300
        var frames = 0
        for step in 0..<steps {
            let limit = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
            let value = step < 200 ? gtk_adjustment_get_value(adjustment) + 40 : limit * random.nextUnit()
            gtk_adjustment_set_value(adjustment, value)
            waitForFrames(window, 1)
            frames += 1
        }
        return frames
    }

    /// Runs the main loop until `frames` more frames were drawn.
    @MainActor
    static func waitForFrames(_ window: UnsafeMutablePointer<GtkWidget>, _ frames: Int) {
        MainLoop.run { gtk_widget_get_frame_clock(window) != nil }
        let clock = gtk_widget_get_frame_clock(window)
        let target = gdk_frame_clock_get_frame_counter(clock) + frames
        MainLoop.run {
            guard gdk_frame_clock_get_frame_counter(clock) < target else { return true }
            gtk_widget_queue_draw(window)  // a frame happens only when something asks for one
            return false
        }
    }
}

/// Counts `items-changed` emissions of a GListModel.
@MainActor
final class SignalCounter {
    var count = 0

    /// Kept alive by the handler, as long as `model` lives.
    init(_ model: OpaquePointer) {
        Signal.connect(UnsafeMutableRawPointer(model), "items-changed") { [self] (_: UInt32, _: UInt32, _: UInt32) in
            count += 1
        }
    }
}

/// CPU time (user and system) the process has used, in milliseconds.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
}

/// A small seeded generator (the same jumps in every run).
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }
    mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
