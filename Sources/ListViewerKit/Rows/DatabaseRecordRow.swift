import ListViewManager
import ModelStorage
import SQLiteStorage

/// A row of a database table: its first text column as the title, the next columns as
/// "name: value · name: value", and its rowid. While its page is read, a placeholder: the
/// rowid, dimmed (CSS class `placeholder`), until the row is updated in place.
public final class DatabaseRecordRow: DetailRow, ModelTransfer {
    public func update(with model: PagedRow<DatabaseRecord>) {
        show(icon: model.iconName, title: model.detailTitle, subtitle: model.record?.summary() ?? "", note: model.id.map { "#\($0)" } ?? "")
        setCSSClass("placeholder", present: model.isPlaceholder)
        title.setCSSClass("dim-label", present: model.isPlaceholder)
    }
}
