import Foundation

/// The sections of a `MemoryStorage` at one moment (a copy-on-write value).
struct MemoryStorageSnapshot: SectionedModels {
    let sections: [SectionModel]

    func numberOfSections() -> Int {
        sections.count
    }

    func numberOfItems(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].models.count : 0
    }

    func item(at indexPath: IndexPath) -> Any? {
        guard indexPath.isSectionAndItem, sections.indices.contains(indexPath.section) else { return nil }
        return sections[indexPath.section].item(at: indexPath.item)
    }

    func headerModel(forSection section: Int) -> Any? {
        sections.indices.contains(section) ? sections[section].headerModel : nil
    }

    func footerModel(forSection section: Int) -> Any? {
        sections.indices.contains(section) ? sections[section].footerModel : nil
    }
}
