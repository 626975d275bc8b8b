import CGtk
import CGtkShims
import Foundation
import GtkKit
import ModelStorage

/// The GListModel GTK sees: the flat rows of a storage, answered from a `FlatLayout`.
///
/// `get_n_items` is answered in C (the count follows the splices emitted); `get_item` costs
/// O(log sections) and returns a new item object made on demand. The layout and the models are updated before any `items-changed`;
/// while the splices of one update are emitted, answers follow the intermediate list
/// (`SpliceSequence`), so GTK always sees a consistent model.
@MainActor
final class ListModelBridge {
    private let reference: ObjectReference<OpaquePointer>
    /// The GObject.
    var model: OpaquePointer { reference.pointer }
    private(set) var layout: FlatLayout
    /// The models matching `layout` (a snapshot of the storage taken with its update).
    private(set) var models: any SectionedModels
    /// The update being emitted, how many of its splices GTK has seen, and the layout before
    /// it (kept only when the view shows section headers itself, for GTK's section questions).
    private var emission: (sequence: SpliceSequence, index: Int, oldLayout: FlatLayout?)?

    init(models: any SectionedModels, options: FlatLayoutOptions) {
        layout = FlatLayout(storage: models, options: options)
        self.models = models
        let bridge = WeakReference<ListModelBridge>()
        let getItem: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> UnsafeMutableRawPointer? = { data, position in
            let bridge = UserData<WeakReference<ListModelBridge>>.value(data)
            let address = MainActor.assumeIsolated {  // a pointer leaves as an Int: see Cast
                bridge.object.map { Int(bitPattern: $0.item(at: Int(position)).makeObject()) } ?? 0
            }
            return UnsafeMutableRawPointer(bitPattern: address)
        }
        let getSection: @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?) -> Void = { data, position, start, end in
            let bridge = UserData<WeakReference<ListModelBridge>>.value(data)
            let range = MainActor.assumeIsolated {
                bridge.object?.sectionRange(containing: Int(position)) ?? 0..<Int(position + 1)
            }
            start?.pointee = UInt32(range.lowerBound)
            end?.pointee = UInt32(range.upperBound)
        }
        let callbacks = CGtkShimsListModelCallbacks(
            get_item: getItem, get_section: getSection,
            data: UserData.retained(bridge), destroy: ReleaseUserData.destroyNotify)
        reference = ObjectReference(adopting: cgtk_shims_list_model_new(callbacks))
        bridge.object = self
        // The C side counts the rows its splices added: a storage that has rows already
        // starts the count (no one listens yet).
        if layout.count > 0 { cgtk_shims_list_model_items_changed(model, 0, 0, UInt32(layout.count)) }
    }

    isolated deinit {
        // Answers nothing more, before its last reference goes (with `reference`).
        cgtk_shims_list_model_detach(model)
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

    /// The positions of the section holding the row at `position` of the list GTK sees now
    /// (GtkSectionModel's question): a vanishing row counts with its neighbours. O(log sections)
    /// outside an update. The whole list when headers are rows.
    func sectionRange(containing position: Int) -> Range<Int> {
        // Header rows: one section, whose header (empty) the view shows above the list.
        guard layout.options.headersAreSectionHeaders else { return 0..<count }
        guard let emission, let oldLayout = emission.oldLayout else {
            return layout.sectionRange(containing: position) ?? position..<position + 1
        }
        let layout = self.layout
        return emission.sequence.sectionRange(containing: position, afterSplice: emission.index,
                                              sectionOf: { layout.section(containing: $0) ?? 0 },
                                              oldSectionRange: { oldLayout.sectionRange(containing: $0) ?? $0..<$0 + 1 })
    }

    /// The header the view shows above the section of `item` (the first row GTK gives a
    /// section header), or nil when that section is gone or shows none, or the row vanishes.
    func sectionHeader(above item: RowItem) -> FlatRow? {
        guard let id = item.sectionID, let section = layout.section(withID: id), layout.showsSectionHeader(section) else { return nil }
        return .header(section: section)
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
        if case .header = row, layout.options.headersAreSectionHeaders {
            kind = .placeholder
        } else {
            kind = .row(row.mappingKind)
        }
        let sectionID = layout.options.headersAreSectionHeaders ? layout.sectionID(ofSection: row.section) : nil
        return RowItem(kind: kind, model: model(of: row), sectionID: sectionID)
    }

    /// Follows `update` (whose models are `models`) and emits its splices; returns the
    /// positions whose content changed in place, the sections whose header the view shows
    /// itself and whose header model changed, and how many rows at the top kept their place.
    func apply(_ update: StorageUpdate, models: any SectionedModels,
               tellingEachSplice participants: [any UpdateParticipant]) -> (positions: [Int], sectionHeaders: [Int], unchangedRows: Int) {
        let oldCount = layout.count
        let oldLayout = sectionAnswersNeedOldLayout ? layout : nil
        let changes = layout.apply(update)
        self.models = models
        emit(changes.splices, oldCount: oldCount, from: oldLayout, tellingEach: participants)
        return (changes.updatedPositions, changes.updatedSectionHeaders, changes.unchangedRows)
    }

    /// Applies `change` (an update or a reload) and emits its splices, telling `participants`
    /// of each; returns what it did, for the participants after the splices.
    func apply(_ change: ContentChange, tellingEachSplice participants: [any UpdateParticipant]) -> AppliedChange {
        switch change.kind {
        case .reload(let options):
            reload(models: change.models, options: options, tellingEachSplice: participants)
            return AppliedChange(change: change, unchangedRows: 0, updatedPositions: [], updatedSectionHeaders: [])
        case .update(let update):
            let updated = apply(update, models: change.models, tellingEachSplice: participants)
            return AppliedChange(change: change, unchangedRows: updated.unchangedRows, updatedPositions: updated.positions,
                                 updatedSectionHeaders: Set(updated.sectionHeaders))
        }
    }

    /// Rebuilds everything from `models` (with `options`) and emits one splice.
    func reload(models: any SectionedModels, options: FlatLayoutOptions, tellingEachSplice participants: [any UpdateParticipant]) {
        let oldCount = layout.count
        let oldLayout = sectionAnswersNeedOldLayout ? layout : nil
        let changes = layout.reload(from: models, options: options)
        self.models = models
        emit(changes.splices, oldCount: oldCount, from: oldLayout, tellingEach: participants)
    }

    /// Rebuilds everything from `models` (with `options`) as new contents of the same places:
    /// only the change of count is emitted, at the end, so GTK keeps the rows it has, and the
    /// caller shows the new contents of those rows itself. For a list of places, as a
    /// sectioned grid's strips are (strip n), in a view that does not show section headers
    /// itself.
    func reloadInPlace(models: any SectionedModels, options: FlatLayoutOptions) {
        let oldCount = layout.count
        _ = layout.reload(from: models, options: options)
        self.models = models
        let kept = min(oldCount, layout.count)
        guard oldCount != layout.count else { return }
        emit([Splice(position: kept, removed: oldCount - kept, added: layout.count - kept)], oldCount: oldCount, from: nil, tellingEach: [])
    }

    /// Reads models from `models` from now on, which match `layout`: the storage itself when
    /// no update is pending, or a snapshot of it while an update may be held back.
    func read(_ models: any SectionedModels) {
        self.models = models
    }

    /// Above this many rows on both sides, a replacement is emitted as a removal then an
    /// insertion (see `emit`).
    static let largeReplacement = 1024

    /// Whether GTK's section questions during an update need the layout before it: when the
    /// view shows section headers itself. Keeping it costs one copy of the section table
    /// (O(sections)) per update.
    private var sectionAnswersNeedOldLayout: Bool { layout.options.headersAreSectionHeaders }

    /// Emits `splices` (of an update from `oldLayout`, when kept), telling `participants` of
    /// each just before (state they keep by position moves first). A large replacement (say a reload) goes as a removal followed by an
    /// insertion: GTK 4.8 asks for every added row of a splice that covers its scroll
    /// anchor (1,000,000 `get_item` calls for a million-row reload), but after the removal
    /// the anchor is outside the insertion and GTK asks only for the rows it shows. GTK does
    /// not keep the scroll position across such a replacement either way.
    private func emit(_ changes: [Splice], oldCount: Int, from oldLayout: FlatLayout?, tellingEach participants: [any UpdateParticipant]) {
        let splices = changes.flatMap { splice -> [Splice] in
            guard splice.removed > Self.largeReplacement, splice.added > Self.largeReplacement else { return [splice] }
            return [Splice(position: splice.position, removed: splice.removed, added: 0),
                    Splice(position: splice.position, removed: 0, added: splice.added)]
        }
        let sequence = SpliceSequence(splices: splices, oldCount: oldCount)
        for (index, splice) in splices.enumerated() {
            emission = (sequence, index, oldLayout)
            for participant in participants { participant.willEmit(splice) }
            cgtk_shims_list_model_items_changed(model, UInt32(splice.position), UInt32(splice.removed), UInt32(splice.added))
        }
        emission = nil
        // Sections that GTK saw cut apart between the splices are joined again: up to the row
        // after the last splice, whose section may have started at a row that went.
        if oldLayout != nil, splices.count > 1, let first = splices.first, let last = splices.last {
            let end = min(last.position + last.added + 1, layout.count)
            if end > first.position {
                cgtk_shims_list_model_sections_changed(model, UInt32(first.position), UInt32(end - first.position))
            }
        }
    }
}

