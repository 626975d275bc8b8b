import CGtk
import GtkKit

/// The cell a `TableColumn` made from a key path or a text closure shows: one line of
/// text, start-aligned, ellipsized at the end. CSS class `text-cell`.
@MainActor
public final class TextCell: RowWidget {
    /// The label.
    public let label = Label()

    /// An empty cell (the column sets its text).
    public required init() {
        label.addCSSClass("text-cell")
        gtk_label_set_xalign(label.opaquePointer, 0)
        label.ellipsize(.end)
    }

    /// The label's widget.
    public var rootWidget: UnsafeMutablePointer<GtkWidget> { label.gtkWidget }

    /// The text shown.
    public var text: String {
        get { label.text }
        set { label.text = newValue }
    }
}

/// The cell of a column for a row whose model is not of the column's model type: nothing.
@MainActor
final class EmptyCell: RowWidget, ModelTransfer {
    private let box = Box(orientation: .horizontal, spacing: 0)

    required init() {}

    var rootWidget: UnsafeMutablePointer<GtkWidget> { box.gtkWidget }

    func update(with model: Any) {}
}
