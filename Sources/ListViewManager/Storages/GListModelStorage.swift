import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// Any GListModel as a storage: a GtkDirectoryList, a GtkStringList, a GtkSortListModel or
/// GtkFilterListModel chain. Its items, mapped to Swift models by `transform`, are the
/// items of one section; each of its `items-changed` becomes a storage update that the
/// list passes on as the very same splice.
///
/// ```swift
/// let files = gtk_directory_list_new("standard::display-name,standard::size", folder)
/// let storage = GListModelStorage(listModel: files) { info in FileRow.Model(info) }
/// manager.storage = storage
/// ```
///
/// The storage reads the wrapped model live: a GListModel cannot be copied, so `snapshot()`
/// is the storage itself. Change the wrapped model from the main thread, and not from
/// within a list event of a manager showing it.
public final class GListModelStorage<Model>: Storage {
    private let reference: ObjectReference<OpaquePointer>
    /// The wrapped GListModel.
    public var listModel: OpaquePointer { reference.pointer }
    public weak var delegate: StorageUpdating?
    private let transform: (UnsafeMutableRawPointer) -> Model
    private var header: Any?
    /// Its `items-changed` handler, disconnected when the storage goes.
    private var connection: SignalConnection?

    /// Wraps `listModel`, whose items `transform` turns into models (it gets each item
    /// object for the duration of the call), showing `header` above them if given. Create
    /// it on the main thread, where GTK's models live.
    public init(listModel: OpaquePointer, header: Any? = nil, transform: @escaping (UnsafeMutableRawPointer) -> Model) {
        reference = ObjectReference(retaining: listModel)
        self.transform = transform
        self.header = header
        // The storage and its model belong to the main thread (above), where GTK emits.
        nonisolated(unsafe) let storage = WeakReference(self), model = listModel
        connection = MainActor.assumeIsolated {
            let handler = Signal.connect(UnsafeMutableRawPointer(model), "items-changed") { (position: UInt32, removed: UInt32, added: UInt32) in
                storage.object?.itemsChanged(Int(position), removed: Int(removed), added: Int(added))
            }
            return SignalConnection(handler, on: UnsafeMutableRawPointer(model))
        }
    }

    /// Shows `model` (nil: nothing) as the section's header.
    public func setHeaderModel(_ model: Any?) {
        let type: ChangeType? = switch (header != nil, model != nil) {
        case (false, true): .insert
        case (true, false): .delete
        case (true, true): .update
        case (false, false): nil
        }
        header = model
        guard let type else { return }
        delegate?.storageDidPerformUpdate(StorageUpdate([.supplementary(.header, type, section: 0)]))
    }

    /// Turns the wrapped model's `items-changed` into one update: a removal and an insertion
    /// at the same place, which the flat layout emits as the same splice.
    fileprivate func itemsChanged(_ position: Int, removed: Int, added: Int) {
        var update = StorageUpdate()
        if removed > 0 { update.append(.deleteItems(section: 0, items: position..<(position + removed))) }
        if added > 0 { update.append(.insertItems(section: 0, items: position..<(position + added))) }
        guard !update.isEmpty else { return }
        delegate?.storageDidPerformUpdate(update)
    }

    // MARK: SectionedModels

    public func numberOfSections() -> Int { 1 }

    public func numberOfItems(inSection section: Int) -> Int {
        section == 0 ? Int(g_list_model_get_n_items(listModel)) : 0
    }

    /// The item at `indexPath`, as `transform` makes it (each time it is asked for).
    public func item(at indexPath: IndexPath) -> Any? {
        guard indexPath.isSectionAndItem, indexPath.section == 0, indexPath.item >= 0,
              indexPath.item < numberOfItems(inSection: 0),
              let object = g_list_model_get_item(listModel, UInt32(indexPath.item)) else { return nil }
        defer { g_object_unref(object) }  // asked for per row shown: no ObjectReference made
        return transform(object)
    }

    public func headerModel(forSection section: Int) -> Any? {
        section == 0 ? header : nil
    }

    public func footerModel(forSection section: Int) -> Any? { nil }

    public func snapshot() -> any SectionedModels { self }
}
