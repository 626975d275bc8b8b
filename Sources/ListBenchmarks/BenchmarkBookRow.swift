import CGtk
import ListViewManager
import ModelStorage
import SQLiteStorage

/// A book's row in `scroll_paged`: its title, or a dash while its page is read. (In a file of
/// its own: where GRDB is imported, its `Row` hides the library's.)
final class BenchmarkBookRow: ListRow, ModelTransfer {
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: PagedRow<BenchmarkBook>) { title.text = model.record?.title ?? "–" }
}

/// A book's row in `sqlite_latency`: its title. Every row made is listed, so that a frame can
/// tell whether it shows a title.
final class LatencyBookRow: ListRow, ModelTransfer {
    private final class Weak { weak var row: LatencyBookRow?; init(_ row: LatencyBookRow) { self.row = row } }
    nonisolated(unsafe) private static var made: [Weak] = []

    let title = Label()
    required init() {
        super.init()
        append(title)
        Self.made.append(Weak(self))
    }

    func update(with model: PagedRow<BenchmarkBook>) { title.text = model.record?.title ?? "–" }

    /// Whether a row on screen (mapped) shows `text`.
    static func isShown(_ text: String) -> Bool {
        made.contains { $0.row.map { $0.title.text == text && gtk_widget_get_mapped($0.rootWidget) != 0 } ?? false }
    }
}
