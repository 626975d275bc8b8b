import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// What can go wrong when using a `ListViewManager` without being worth a crash.
public enum ListViewManagerAnomaly: Anomaly {
    /// No registered row type shows this model; a `MissingMappingRow` is shown instead.
    case noItemMappingFound(modelType: String, indexPath: IndexPath)
    /// No registered header or footer row type shows this model (and it is not a String);
    /// a `MissingMappingRow` is shown instead.
    case noSupplementaryMappingFound(modelType: String, kind: SupplementaryKind, section: Int)
    /// An event was registered for a row type that has no mapping of that kind.
    case eventRegisteredForUnregisteredMapping(rowType: String, kind: MappingKind, event: String)
    /// An event was registered that header and footer rows never receive.
    case eventNotSupportedForSupplementaryRows(rowType: String, event: String)
    /// A `TemplateRow` found no `.ui` file of its name in its bundle.
    case templateNotFound(template: String, bundle: String)
    /// A `TemplateRow`'s `.ui` file holds no widget.
    case emptyTemplate(template: String)
    /// A `TemplateRow`'s `.ui` file could not be read by GtkBuilder.
    case brokenTemplate(template: String, message: String)
    /// A `TemplateRow` asked for an outlet its template lacks (or of another type).
    case missingOutlet(id: String, template: String, type: String)
    /// A `commitDelete` reaction changed the storage while `removesDeletedItems` was on:
    /// the manager did not remove the items (their index paths no longer held).
    case storageChangedDuringDeletion(indexPaths: [IndexPath])
    /// A context menu entry was chosen after its item was removed; nothing was done.
    case menuActionForRemovedItem(entry: String)
    /// A context menu entry's accelerator is not one GTK can read; the menu shows none and
    /// no key runs the entry.
    case invalidMenuAccelerator(entry: String, accelerator: String)
    /// `moveItem(at:to:)` was asked for a missing item or a place outside the storage;
    /// nothing changed.
    case invalidMove(from: IndexPath, to: IndexPath)
    /// A section has a header or footer model, but the view (a grid or column view) shows
    /// no header or footer rows; reported once per manager, the first time one is seen.
    case supplementaryRowsNotShown(view: String, kind: SupplementaryKind, modelType: String, section: Int)
    /// `ColumnViewManager.sort(by:)` was given a column it cannot sort by; nothing changed.
    case columnCannotSort(title: String, reason: String)
    /// An event was registered that rows of this type never receive in this manager: a header
    /// or footer row type's event in a view that shows no such rows, a selection event where
    /// nothing can be selected.
    case unusedEventDetected(rowType: String, event: String, reason: String)
    /// A model-only method (`didSelect(model:)`, `canSelect(withItem:)`, …) was given a row
    /// type: it is called with models, never with rows, so it would never run.
    case modelEventCalledWithCellClass(modelType: String, method: String)

    /// The anomaly's case, without its values.
    public enum Kind: Hashable, Sendable {
        /// ``ListViewManagerAnomaly/noItemMappingFound(modelType:indexPath:)``.
        case noItemMappingFound
        /// ``ListViewManagerAnomaly/noSupplementaryMappingFound(modelType:kind:section:)``.
        case noSupplementaryMappingFound
        /// ``ListViewManagerAnomaly/eventRegisteredForUnregisteredMapping(rowType:kind:event:)``.
        case eventRegisteredForUnregisteredMapping
        /// ``ListViewManagerAnomaly/eventNotSupportedForSupplementaryRows(rowType:event:)``.
        case eventNotSupportedForSupplementaryRows
        /// ``ListViewManagerAnomaly/templateNotFound(template:bundle:)``.
        case templateNotFound
        /// ``ListViewManagerAnomaly/emptyTemplate(template:)``.
        case emptyTemplate
        /// ``ListViewManagerAnomaly/brokenTemplate(template:message:)``.
        case brokenTemplate
        /// ``ListViewManagerAnomaly/missingOutlet(id:template:type:)``.
        case missingOutlet
        /// ``ListViewManagerAnomaly/storageChangedDuringDeletion(indexPaths:)``.
        case storageChangedDuringDeletion
        /// ``ListViewManagerAnomaly/menuActionForRemovedItem(entry:)``.
        case menuActionForRemovedItem
        /// ``ListViewManagerAnomaly/invalidMenuAccelerator(entry:accelerator:)``.
        case invalidMenuAccelerator
        /// ``ListViewManagerAnomaly/invalidMove(from:to:)``.
        case invalidMove
        /// ``ListViewManagerAnomaly/supplementaryRowsNotShown(view:kind:modelType:section:)``.
        case supplementaryRowsNotShown
        /// ``ListViewManagerAnomaly/columnCannotSort(title:reason:)``.
        case columnCannotSort
        /// ``ListViewManagerAnomaly/unusedEventDetected(rowType:event:reason:)``.
        case unusedEventDetected
        /// ``ListViewManagerAnomaly/modelEventCalledWithCellClass(modelType:method:)``.
        case modelEventCalledWithCellClass
    }

