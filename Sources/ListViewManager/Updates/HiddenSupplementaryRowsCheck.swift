import ModelStorage

/// Reports, once per manager, a header or footer model in a section of a view that does
/// not show that kind (grid and column views show neither), so that it is not silently
/// dropped.
@MainActor
final class HiddenSupplementaryRowsCheck: UpdateParticipant {
    private unowned let manager: ItemViewManager
    /// Whether the view shows every header and footer row (a list view): nothing to check.
    private let showsEverything: Bool
    /// Whether one was reported (once is enough).
    private var hasReported = false

    init(manager: ItemViewManager) {
        self.manager = manager
        showsEverything = manager.kind.showsSupplementaryRows
    }

    /// Looks at the sections an update may have given a header or footer, or at every
    /// section before a reload.
    var phases: UpdatePhases { .beforeSplices }

    func willApply(_ change: ContentChange) {
        let models = change.models
        if let update = change.update {
            notice(in: models, sections: update.sectionsGainingSupplementaryModels)
        } else {
            notice(in: models, sections: Array(0..<models.numberOfSections()))
        }
    }

    /// Looks at `sections` of `models`; they are worked out only for a view that hides
    /// headers or footers, until it has reported.
    func notice(in models: any SectionedModels, sections: @autoclosure () -> [Int]) {
        guard !showsEverything, !hasReported else { return }
        let kind = manager.kind, configuration = manager.configuration
        let count = models.numberOfSections()
        for section in sections() where section >= 0 && section < count {
            for (supplementaryKind, model) in [(SupplementaryKind.header, models.headerModel(forSection: section)),
                                               (.footer, models.footerModel(forSection: section))] {
                guard let model, !kind.shows(supplementaryKind, configuration) else { continue }
                hasReported = true
                manager.anomalyHandler.report(.supplementaryRowsNotShown(
                    view: kind.name, kind: supplementaryKind, modelType: String(describing: type(of: model)), section: section))
                return
            }
        }
    }
}

extension StorageUpdate {
    /// The sections that may have gained a header or footer model: inserted or moved
    /// sections and those whose header or footer was set.
    var sectionsGainingSupplementaryModels: [Int] {
        changes.compactMap { change in
            switch change {
            case .insertSection(let section), .moveSection(_, let section): return section
            case .supplementary(_, let type, let section) where type != .delete: return section
            default: return nil
            }
        }
    }
}
