import Foundation
import CGtk
import CGtkShims
import ModelStorage

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
