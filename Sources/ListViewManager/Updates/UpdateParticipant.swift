import ModelStorage

/// A change the updater applies to the list view: a storage update, or a reload of every
/// row (the storage was replaced, asked for one, or the layout options changed). One object
/// goes through every phase, to every participant, so that handing it on copies nothing.
final class ContentChange {
    /// What changed.
    enum Kind {
        /// A storage update.
        case update(StorageUpdate)
        /// Every row again, laid out with these options.
        case reload(FlatLayoutOptions)
    }

    let kind: Kind
    /// The storage's sections after the change.
    let models: any SectionedModels

    private init(_ kind: Kind, models: any SectionedModels) {
        self.kind = kind
        self.models = models
    }

    /// `update`, after which the storage's sections are `models`.
    static func update(_ update: StorageUpdate, models: any SectionedModels) -> ContentChange {
        ContentChange(.update(update), models: models)
    }

    /// Every row again, from `models`, laid out with `options`.
    static func reload(models: any SectionedModels, options: FlatLayoutOptions) -> ContentChange {
        ContentChange(.reload(options), models: models)
    }

    /// The storage update; nil for a reload.
    var update: StorageUpdate? {
        if case .update(let update) = kind { return update }
        return nil
    }

    /// Whether every row is reloaded.
    var isReload: Bool {
        if case .reload = kind { return true }
        return false
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

/// The phases of a change a participant takes part in.
struct UpdatePhases: OptionSet {
    let rawValue: Int
    /// `willApply(_:)`.
    static let beforeSplices = UpdatePhases(rawValue: 1)
    /// `willEmit(_:)`.
    static let eachSplice = UpdatePhases(rawValue: 2)
    /// `didApply(_:)`.
    static let afterSplices = UpdatePhases(rawValue: 4)
    /// `didSettle(_:)`.
    static let settled = UpdatePhases(rawValue: 8)
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
///    moves first.
/// 3. `didApply(_:)`, after the splices: the view's own list and the bound rows follow.
/// 4. `didSettle(_:)`, once every row shows the change: the selection takes back the items
///    GTK lost, the pinned header refreshes.
///
/// A reload goes through the same phases as an update. A participant is asked only in the
/// phases it names (`phases`): the updater keeps a list for each; none holds the manager
/// strongly.
@MainActor
protocol UpdateParticipant: AnyObject {
    /// The phases this participant takes part in.
    var phases: UpdatePhases { get }
    /// Before GTK hears of `change`.
    func willApply(_ change: ContentChange)
    /// `splice` is about to be emitted as `items-changed`.
    func willEmit(_ splice: Splice)
    /// After the splices of the change `applied` describes.
    func didApply(_ applied: AppliedChange)
    /// Once every row shows the change.
    func didSettle(_ applied: AppliedChange)
}

extension UpdateParticipant {
    func willApply(_ change: ContentChange) {}
    func willEmit(_ splice: Splice) {}
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
        if let typeAhead { participants.append(typeAhead) }
        if let sectionIndex { participants.append(sectionIndex) }
        if let prefetcher { participants.append(prefetcher) }
        participants.append(scrollAnchor)
        updater.participants = participants
    }
}