    public var kind: Kind {
        switch self {
        case .noItemMappingFound: return .noItemMappingFound
        case .noSupplementaryMappingFound: return .noSupplementaryMappingFound
        case .eventRegisteredForUnregisteredMapping: return .eventRegisteredForUnregisteredMapping
        case .eventNotSupportedForSupplementaryRows: return .eventNotSupportedForSupplementaryRows
        case .templateNotFound: return .templateNotFound
        case .emptyTemplate: return .emptyTemplate
        case .brokenTemplate: return .brokenTemplate
        case .missingOutlet: return .missingOutlet
        case .storageChangedDuringDeletion: return .storageChangedDuringDeletion
        case .menuActionForRemovedItem: return .menuActionForRemovedItem
        case .invalidMenuAccelerator: return .invalidMenuAccelerator
        case .invalidMove: return .invalidMove
        case .supplementaryRowsNotShown: return .supplementaryRowsNotShown
        case .columnCannotSort: return .columnCannotSort
        case .unusedEventDetected: return .unusedEventDetected
        case .modelEventCalledWithCellClass: return .modelEventCalledWithCellClass
        }
    }

    private static let defaultActionHolder = DefaultAnomalyAction<ListViewManagerAnomaly> { anomaly in
        logWarning(anomaly.debugDescription)
    }

    /// What every manager does with an anomaly unless its handler has its own action:
    /// a GLib warning in the `ListViewManager` log domain (so `G_DEBUG=fatal-warnings`
    /// turns it into a failure).
    public static var defaultAction: @Sendable (ListViewManagerAnomaly) -> Void {
        get { defaultActionHolder.current }
        set { defaultActionHolder.current = newValue }
    }

    /// A full sentence, prefixed with "⚠️ [ListViewManager]".
    public var debugDescription: String {
        let message: String
        switch self {
        case let .noItemMappingFound(modelType, indexPath):
            message = "No row type is registered for \(modelType) (item at \(indexPath.shortDescription)); showing a placeholder. Register one with register(_:)"
        case let .noSupplementaryMappingFound(modelType, kind, section):
            message = "No \(kind) row type is registered for \(modelType) (section \(section)); showing a placeholder. Register one with register\(kind == .header ? "Header" : "Footer")(_:)"
        case let .eventRegisteredForUnregisteredMapping(rowType, kind, event):
            message = "\(event) was registered for \(rowType), which is not registered as an \(kind) row type: the event will never fire. Register the row type first"
        case let .eventNotSupportedForSupplementaryRows(rowType, event):
            message = "\(event) was registered for the header or footer row type \(rowType): header and footer rows are neither selectable nor activatable"
        case let .templateNotFound(template, bundle):
            message = "Row template \(template) was not found in the bundle at \(bundle); add it to the target's resources and register the row with that bundle"
        case let .emptyTemplate(template):
            message = "Row template \(template) holds no widget"
        case let .brokenTemplate(template, message: reason):
            message = "Row template \(template) could not be loaded: \(reason)"
        case let .missingOutlet(id, template, type):
            message = "Row template \(template) has no \(type) with id \"\(id)\"; a stand-in widget is used"
        case let .storageChangedDuringDeletion(indexPaths):
            message = "A commitDelete reaction changed the storage while removesDeletedItems is on; the items at \(indexPaths.map(\.shortDescription).joined(separator: ", ")) were not removed. Either remove them in the reaction or let the manager do it"
        case let .menuActionForRemovedItem(entry):
            message = "The context menu entry \"\(entry)\" was chosen after its item was removed from the storage; nothing was done"
        case let .invalidMenuAccelerator(entry, accelerator):
            message = "The context menu entry \"\(entry)\" has the accelerator \"\(accelerator)\", which GTK cannot read; it is not shown and no key runs the entry. Write it as gtk_accelerator_parse reads it, e.g. \"<Control>o\""
        case let .invalidMove(from, to):
            message = "Cannot move the item at \(from.shortDescription) to \(to.shortDescription): there is no such item or place; nothing was moved"
        case let .columnCannotSort(title, reason):
            message = "Cannot sort by the column \"\(title)\": \(reason); the sorting did not change"
        case let .unusedEventDetected(rowType, event, reason):
            message = "\(event) was registered for \(rowType), but it will never fire: \(reason)"
        case let .modelEventCalledWithCellClass(modelType, method):
            message = "\(method) was given \(modelType), a row type: it is called with models, so it will never run. Pass the model type the row shows"
        case let .supplementaryRowsNotShown(view, kind, modelType, section):
            message = "Section \(section) has a \(kind) model (\(modelType)), but a \(view) shows no header or footer rows in GTK 4.8: the sections' items are shown one after another without them. Reported once; show section titles in a list view, or in the items themselves"
        }
        return "⚠️ [ListViewManager] " + message
    }

