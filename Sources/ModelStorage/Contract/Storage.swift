import Foundation

/// Read access to sectioned models: sections of items, each section with an optional
/// header model and footer model.
public protocol SectionedModels {
    /// The number of sections.
    func numberOfSections() -> Int

    /// The number of items in `section`, or 0 when there is no such section.
    func numberOfItems(inSection section: Int) -> Int

    /// The model at `indexPath`, or nil when there is none.
    func item(at indexPath: IndexPath) -> Any?

    /// The header model of `section`, or nil when it has none.
    func headerModel(forSection section: Int) -> Any?

    /// The footer model of `section`, or nil when it has none.
    func footerModel(forSection section: Int) -> Any?
}

/// A sectioned source of models that a list view shows.
///
/// Storages tell their `delegate` what changed through `StorageUpdate`s.
public protocol Storage: AnyObject, SectionedModels {
    /// The object told about every change. Held weakly.
    var delegate: StorageUpdating? { get set }

    /// The models as they are now, unaffected by later changes to the storage. A view
    /// reads it while it catches up with an update, so that a change made meanwhile (from
    /// an event handler, say) cannot show through before its own update is applied.
    func snapshot() -> any SectionedModels
}

extension SectionedModels {
    /// The model of the `kind` supplementary of `section`, or nil when it has none.
    public func supplementaryModel(_ kind: SupplementaryKind, forSection section: Int) -> Any? {
        switch kind {
        case .header: return headerModel(forSection: section)
        case .footer: return footerModel(forSection: section)
        }
    }
}

/// The delegate of a `Storage`: the object that keeps a view in step with it.
public protocol StorageUpdating: AnyObject {
    /// Called once per finished change or batch of changes (never for an empty one).
    /// - Parameter update: the ordered changes, as made.
    func storageDidPerformUpdate(_ update: StorageUpdate)

    /// Called when the storage changed in a way best shown by reloading everything.
    func storageNeedsReloading()
}

/// The two models a section can have besides its items.
public enum SupplementaryKind: Hashable, Sendable, CustomStringConvertible {
    /// Shown above the section's items.
    case header
    /// Shown below the section's items.
    case footer

    public var description: String {
        switch self {
        case .header: return "header"
        case .footer: return "footer"
        }
    }
}
