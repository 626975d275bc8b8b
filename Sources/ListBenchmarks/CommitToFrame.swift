import CGtk
import Foundation
import ListViewManager
import ModelStorage

/// A book with a title, as the latency scenarios' rows show it.
protocol TitledBook: Sendable {
    var title: String { get }
}

extension ServerBook: TitledBook {}
extension BenchmarkBook: TitledBook {}

/// A book's row in the latency scenarios (`postgres_latency`, `sqlite_latency`): its title,
/// or a dash while its page is read. Every title shown is listed (`ShownTitles`), so that a
/// frame can tell whether it shows one.
final class LatencyBookRow<Book: TitledBook>: ListRow, ModelTransfer {
    let title = Label()
    required init() {
        super.init()
        append(title)
        ShownTitles.track(title, in: self)
    }

    func update(with model: PagedRow<Book>) { title.text = model.record?.title ?? "–" }
}

/// The title labels of every latency row made (a generic class has no static storage).
@MainActor
enum ShownTitles {
    private final class Weak {
        weak var row: ListRow?
        weak var label: Label?
        init(_ label: Label, _ row: ListRow) { (self.label, self.row) = (label, row) }
    }
    private static var made: [Weak] = []

    static func track(_ label: Label, in row: ListRow) { made.append(Weak(label, row)) }

    /// Whether a row on screen (mapped) shows `text`.
    static func isShown(_ text: String) -> Bool {
        made.contains { weak in
            guard let row = weak.row, let label = weak.label else { return false }
            return label.text == text && gtk_widget_get_mapped(row.rootWidget) != 0
        }
    }
}

/// The latency scenarios' measure: 1,000 commits, one after another, each timed from just
/// before its statements are sent to the end of the first frame `window` paints with a
/// mapped row showing its title, "Title 0, commit N" (it sorts right after "Title 0", the
/// first book). Odd commits insert a book with that title (deleting the one the commit
/// before inserted); even ones give that book the new title.
@MainActor
enum CommitToFrame {
    static let commits = 1_000

    /// Runs the commits through `commit` (given the commit's number and title; it returns a
    /// failure's message, or nil once the statements are sent or done), waits for each to be
    /// painted and, where `writer` says the statements run elsewhere, for them to end.
    static func measure(_ scenario: String, count: Int, window: UnsafeMutablePointer<GtkWidget>, keyReads: () -> Int,
                        commit: (_ number: Int, _ title: String) -> String?,
                        writer: () -> (busy: Bool, failure: String?) = { (false, nil) }) -> Measurement? {
        let probe = Probe()
        let clock = gtk_widget_get_frame_clock(window)!
        let afterPaint = SignalConnection(Signal.connect(UnsafeMutableRawPointer(clock), "after-paint") {
            if probe.painted == nil, ShownTitles.isShown(probe.expected) { probe.painted = .now }
        }, on: UnsafeMutableRawPointer(clock))
        defer {
            afterPaint.disconnect()
            gtk_window_destroy(gtkCast(window, to: GtkWindow.self))
        }
        var latencies: [Double] = []
        let readsBefore = keyReads()
        for number in 1...commits {
            let expected = "Title 0, commit \(number)"
            probe.expected = expected
            probe.painted = nil
            let sent = ContinuousClock.now
            if let failure = commit(number, expected) {
                writeToStandardError("list-benchmarks: a commit failed: \(failure)")
                return nil
            }
            let deadline = ContinuousClock.now + .seconds(10)
            // Without blocking: a writer's end is no GLib source.
            MainLoop.poll { (probe.painted != nil || writer().failure != nil || ContinuousClock.now >= deadline) && !writer().busy }
            if let failure = writer().failure ?? (probe.painted == nil ? "commit \(number) not shown in 10 s" : nil) {
                writeToStandardError("list-benchmarks: a commit failed: \(failure)")
                return nil
            }
            latencies.append(milliseconds(of: probe.painted! - sent))
        }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
        return Measurement(scenario: scenario, n: count, wallMilliseconds: percentile(0.5), extra: [
            ("commits", Double(commits)),
            ("median_ms", percentile(0.5)),
            ("p99_ms", percentile(0.99)),
            ("max_ms", sorted.last ?? 0),
            ("min_ms", sorted.first ?? 0),
            ("key_reads", Double(keyReads() - readsBefore)),
        ])
    }

    /// The title a frame should show, and when the first frame that shows it was painted.
    @MainActor
    private final class Probe {
        var expected = ""
        var painted: ContinuousClock.Instant?
    }
}
