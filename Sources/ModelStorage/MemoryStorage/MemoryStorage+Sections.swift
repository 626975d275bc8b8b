import Foundation

extension MemoryStorage {
    /// Inserts `section`, with its items and header and footer models, at `index`.
    ///
    /// An index past the end is reported as `.sectionIndexOutOfRange`.
    public func insertSection(_ section: SectionModel, atIndex index: Int) {
        checkThread()
        guard index >= 0, index <= sections.count else {
            anomalyHandler.report(.sectionIndexOutOfRange(section: index, numberOfSections: sections.count))
            return
        }
        record { update in
            sections.insert(SectionModel(), at: index)
            update.append(.insertSection(index))
            fillSection(index, with: section, &update)
        }
    }

    /// Deletes the sections at `indexes`, with everything in them.
    ///
    /// When any index is out of range, nothing is deleted and `.sectionIndexOutOfRange`
    /// is reported.
    public func deleteSections(_ indexes: IndexSet) {
        checkThread()
        if let invalid = indexes.first(where: { !sections.indices.contains($0) }) {
            anomalyHandler.report(.sectionIndexOutOfRange(section: invalid, numberOfSections: sections.count))
            return
        }
        record { update in
            for index in indexes.reversed() {
                sections.remove(at: index)
                update.append(.deleteSection(index))
            }
        }
    }

    /// Moves the section at `source` so that it ends up at `destination`.
    ///
    /// An index out of range changes nothing and is reported as `.sectionIndexOutOfRange`.
    public func moveSection(_ source: Int, toSection destination: Int) {
        checkThread()
        for index in [source, destination] where !sections.indices.contains(index) {
            anomalyHandler.report(.sectionIndexOutOfRange(section: index, numberOfSections: sections.count))
            return
        }
        guard source != destination else { return }
        record { update in
            sections.insert(sections.remove(at: source), at: destination)
            update.append(.moveSection(from: source, to: destination))
        }
    }

    /// Replaces everything in the section at `index` (items, header and footer models) with
    /// `section`'s, creating sections up to it when needed.
    public func setSection(_ section: SectionModel, forSection index: Int) {
        checkThread()
        guard checkSectionCanBeReached(index) else { return }
        record { update in
            ensureSection(index, &update)
            removeAllItems(ofSection: index, &update)
            fillSection(index, with: section, &update)
        }
    }

    /// Replaces the items of `section` with `items`, creating sections up to it when
    /// needed. Header and footer models stay.
    ///
    /// When any of `items` is nil, nothing changes and `.nilItem` is reported.
    public func setItems<T>(_ items: [T], forSection section: Int = 0) {
        checkThread()
        guard checkSectionCanBeReached(section) else { return }
        guard let models = storedModelsReportingNil(items, operation: "setItems(_:forSection:)") else { return }
        record { update in
            ensureSection(section, &update)
            removeAllItems(ofSection: section, &update)
            sections[section].models = ItemChunks(models)
            if !models.isEmpty {
                update.append(.insertItems(section: section, items: 0..<models.count))
            }
        }
    }

    /// Makes the storage hold exactly `items.count` sections with these items; header and
    /// footer models of the sections that remain stay. The delegate is asked to reload.
    ///
    /// When any item is nil, nothing changes and `.nilItem` is reported.
    public func setItemsForAllSections<T>(_ items: [[T]]) {
        checkThread()
        var newItems: [StoredModels<T>] = []
        for sectionItems in items {
            guard let models = storedModelsReportingNil(sectionItems, operation: "setItemsForAllSections(_:)") else { return }
            newItems.append(models)
        }
        batch {
            if sections.count > newItems.count {
                sections.removeLast(sections.count - newItems.count)
            }
            while sections.count < newItems.count {
                sections.append(SectionModel())
            }
            for (index, models) in newItems.enumerated() {
                sections[index].models = ItemChunks(models)
            }
            requestReload()
        }
    }

    // MARK: Headers and footers

    /// Sets the header model of section `i` to `models[i]`, creating sections when needed;
    /// a nil model, or a section past the end of `models`, has no header.
    public func setSectionHeaderModels<T>(_ models: [T]) {
        checkThread()
        setSupplementaryModels(models, .header)
    }

    /// Sets the footer model of section `i` to `models[i]`, creating sections when needed;
    /// a nil model, or a section past the end of `models`, has no footer.
    public func setSectionFooterModels<T>(_ models: [T]) {
        checkThread()
        setSupplementaryModels(models, .footer)
    }

    /// Sets (or, with nil, removes) the header model of `section`, creating sections up to
    /// it when needed.
    public func setSectionHeaderModel<T>(_ model: T?, forSection section: Int) {
        checkThread()
        setSupplementaryModel(model, .header, forSection: section)
    }

    /// Sets (or, with nil, removes) the footer model of `section`, creating sections up to
    /// it when needed.
    public func setSectionFooterModel<T>(_ model: T?, forSection section: Int) {
        checkThread()
        setSupplementaryModel(model, .footer, forSection: section)
    }

    private func setSupplementaryModels<T>(_ models: [T], _ kind: SupplementaryKind) {
        let unwrapped = models.map { unwrap($0) }
        record { update in
            if !unwrapped.isEmpty { ensureSection(unwrapped.count - 1, &update) }
            for section in sections.indices {
                setSupplementary(section < unwrapped.count ? unwrapped[section] : nil, kind, section, &update)
            }
        }
    }

    private func setSupplementaryModel<T>(_ model: T?, _ kind: SupplementaryKind, forSection section: Int) {
        guard checkSectionCanBeReached(section) else { return }
        let unwrapped = model.flatMap { unwrap($0) }
        record { update in
            ensureSection(section, &update)
            setSupplementary(unwrapped, kind, section, &update)
        }
    }

    /// Sets one header or footer model, recording an insert, delete or update.
    private func setSupplementary(_ model: Any?, _ kind: SupplementaryKind, _ section: Int, _ update: inout StorageUpdate) {
        let change: ChangeType
        switch (sections[section].supplementaryModel(kind), model) {
        case (nil, nil): return
        case (nil, _): change = .insert
        case (_, nil): change = .delete
        default: change = .update
        }
        sections[section].setSupplementaryModel(model, kind)
        update.append(.supplementary(kind, change, section: section))
    }

    /// Puts `source`'s header, footer and items into the empty section at `index`.
    private func fillSection(_ index: Int, with source: SectionModel, _ update: inout StorageUpdate) {
        setSupplementary(source.headerModel, .header, index, &update)
        setSupplementary(source.footerModel, .footer, index, &update)
        sections[index].identifier = source.identifier
        sections[index].instance = source.instance
        sections[index].models = source.models
        if !source.models.isEmpty {
            update.append(.insertItems(section: index, items: 0..<source.models.count))
        }
    }
}
