/// The sections of a flat layout and their row counts, with prefix sums in a `CountTree`:
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
    /// Each section's row count.
    private var rowCounts = CountTree()
    var totalRows: Int { rowCounts.total }
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
        rowCounts.prefix(index)
    }

    /// The section holding `position` and the row's offset inside it, or nil when the
    /// position is out of range.
    func locate(_ position: Int) -> (section: Int, offset: Int)? {
        rowCounts.locate(position).map { ($0.index, $0.offset) }
    }

    /// The index of the section with `id` (only when `options.headersAreSectionHeaders`).
    func index(ofID id: Int) -> Int? {
        indexByID[id]
    }

    /// Changes the section at `index` through `body`, keeping the sums right.
    mutating func update(_ index: Int, _ body: (inout Section) -> Void) {
        let before = rows(sections[index])
        body(&sections[index])
        rowCounts.add(rows(sections[index]) - before, at: index)
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

    /// Rebuilds the sums (and the ids' index) in O(sections).
    private mutating func rebuild() {
        if options.headersAreSectionHeaders {
            indexByID = Dictionary(uniqueKeysWithValues: sections.enumerated().map { ($1.id, $0) })
        }
        rowCounts = CountTree(sections.map(rows))
    }
}