/// What one item object of the list model carries: the kind of row and its model.
///
/// Made on demand by `get_item` (no object is kept per model); a content update of a
/// bound row replaces `model` in place.
@MainActor
final class RowItem {
    enum Kind: Equatable, CustomStringConvertible {
        /// A header, item or footer row.
        case row(MappingKind)
        /// A row a later splice of the update being emitted removes: shown as nothing.
        case vanishing
        /// The one row of an empty section that shows its header, where the view shows
        /// section headers itself (above this row): shown as nothing.
        case placeholder

        var description: String {
            switch self {
            case .row(let kind): return kind.description
            case .vanishing: return "vanishing"
            case .placeholder: return "placeholder"
            }
        }
    }

    let kind: Kind
    var model: Any?
    /// The id of the row's section (`FlatLayout.sectionID(ofSection:)`), when the view shows
    /// section headers itself: GTK gives a section header the item of the section's first
    /// row, and the header shows the section this id names.
    let sectionID: Int?

    init(kind: Kind, model: Any?, sectionID: Int? = nil) {
        self.kind = kind
        self.model = model
        self.sectionID = sectionID
    }

    /// A new GObject (one reference, for the caller) carrying this payload.
    func makeObject() -> UnsafeMutableRawPointer {
        let object = cgtk_shims_row_item_new(Unmanaged<AnyObject>.passRetained(self).toOpaque(), ReleaseUserData.destroyNotify)
        return UnsafeMutableRawPointer(object!)
    }

    /// The payload of an item object made by `makeObject()`.
    static func of(_ object: UnsafeMutableRawPointer?) -> RowItem? {
        guard let object, cgtk_shims_instance_is_a(object, cgtk_shims_row_item_get_type()) != 0,
              let payload = cgtk_shims_row_item_get_payload(OpaquePointer(object)) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(payload).takeUnretainedValue() as? RowItem
    }
}
