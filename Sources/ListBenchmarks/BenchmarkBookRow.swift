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