    /// A short form, e.g. "ListViewManagerAnomaly.noItemMappingFound(Post)".
    public var description: String {
        switch self {
        case let .noItemMappingFound(modelType, _): return "ListViewManagerAnomaly.noItemMappingFound(\(modelType))"
        case let .noSupplementaryMappingFound(modelType, kind, _): return "ListViewManagerAnomaly.noSupplementaryMappingFound(\(modelType), \(kind))"
        case let .eventRegisteredForUnregisteredMapping(rowType, _, event): return "ListViewManagerAnomaly.eventRegisteredForUnregisteredMapping(\(rowType), \(event))"
        case let .eventNotSupportedForSupplementaryRows(rowType, event): return "ListViewManagerAnomaly.eventNotSupportedForSupplementaryRows(\(rowType), \(event))"
        case let .templateNotFound(template, _): return "ListViewManagerAnomaly.templateNotFound(\(template))"
        case let .emptyTemplate(template): return "ListViewManagerAnomaly.emptyTemplate(\(template))"
        case let .brokenTemplate(template, _): return "ListViewManagerAnomaly.brokenTemplate(\(template))"
        case let .missingOutlet(id, template, _): return "ListViewManagerAnomaly.missingOutlet(\(id), \(template))"
        case let .storageChangedDuringDeletion(indexPaths): return "ListViewManagerAnomaly.storageChangedDuringDeletion(\(indexPaths.count) items)"
        case let .menuActionForRemovedItem(entry): return "ListViewManagerAnomaly.menuActionForRemovedItem(\(entry))"
        case let .invalidMenuAccelerator(entry, accelerator): return "ListViewManagerAnomaly.invalidMenuAccelerator(\(entry), \(accelerator))"
        case let .invalidMove(from, to): return "ListViewManagerAnomaly.invalidMove(\(from.shortDescription) to \(to.shortDescription))"
        case let .columnCannotSort(title, _): return "ListViewManagerAnomaly.columnCannotSort(\(title))"
        case let .unusedEventDetected(rowType, event, _): return "ListViewManagerAnomaly.unusedEventDetected(\(rowType), \(event))"
        case let .modelEventCalledWithCellClass(modelType, method): return "ListViewManagerAnomaly.modelEventCalledWithCellClass(\(modelType), \(method))"
        case let .supplementaryRowsNotShown(view, kind, _, section): return "ListViewManagerAnomaly.supplementaryRowsNotShown(\(view), \(kind), section \(section))"
        }
    }
}

/// The handler type of `ListViewManager.anomalyHandler`.
public typealias ListViewManagerAnomalyHandler = AnomalyHandler<ListViewManagerAnomaly>

/// Logs `message` as a GLib warning in the `ListViewManager` domain.
func logWarning(_ message: String) {
    cgtk_shims_log_warning("ListViewManager", message)
}
