import Foundation
import ModelStorage

/// What a context menu is for: an item, a section's header or footer, or the selected items.
/// An open menu's target follows storage updates, so that its entries act on what it was
/// opened for wherever that has moved.
enum MenuTarget: Equatable {
    /// The item at this index path.
    case item(IndexPath)
    /// The header of this section.
    case header(section: Int)
    /// The footer of this section.
    case footer(section: Int)
    /// The selected items at these index paths, in order (two or more when opened).
    case selection([IndexPath])

    /// The target after `update`, or nil when the update removed it (for a selection: all
    /// of its items; those left stay the target).
    func following(_ update: StorageUpdate) -> MenuTarget? {
        switch self {
        case .item(let indexPath): return update.newIndexPath(for: indexPath).map(MenuTarget.item)
        case .header(let section): return update.newSection(for: section).map { .header(section: $0) }
        case .footer(let section): return update.newSection(for: section).map { .footer(section: $0) }
        case .selection(let indexPaths):
            let left = indexPaths.compactMap(update.newIndexPath).sorted()
            return left.isEmpty ? nil : .selection(left)
        }
    }

    /// The flat rows the target stands for.
    var rows: [FlatRow] {
        switch self {
        case .item(let indexPath): return [.item(indexPath)]
        case .header(let section): return [.header(section: section)]
        case .footer(let section): return [.footer(section: section)]
        case .selection(let indexPaths): return indexPaths.map(FlatRow.item)
        }
    }

    /// Whether the target is a header or footer (which cannot be deleted).
    var isSupplementary: Bool {
        switch self {
        case .header, .footer: return true
        case .item, .selection: return false
        }
    }
}
