import CGtk
import Foundation
import ListViewManager

/// A label row, what the C baseline's rows are.
final class BenchmarkRow: Row, ModelTransfer {
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: BenchmarkPost) { title.text = "Post \(model.id)" }
}

extension BenchmarkPost: Equatable {
    static func == (lhs: BenchmarkPost, rhs: BenchmarkPost) -> Bool { lhs.id == rhs.id }
}

/// The GTK scenarios, each run in a fresh process on the project and on the C baseline
/// (`list-baseline-c`, built beside this executable), in an 800×600 window under Xvfb.
enum GtkScenarios {
    static let names = ["bulk_load", "batch", "separate", "content_update", "full_reload", "random"]

    /// Runs every scenario on both implementations and prints their lines and ratios.
    static func compare(count: Int) {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("baseline.py")
        for scenario in names {
            let swift = runProcess(directory.appendingPathComponent("list-benchmarks"), ["--gtk-one", scenario, "\(count)"])
            let c = runProcess(directory.appendingPathComponent("list-baseline-c"), [scenario, "\(count)"])
            let py = runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [python.path, scenario, "\(count)"])
            for line in [swift, c, py] { print(line ?? "{\"scenario\":\"\(scenario)\", \"error\":\"no result\"}") }
            if let swift, let c { print(ratios(scenario, swift, c, "c")) }
            if let swift, let py { print(ratios(scenario, swift, py, "python")) }
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
        for key in ["wall_ms", "rss_added_mb"] {
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

    /// Runs `scenario` on the project in this process and returns its line.
    @MainActor
    static func runOne(_ scenario: String, count: Int) -> Measurement? {
        guard gtk_init_check() != 0 else {
            writeToStandardError("list-benchmarks: no display for the GTK scenarios (run under xvfb-run)")
            return nil
        }
        MainQueue.attachToGLib()
        let window = gtk_window_new()!
        let gtkWindow = UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWindow.self)
        gtk_window_set_default_size(gtkWindow, 800, 600)
        let manager = ListViewManager()
        manager.register(BenchmarkRow.self)
        let scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), manager.listView)
        gtk_window_set_child(gtkWindow, scrolled)
        gtk_window_present(gtkWindow)
        waitForFrames(window, 3)
        let storage = manager.memoryStorage!
        let signals = SignalCounter(manager.selectionModel)

        func load(firstID: Int) {
            storage.setItemsForAllSections((0..<10).map { section in
                (0..<(count / 10)).map { BenchmarkPost(id: firstID + section * count / 10 + $0, title: "") }
            })
            storage.setSectionHeaderModels((0..<10).map { "Section \($0)" })
        }

        var rssBefore = residentBytes()
        var updatesBefore = 0, requestsBefore = 0
        var start = ContinuousClock.now
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
            switch scenario {
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
            case "content_update":
                storage.reloadItem(BenchmarkPost(id: 3, title: "Edited"))
            case "full_reload":
                storage.performUpdates { load(firstID: count) }
            case "random":
                var random = SystemRandomNumberGenerator()
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
            waitForFrames(window, 2)
        }
        let wall = milliseconds(of: ContinuousClock.now - start)
        let added = Double(residentBytes() - rssBefore) / 1_048_576
        return Measurement(scenario: scenario, n: count, wallMilliseconds: wall, peakResidentMegabytes: peakResidentMegabytes(), extra: [
            ("rss_added_mb", added),
            ("binds", Double(manager.rowUpdateCount - updatesBefore)),
            ("get_item", Double(manager.itemRequestCount - requestsBefore)),
            ("signals", Double(signals.count)),
            ("realised_rows", Double(manager.boundRowCount)),
        ])
    }

    /// Runs the main loop until `frames` more frames were drawn.
    @MainActor
    static func waitForFrames(_ window: UnsafeMutablePointer<GtkWidget>, _ frames: Int) {
        while gtk_widget_get_frame_clock(window) == nil { g_main_context_iteration(nil, 1) }
        let clock = gtk_widget_get_frame_clock(window)
        let target = gdk_frame_clock_get_frame_counter(clock) + frames
        let tick = g_timeout_add(5, { _ in 1 }, nil)
        while gdk_frame_clock_get_frame_counter(clock) < target {
            gtk_widget_queue_draw(window)  // a frame happens only when something asks for one
            g_main_context_iteration(nil, 1)
        }
        g_source_remove(tick)
    }
}

/// Counts `items-changed` emissions of a GListModel.
@MainActor
final class SignalCounter {
    var count = 0

    init(_ model: OpaquePointer) {
        typealias Handler = @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void
        let handler: Handler = { _, _, _, _, data in
            MainActor.assumeIsolated { Unmanaged<SignalCounter>.fromOpaque(data!).takeUnretainedValue().count += 1 }
        }
        g_signal_connect_data(UnsafeMutableRawPointer(model), "items-changed", unsafeBitCast(handler, to: GCallback.self),
                              Unmanaged.passRetained(self).toOpaque(), { data, _ in Unmanaged<SignalCounter>.fromOpaque(data!).release() },
                              GConnectFlags(rawValue: 0))
    }
}
