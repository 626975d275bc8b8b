import Foundation
import CGtk
import CGtkShims
import ModelStorage

/// The GListModel GTK sees: the flat rows of a storage, answered from a `FlatLayout`.
///
/// `get_n_items` is answered in C (the count follows the splices emitted); `get_item` costs
/// O(log sections) and returns a new item object made on demand. The layout and the models are updated before any `items-changed`;
/// while the splices of one update are emitted, answers follow the intermediate list
/// (`SpliceSequence`), so GTK always sees a consistent model.
@MainActor
final class ListModelBridge {
    /// The GObject (one reference, owned here).
    let model: OpaquePointer
    private(set) var layout: FlatLayout
    /// The models matching `layout` (a snapshot of the storage taken with its update).
    private(set) var models: any SectionedModels
    /// The update being emitted and how many of its splices GTK has seen.
    private var emission: (sequence: SpliceSequence, index: Int)?

    /// Called before each splice is emitted (state that follows positions moves first).
    var willEmitSplice: (Splice) -> Void = { _ in }

    init(models: any SectionedModels, options: FlatLayoutOptions) {
        layout = FlatLayout(storage: models, options: options)
        self.models = models
        let reference = BridgeReference()
        let getItem: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> UnsafeMutableRawPointer? = { data, position in
            let address = MainActor.assumeIsolated {
                BridgeReference.from(data).bridge.map { Int(bitPattern: $0.item(at: Int(position)).makeObject()) } ?? 0
            }
            return UnsafeMutableRawPointer(bitPattern: address)
        }
        let destroy: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<BridgeReference>.fromOpaque(data).release()
        }
        let callbacks = CGtkShimsListModelCallbacks(
            get_item: getItem,
            data: Unmanaged.passRetained(reference).toOpaque(), destroy: destroy)
        model = cgtk_shims_list_model_new(callbacks)
        reference.bridge = self
        // The C side counts the rows its splices added: a storage that has rows already
        // starts the count (no one listens yet).
        if layout.count > 0 { cgtk_shims_list_model_items_changed(model, 0, 0, UInt32(layout.count)) }
    }

    isolated deinit {
        cgtk_shims_list_model_detach(model)
        g_object_unref(UnsafeMutableRawPointer(model))
    }

    /// The model as a GListModel pointer.
    var listModel: OpaquePointer { cgtk_shims_list_model(UnsafeMutableRawPointer(model))! }

    /// The number of rows GTK sees now.
    var count: Int {
        guard let emission else { return layout.count }
        return emission.sequence.count(afterSplice: emission.index)
    }

    /// The row at `position` of the list GTK sees now, as a final row, or nil for a row that
    /// is about to vanish (or out of range).
    func row(at position: Int) -> FlatRow? {
        guard let emission else { return layout.row(at: position) }
        switch emission.sequence.row(at: position, afterSplice: emission.index) {
        case .final(let final): return layout.row(at: final)
        case .vanishing: return nil
        }
    }

    /// The model shown by `row`.
    func model(of row: FlatRow) -> Any? {
        switch row {
        case .header(let section): return models.headerModel(forSection: section)
        case .item(let indexPath): return models.item(at: indexPath)
        case .footer(let section): return models.footerModel(forSection: section)
        }
    }

    /// How many item objects GTK asked for.
    private(set) var itemRequests = 0

    /// A new payload for the row GTK sees at `position`.
    func item(at position: Int) -> RowItem {
        itemRequests += 1
        guard let row = row(at: position) else { return RowItem(kind: .vanishing, model: nil) }
        let kind: RowItem.Kind
        switch row {
        case .header: kind = .header
        case .item: kind = .item
        case .footer: kind = .footer
        }
        return RowItem(kind: kind, model: model(of: row))
    }

    /// Follows `update` (whose models are `models`) and emits its splices; returns the
    /// positions whose content changed in place.
    func apply(_ update: StorageUpdate, models: any SectionedModels) -> [Int] {
        let oldCount = layout.count
        let changes = layout.apply(update)
        self.models = models
        emit(changes.splices, oldCount: oldCount)
        return changes.updatedPositions
    }

    /// Rebuilds everything from `models` (with `options`) and emits one splice.
    func reload(models: any SectionedModels, options: FlatLayoutOptions) {
        let oldCount = layout.count
        let changes = layout.reload(from: models, options: options)
        self.models = models
        emit(changes.splices, oldCount: oldCount)
    }

    /// Reads models from `storage` itself from now on (no update is pending).
    func readLive(_ storage: any SectionedModels) {
        models = storage
    }

    /// Above this many rows on both sides, a replacement is emitted as a removal then an
    /// insertion (see `emit`).
    static let largeReplacement = 1024

    /// Emits `splices`. A large replacement (say a reload) goes as a removal followed by an
    /// insertion: GTK 4.8 asks for every added row of a splice that covers its scroll
    /// anchor (1,000,000 `get_item` calls for a million-row reload), but after the removal
    /// the anchor is outside the insertion and GTK asks only for the rows it shows. GTK does
    /// not keep the scroll position across such a replacement either way.
    private func emit(_ changes: [Splice], oldCount: Int) {
        let splices = changes.flatMap { splice -> [Splice] in
            guard splice.removed > Self.largeReplacement, splice.added > Self.largeReplacement else { return [splice] }
            return [Splice(position: splice.position, removed: splice.removed, added: 0),
                    Splice(position: splice.position, removed: 0, added: splice.added)]
        }
        let sequence = SpliceSequence(splices: splices, oldCount: oldCount)
        for (index, splice) in splices.enumerated() {
            emission = (sequence, index)
            willEmitSplice(splice)
            cgtk_shims_list_model_items_changed(model, UInt32(splice.position), UInt32(splice.removed), UInt32(splice.added))
        }
        emission = nil
    }
}

/// Lets the C model reach its bridge without keeping it alive.
final class BridgeReference {
    weak var bridge: ListModelBridge?

    static func from(_ data: UnsafeMutableRawPointer?) -> BridgeReference {
        Unmanaged<BridgeReference>.fromOpaque(data!).takeUnretainedValue()
    }
}
