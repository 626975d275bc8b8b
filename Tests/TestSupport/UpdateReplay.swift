import ModelStorage

extension StorageUpdate {
    /// The sections and rows (by key) after this update's changes are made, in order, to
    /// `sections`: what a list shown `sections` shows after it. A row inserted is nil (the
    /// update says where, not which); updates of rows in place change nothing here.
    public func replayed(on sections: [[Int64?]]) -> [[Int64?]] {
        var sections = sections
        for change in changes {
            switch change {
            case .insertItems(let section, let items): for item in items { sections[section].insert(nil, at: item) }
            case .deleteItems(let section, let items): for item in items.reversed() { sections[section].remove(at: item) }
            case .moveItem(let from, let to): sections[to[0]].insert(sections[from[0]].remove(at: from[1]), at: to[1])
            case .deleteSection(let section): sections.remove(at: section)
            case .insertSection(let section): sections.insert([], at: section)
            case .moveSection(let from, let to): sections.insert(sections.remove(at: from), at: to)
            case .updateItem, .supplementary: break
            }
        }
        return sections
    }
}
