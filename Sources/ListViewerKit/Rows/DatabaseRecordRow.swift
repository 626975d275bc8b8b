import ListViewManager

/// A row of a database table: its first text column as the title, the next columns as
/// "name: value · name: value", and its rowid.
public final class DatabaseRecordRow: DetailRow, ModelTransfer {
    public func update(with model: DatabaseRecord) {
        show(icon: model.iconName, title: model.title, subtitle: model.summary(), note: "#\(model.id)")
    }
}
