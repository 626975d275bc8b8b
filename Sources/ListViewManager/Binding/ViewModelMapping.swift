import CGtk
import Foundation
import GtkKit
import ModelStorage

/// Which rows of a section a mapping provides.
public enum MappingKind: Hashable, Sendable, CustomStringConvertible {
    /// Item rows.
    case item
    /// Section header rows.
    case header
    /// Section footer rows.
    case footer

    public var description: String {
        switch self {
        case .item: return "item"
        case .header: return "header"
        case .footer: return "footer"
        }
    }
}

extension FlatRow {
    /// The kind of row this is, which picks the mappings that can show it.
    var mappingKind: MappingKind {
        switch self {
        case .header: return .header
        case .item: return .item
        case .footer: return .footer
        }
    }
}

/// When a mapping applies, beyond the model's type. The first registered mapping that
/// applies wins.
public enum MappingCondition {
    /// Always (the default).
    case none
    /// Only in this section.
    case section(Int)
    /// When the closure returns true for the row's index path (the section's first item
    /// index path for headers and footers) and its model.
    case custom(@MainActor (IndexPath, Any) -> Bool)
    /// Only for items of a `TreeStorage` this deep (0: the top items): a folder's rows and
    /// its subfolders' can be of different types though their models are of one.
    case depth(Int)
}

/// The registration of one row type for one kind of row: which models it shows, when,
/// how rows are made and updated, and the events attached to it.
@MainActor
public class ViewModelMapping {
    /// Item, header or footer rows.
    public let kind: MappingKind
    /// When the mapping applies, beyond the model type.
    public var condition: MappingCondition = .none
    /// The row type's name, for messages.
    public let rowTypeName: String
    /// The model type's name, for messages.
    public let modelTypeName: String
    let rowType: ObjectIdentifier
    let modelMatches: (Any) -> Bool
    private let rowInitializer: () -> RowWidget
    /// Where `TemplateRow`s of this mapping load their `.ui` file from.
    var templateContext: TemplateContext.Context?
    /// The name of the `.ui` file (without the extension) this mapping's `TemplateRow`s load,
    /// when it is not the row type's name: one row class can show several templates.
    public var templateName: String?
    let updateRow: (RowWidget, Any) -> Void
    var typedModelCondition: ((IndexPath, Any) -> Bool)?
    var reactions: [EventKind: [(RowWidget, Any, IndexPath) -> Void]] = [:]
    /// Builders of the entries of this mapping's rows' context menus.
    var menuBuilders: [(RowWidget, Any, IndexPath) -> [MenuEntry]] = []

    convenience init<Row: RowWidget & ModelTransfer>(kind: MappingKind, rowType: Row.Type) {
        self.init(kind: kind, rowType: rowType, modelType: Row.ModelType.self) { row, model in row.update(with: model) }
    }

    /// A mapping of `Model`s to rows of `rowType`, updated by `update` (a column's text
    /// cell showing one property of the model, say).
    init<Row: RowWidget, Model>(kind: MappingKind, rowType: Row.Type, modelType: Model.Type, update: @escaping (Row, Model) -> Void) {
        self.kind = kind
        self.rowType = ObjectIdentifier(rowType)
        rowTypeName = String(describing: rowType)
        modelTypeName = String(describing: Model.self)
        modelMatches = { $0 is Model }
        rowInitializer = { Row() }
        updateRow = { row, model in
            // The model was matched against Model when the mapping was chosen.
            update(row as! Row, model as! Model)
        }
    }

    /// A new row of the mapping's type.
    func makeRow() -> RowWidget {
        guard var context = templateContext else { return rowInitializer() }
        context.templateName = templateName
        return TemplateContext.with(context, rowInitializer)
    }

    /// Whether the mapping's choice depends on where a model is (a condition on its index
    /// path), so that a row that moves may need another row type.
    var dependsOnPlace: Bool {
        if case .none = condition { return typedModelCondition != nil }
        return true
    }

    /// Whether the mapping applies to `model` at `indexPath` (its type already matched).
    /// `depth` gives the depth of the row's item in a tree, if the rows are a tree's.
    func applies(to model: Any, at indexPath: IndexPath, depth: () -> Int? = { nil }) -> Bool {
        switch condition {
        case .none: break
        case .section(let section): guard indexPath.section == section else { return false }
        case .custom(let condition): guard condition(indexPath, model) else { return false }
        case .depth(let wanted): guard depth() == wanted else { return false }
        }
        return typedModelCondition?(indexPath, model) ?? true
    }

    /// Runs the reactions of `event` for `row` showing `model` at `indexPath`.
    func fire(_ event: EventKind, row: RowWidget, model: Any, indexPath: IndexPath) {
        for reaction in reactions[event] ?? [] {
            reaction(row, model, indexPath)
        }
    }

    func addReaction(_ event: EventKind, _ reaction: @escaping (RowWidget, Any, IndexPath) -> Void) {
        reactions[event, default: []].append(reaction)
    }
}

/// The events a row can receive.
public enum EventKind: Hashable, Sendable, CustomStringConvertible {
    /// The row's item was selected.
    case didSelect
    /// The row's item was deselected.
    case didDeselect
    /// The row was activated: a double click or Enter, or a single click with
    /// `singleClickActivation`.
    case didActivate
    /// The row was just updated with its model, on bind or in place.
    case configure
    /// The row was bound to its model and is about to be shown.
    case willDisplay
    /// The row was unbound from its model.
    case didEndDisplaying
    /// The user asked to delete the item (the Delete key, or a menu entry), and
    /// `canDelete(withItem:)` allowed it.
    case commitDelete
    /// The pointer entered the row.
    case didHighlight
    /// The pointer left the row.
    case didUnhighlight
    /// The keyboard focus moved to the row.
    case didFocus
    /// The item is just outside the view, in the direction the user scrolls: its row will
    /// probably be shown soon (a model-only event: the item has no row yet).
    case prefetch
    /// An item prefetched is no longer about to be shown (a model-only event).
    case cancelPrefetch
    /// The item (of a `TreeStorage`) was expanded: its children are shown.
    case didExpand
    /// The item (of a `TreeStorage`) was collapsed: its children are hidden.
    case didCollapse

    public var description: String {
        switch self {
        case .didSelect: return "didSelect"
        case .didDeselect: return "didDeselect"
        case .didActivate: return "didActivate"
        case .configure: return "configure"
        case .willDisplay: return "willDisplay"
        case .didEndDisplaying: return "didEndDisplaying"
        case .commitDelete: return "commitDelete"
        case .didHighlight: return "didHighlight"
        case .didUnhighlight: return "didUnhighlight"
        case .didFocus: return "didFocus"
        case .prefetch: return "prefetch"
        case .cancelPrefetch: return "cancelPrefetch"
        case .didExpand: return "didExpand"
        case .didCollapse: return "didCollapse"
        }
    }

    /// Whether the event can happen to header and footer rows (which are neither
    /// selectable nor activatable).
    var appliesToSupplementaryRows: Bool {
        switch self {
        case .configure, .willDisplay, .didEndDisplaying: return true
        case .didSelect, .didDeselect, .didActivate, .commitDelete, .didHighlight, .didUnhighlight, .didFocus, .prefetch, .cancelPrefetch,
             .didExpand, .didCollapse:
            return false
        }
    }
}
