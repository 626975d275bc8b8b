/// The sections of a flat layout and their row counts, with prefix sums in a Fenwick tree:
/// a section's first row and the section holding a row are found in O(log sections); a
/// change of item count costs O(log sections); inserting, deleting or moving a section
/// rebuilds the sums in O(sections).
struct SectionTable {
    /// What the layout knows of one section.
    struct Section {
        /// Stable while the section exists, so per-section state can follow moves.
        let id: Int
        var items: Int
        var hasHeader: Bool
        var hasFooter: Bool
    }

    let options: FlatLayoutOptions
    private(set) var sections: [Section] = []
    /// 1-based Fenwick tree over each section's row count.
    private var tree: [Int] = [0]
    private(set) var totalRows = 0
    /// Each section's index by its id, kept only when the view shows section headers itself
    /// (it finds a header's section by the id its first row carries).
    private var indexByID: [Int: Int] = [:]

    init(options: FlatLayoutOptions) {
        self.options = options
    }

    var count: Int { sections.count }

    subscript(index: Int) -> Section { sections[index] }

    /// Whether `section` shows a header row: before its items, or, when the view shows
    /// headers itself, as the one row of an empty section that would otherwise have none.
    func showsHeader(_ section: Section) -> Bool {
        guard section.hasHeader, options.showsSupplementaryRows else { return false }
        if options.headersAreSectionHeaders {
            return section.items == 0 && options.displayHeaderOnEmptySection && !showsFooter(section)
        }
        return section.items > 0 || options.displayHeaderOnEmptySection
    }

    /// Whether `section` shows a footer row.
    func showsFooter(_ section: Section) -> Bool {
        section.hasFooter && options.showsSupplementaryRows && options.showsFooterRows
            && (section.items > 0 || options.displayFooterOnEmptySection)
    }

    /// Whether the view shows `section`'s header itself, above the section's rows (an empty
    /// section's only when it displays its header on empty sections).
    func showsSectionHeader(_ section: Section) -> Bool {
        options.headersAreSectionHeaders && section.hasHeader && options.showsSupplementaryRows
            && (section.items > 0 || options.displayHeaderOnEmptySection)
    }

    /// The number of rows `section` takes.
    func rows(_ section: Section) -> Int {
        (showsHeader(section) ? 1 : 0) + section.items + (showsFooter(section) ? 1 : 0)
    }

    /// The position of the first row of the section at `index` (or the row count, for
    /// `index == count`).
    func start(of index: Int) -> Int {
        var sum = 0
        var node = index
        while node > 0 {
            sum += tree[node]
            node &= node - 1
        }
        return sum
    }

    /// The section holding `position` and the row's offset inside it, or nil when the
    /// position is out of range.
    func locate(_ position: Int) -> (section: Int, offset: Int)? {
        guard position >= 0, position < totalRows else { return nil }
        var node = 0
        var remaining = position
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = node + step
            if next < tree.count, tree[next] <= remaining {
                node = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return (node, remaining)
    }

    /// The index of the section with `id` (only when `options.headersAreSectionHeaders`).
    func index(ofID id: Int) -> Int? {
        indexByID[id]
    }

    /// Changes the section at `index` through `body`, keeping the sums right.
    mutating func update(_ index: Int, _ body: (inout Section) -> Void) {
        let before = rows(sections[index])
        body(&sections[index])
        let delta = rows(sections[index]) - before
        guard delta != 0 else { return }
        totalRows += delta
        var node = index + 1
        while node < tree.count {
            tree[node] += delta
            node += node & -node
        }
    }

    mutating func insert(_ section: Section, at index: Int) {
        sections.insert(section, at: index)
        rebuild()
    }

    mutating func remove(at index: Int) -> Section {
        let section = sections.remove(at: index)
        rebuild()
        return section
    }

    mutating func replaceAll(with newSections: [Section]) {
        sections = newSections
        rebuild()
    }

    /// Rebuilds the Fenwick tree (and the ids' index) in O(sections).
    private mutating func rebuild() {
        tree = [Int](repeating: 0, count: sections.count + 1)
        totalRows = 0
        if options.headersAreSectionHeaders {
            indexByID = Dictionary(uniqueKeysWithValues: sections.enumerated().map { ($1.id, $0) })
        }
        for (index, section) in sections.enumerated() {
            let rowCount = rows(section)
            totalRows += rowCount
            tree[index + 1] += rowCount
            let parent = (index + 1) + ((index + 1) & -(index + 1))
            if parent < tree.count { tree[parent] += tree[index + 1] }
        }
    }
}
