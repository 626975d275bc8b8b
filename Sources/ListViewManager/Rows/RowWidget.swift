import CGtk
import Foundation
import GtkKit

/// Anything that can be a row of a managed list: a Swift object exposing its root
/// `GtkWidget`, made with `init()`.
///
/// Adopt it on any type, including widgets from other Swift GTK bindings, by returning
/// their widget pointer; or subclass `ListRow`. Register row types together with
/// `ModelTransfer`, which says which model type they show, or with a handler that fills
/// them (`register(_:for:bundle:mapping:handler:)`): a `Label` is a row of its own.
@MainActor
public protocol RowWidget: AnyObject {
    /// Creates a row; the manager calls it when no reusable row of this type is free.
    init()

    /// The widget put into the list. The row must keep it alive as long as it lives.
    var rootWidget: UnsafeMutablePointer<GtkWidget> { get }
}

/// A row widget: a horizontal box to `append` widgets to.
///
/// ```swift
/// final class PostRow: ListRow, ModelTransfer {
///     let title = Label()
///     required init() { super.init(); append(title) }
///     func update(with model: Post) { title.text = model.title }
/// }
/// ```
///
/// Named for the list rather than plain `Row`, so that a file importing GRDB too (whose
/// `Row` is a database row) can name both without qualifying either.
@MainActor
open class ListRow: Box, RowWidget {
    /// Creates an empty row.
    public required init() {
        super.init(orientation: .horizontal, spacing: 12)
        addCSSClass("managed-row")
        setMargins(vertical: 6, horizontal: 12)
    }

    public var rootWidget: UnsafeMutablePointer<GtkWidget> { gtkWidget }
}

/// The row base class's former name: it made `Row` ambiguous in a file importing GRDB, whose
/// `Row` is a database row. Unavailable rather than deprecated, so that it never collides.
@available(*, unavailable, renamed: "ListRow")
public typealias Row = ListRow

/// A label is a row of its own, filled by a registration's handler:
/// `register(Label.self, for: String.self) { label, text, _ in label.text = text }`.
extension Label: RowWidget {
    /// An empty label, as a list makes its rows.
    public convenience init() {
        self.init("")
    }

    /// The label's own widget, put into the list.
    public var rootWidget: UnsafeMutablePointer<GtkWidget> { gtkWidget }
}

/// The row shown for a `String` header or footer model when no header or footer row type
/// is registered for it: the text, styled by the CSS classes `section-header` or
/// `section-footer` (plus GTK's `heading` or `dim-label`).
@MainActor
public final class TitleRow: ListRow, ModelTransfer {
    /// The title's label.
    public let label = Label()

    public required init() {
        super.init()
        // A long title is cut to the list's width, never widening the list.
        label.ellipsize(.end)
        append(label)
    }

    public func update(with model: String) {
        label.text = model
    }
}

/// The row shown for a model no registered row type can show, so that the gap is visible:
/// "No row registered for Post". Reported as an anomaly too. CSS class `missing-mapping`.
@MainActor
public final class MissingMappingRow: ListRow, ModelTransfer {
    /// The label naming the model type.
    public let label = Label()

    public required init() {
        super.init()
        addCSSClass("missing-mapping")
        label.ellipsize(.end)
        append(label)
    }

    public func update(with model: Any) {
        label.text = tr("No row registered for %@", "\(type(of: model))")
    }
}
