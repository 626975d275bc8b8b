import Foundation
import CGtk
import CGtkShims
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

    /// The anomaly's case, without its values.
    public enum Kind: Hashable, Sendable {
        case noItemMappingFound, noSupplementaryMappingFound, eventRegisteredForUnregisteredMapping,
             eventNotSupportedForSupplementaryRows
    }

    public var kind: Kind {
        switch self {
        case .noItemMappingFound: return .noItemMappingFound
        case .noSupplementaryMappingFound: return .noSupplementaryMappingFound
        case .eventRegisteredForUnregisteredMapping: return .eventRegisteredForUnregisteredMapping
        case .eventNotSupportedForSupplementaryRows: return .eventNotSupportedForSupplementaryRows
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

    /// A full sentence, prefixed with "⚠️[ListViewManager]".
    public var debugDescription: String {
        let message: String
        switch self {
        case let .noItemMappingFound(modelType, indexPath):
            message = "No row type is registered for \(modelType) (item at [\(indexPath.section), \(indexPath.item)]); showing a placeholder. Register one with register(_:)"
        case let .noSupplementaryMappingFound(modelType, kind, section):
            message = "No \(kind) row type is registered for \(modelType) (section \(section)); showing a placeholder. Register one with register\(kind == .header ? "Header" : "Footer")(_:)"
        case let .eventRegisteredForUnregisteredMapping(rowType, kind, event):
            message = "\(event) was registered for \(rowType), which is not registered as an \(kind) row type: the event will never fire. Register the row type first"
        case let .eventNotSupportedForSupplementaryRows(rowType, event):
            message = "\(event) was registered for the header or footer row type \(rowType): header and footer rows are neither selectable nor activatable"
        }
        return "⚠️[ListViewManager] " + message
    }

    /// A short form, e.g. "ListViewManagerAnomaly.noItemMappingFound(Post)".
    public var description: String {
        switch self {
        case let .noItemMappingFound(modelType, _): return "ListViewManagerAnomaly.noItemMappingFound(\(modelType))"
        case let .noSupplementaryMappingFound(modelType, kind, _): return "ListViewManagerAnomaly.noSupplementaryMappingFound(\(modelType), \(kind))"
        case let .eventRegisteredForUnregisteredMapping(rowType, _, event): return "ListViewManagerAnomaly.eventRegisteredForUnregisteredMapping(\(rowType), \(event))"
        case let .eventNotSupportedForSupplementaryRows(rowType, event): return "ListViewManagerAnomaly.eventNotSupportedForSupplementaryRows(\(rowType), \(event))"
        }
    }
}

/// The handler type of `ListViewManager.anomalyHandler`.
public typealias ListViewManagerAnomalyHandler = AnomalyHandler<ListViewManagerAnomaly>

/// Logs `message` as a GLib warning in the `ListViewManager` domain.
func logWarning(_ message: String) {
    cgtk_shims_log_warning("ListViewManager", message)
}
