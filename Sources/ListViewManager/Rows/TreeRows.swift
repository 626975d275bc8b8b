import CGtk
import GtkKit
import ModelStorage

/// The row shown under a tree item while its children are read (`ChildrenLoading`), unless
/// the app registers another: a spinner and "Loading…". CSS class `children-loading`.
@MainActor
public final class ChildrenLoadingRow: ListRow, ModelTransfer {
    /// The label saying what is happening.
    public let label = Label()
    private let spinner = gtk_spinner_new()!

    public required init() {
        super.init()
        addCSSClass("children-loading")
        label.addCSSClass("dim-label")
        gtk_spinner_start(OpaquePointer(spinner))
        append(Widget(spinner))
        append(label)
    }

    public func update(with model: ChildrenLoading) {
        label.text = tr("Loading…")
    }
}

/// The row shown under a tree item whose children could not be read
/// (`ChildrenLoadingFailed`), unless the app registers another: the error. Collapsing the
/// item and expanding it again tries again. CSS class `children-loading-failed`.
@MainActor
public final class ChildrenLoadingFailedRow: ListRow, ModelTransfer {
    /// The label giving the error.
    public let label = Label()

    public required init() {
        super.init()
        addCSSClass("children-loading-failed")
        label.addCSSClass("error")
        label.ellipsize(.end)
        append(label)
    }

    public func update(with model: ChildrenLoadingFailed) {
        label.text = tr("Could not load: %@", "\(model.error)")
    }
}
