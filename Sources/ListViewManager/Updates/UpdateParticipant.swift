import ModelStorage

/// A change the updater applies to the list view: a storage update, or a reload of every
/// row (the storage was replaced, asked for one, or the layout options changed).
enum ContentChange {
    /// `update`, after which the storage's sections are `models`.
    case update(StorageUpdate, models: any SectionedModels)
    /// Every row again, from `models`, laid out with `options`.
    case reload(models: any SectionedModels, options: FlatLayoutOptions)

    /// The storage's sections after the change.
    var models: any SectionedModels {
        switch self {
        case .update(_, let models), .reload(let models, _): return models
        }
    }

    /// The storage update, or nil for a reload (what `willUpdateContent` is handed).
    var update: StorageUpdate? {
        if case .update(let update, _) = self { return update }
        return nil
    }
}

/// What the list GTK reads did with a change, for the participants after its splices.
struct AppliedChange {
    let change: ContentChange
    /// How many rows at the top kept their place (none for a reload).
    let unchangedRows: Int
    /// The positions whose content changed in place (none for a reload: every row is new).
    let updatedPositions: [Int]
    /// The sections whose header model changed and whose header the view shows itself.
    let updatedSectionHeaders: Set<Int>
}

/// One of those that take part in applying each change to the list view: the selection,
/// an open context menu's target, the dragged item, the check for header and footer models
/// a view does not show, the view's own list (a sectioned grid's strips), the bound rows
/// and the pinned header. The manager lists them in one ordered list
/// (`ItemViewManager.listUpdateParticipants`); the updater takes them through the phases of
/// each change in that order:
///
/// 1. `willApply(_:)`, before GTK hears of the change: state kept by index path moves with
///    it (rows are still bound where they were).
/// 2. `willEmit(_:)`, once for each splice, just before GTK sees it: state kept by position
///    moves first (asked only of participants that say they follow splices).
/// 3. `didApply(_:)`, after the splices: the view's own list and the bound rows follow.
/// 4. `didSettle(_:)`, once every row shows the change: the selection takes back the items
///    GTK lost, the pinned header refreshes.
///
/// A reload goes through the same phases as an update. Every phase does nothing unless a
/// participant says otherwise; none holds the manager strongly.
@MainActor
protocol UpdateParticipant: AnyObject {
    /// Before GTK hears of `change`.
    func willApply(_ change: ContentChange)
    /// `splice` is about to be emitted as `items-changed`.
    func willEmit(_ splice: Splice)
    /// Whether `willEmit(_:)` does anything: only those that do are asked, splice by splice.
    var followsSplices: Bool { get }
    /// After the splices of the change `applied` describes.
    func didApply(_ applied: AppliedChange)
    /// Once every row shows the change.
    func didSettle(_ applied: AppliedChange)
}

extension UpdateParticipant {
    func willApply(_ change: ContentChange) {}
    func willEmit(_ splice: Splice) {}
    var followsSplices: Bool { false }
    func didApply(_ applied: AppliedChange) {}
    func didSettle(_ applied: AppliedChange) {}
}

extension ItemViewManager {
    /// Lists, in order, who takes part in applying each change (see `UpdateParticipant`):
    /// again whenever one of them is replaced or added (the selection state, the view's own
    /// list, the pinned header).
    func listUpdateParticipants() {
        var participants: [any UpdateParticipant] = [selection, contextMenus, drag, hiddenRowsCheck]
        if let viewOwnList { participants.append(viewOwnList) }
        participants.append(boundRowsFollower)
        if let pinnedHeader { participants.append(pinnedHeader) }
        updater.participants = participants
    }
}
