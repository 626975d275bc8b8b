import ModelStorage

extension ItemViewManager: UpdateFollower {
    func follow(_ update: StorageUpdate, models: any SectionedModels) {
        noticeHiddenSupplementaryRows(in: models, sections: update.sectionsGainingSupplementaryModels)
    }

    func dropForReload(models: any SectionedModels) {
        noticeHiddenSupplementaryRows(in: models, sections: Array(0..<models.numberOfSections()))
    }

    /// Reports, once per manager, a header or footer model in one of `sections` of a view
    /// that does not show that kind (grid and column views show neither), so that it is not
    /// silently dropped. `sections` is worked out only for such a view, until it has reported.
    func noticeHiddenSupplementaryRows(in models: any SectionedModels, sections: @autoclosure () -> [Int]) {
        guard !(kind.shows(.header, configuration) && kind.shows(.footer, configuration)), !reportedHiddenSupplementaryRows else { return }
        let count = models.numberOfSections()
        for section in sections() where section >= 0 && section < count {
            for (supplementaryKind, model) in [(SupplementaryKind.header, models.headerModel(forSection: section)),
                                               (.footer, models.footerModel(forSection: section))] {
                guard let model, !kind.shows(supplementaryKind, configuration) else { continue }
                reportedHiddenSupplementaryRows = true
                anomalyHandler.report(.supplementaryRowsNotShown(
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
