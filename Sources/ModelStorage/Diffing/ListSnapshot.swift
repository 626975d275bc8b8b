import Foundation

/// The whole content of a sectioned list at one moment, as a value: sections with an
/// identity, optional header and footer models, and identified items.
///
/// An item's identity is its `id`; its content is what `==` compares. Two snapshots are
/// compared by identity first (which sections and items are the same ones, wherever they
/// are) and by content second (which of those changed): `difference(from:)` tells what
/// changed, and `MemoryStorage.apply(_:)` makes a storage hold a snapshot, telling its
/// view only what changed.
///
/// ```swift
/// struct Post: Identifiable, Equatable { let id: UUID; var title: String; var day: Date }
///
/// var snapshot = ListSnapshot(items: posts, sectionedBy: { $0.day }, header: { formatted($0) })
/// storage.apply(snapshot)            // the first time: everything is inserted
/// snapshot = ListSnapshot(items: editedPosts, sectionedBy: { $0.day }, header: { formatted($0) })
/// storage.apply(snapshot)            // then only moves, inserts, deletes and updates
/// ```
///
/// Identities need not be unique: an identity repeated is paired as often as it can be
/// (as many times as its fewer occurrences, old or new), in order (the first old one with
/// the first new one, and so on; in a run common to both ends, from the end), and the
/// occurrences left over are deleted or inserted.
public struct ListSnapshot<SectionID: Hashable, Item: Identifiable & Equatable> {
    /// One section: its identity, its items in order, and its header and footer models.
    public struct Section {
        /// The section's identity: a section of the same id in another snapshot is the
        /// same section, moved or not.
        public var id: SectionID
        /// The items, in order.
        public var items: [Item]
        /// The model of the section's header, or nil for none. Compared with `==`: a
        /// different one is shown as an update of the header.
        public var header: (any Equatable & Sendable)?
        /// The model of the section's footer, or nil for none.
        public var footer: (any Equatable & Sendable)?

        /// A section of identity `id` holding `items`, with optional header and footer models.
        public init(id: SectionID, items: [Item] = [], header: (any Equatable & Sendable)? = nil, footer: (any Equatable & Sendable)? = nil) {
            self.id = id
            self.items = items
            self.header = header
            self.footer = footer
        }
    }

    /// The sections, in order.
    public var sections: [Section]

    /// A snapshot of `sections`.
    public init(sections: [Section] = []) {
        self.sections = sections
    }

    /// A snapshot of one section holding `items`.
    public init(items: [Item], section id: SectionID, header: (any Equatable & Sendable)? = nil, footer: (any Equatable & Sendable)? = nil) {
        sections = [Section(id: id, items: items, header: header, footer: footer)]
    }

    /// Sections made from a flat list: each item goes to the section `sectionID` gives it.
    ///
    /// Sections come in the order their first item comes, and items keep their order
    /// within each section; sort `items` first for another order (or sort `sections`
    /// afterwards). O(items), with one hash lookup per item.
    /// - Parameters:
    ///   - items: the items, in order.
    ///   - sectionID: the identity of the section an item belongs to (a day, a letter, a
    ///     category).
    ///   - header: the header model of the section with this identity, or nil for none.
    ///   - footer: the footer model of the section with this identity, or nil for none.
    public init<Items: Sequence<Item>>(
        items: Items,
        sectionedBy sectionID: (Item) -> SectionID,
        header: (SectionID) -> (any Equatable & Sendable)? = { _ in nil },
        footer: (SectionID) -> (any Equatable & Sendable)? = { _ in nil }
    ) {
        var indexByID: [SectionID: Int] = [:]
        var sections: [Section] = []
        for item in items {
            let id = sectionID(item)
            if let index = indexByID[id] {
                sections[index].items.append(item)
            } else {
                indexByID[id] = sections.count
                sections.append(Section(id: id, items: [item]))
            }
        }
        for index in sections.indices {
            sections[index].header = header(sections[index].id)
            sections[index].footer = footer(sections[index].id)
        }
        self.sections = sections
    }

    // MARK: Reading

    /// The number of sections.
    public var numberOfSections: Int { sections.count }

    /// The number of items in all sections. O(sections).
    public var numberOfItems: Int { sections.reduce(0) { $0 + $1.items.count } }

    /// The sections' identities, in order.
    public var sectionIDs: [SectionID] { sections.map(\.id) }

    /// Every item, section after section. O(items): a copy.
    public var allItems: [Item] { sections.flatMap(\.items) }

    /// The index of the first section with identity `id`, or nil. O(sections).
    public func indexOfSection(_ id: SectionID) -> Int? {
        sections.firstIndex { $0.id == id }
    }

    /// The items of the first section with identity `id`, or nil when there is none.
    public func items(inSection id: SectionID) -> [Item]? {
        indexOfSection(id).map { sections[$0].items }
    }

    /// Where the first item with identity `id` is, or nil. O(items).
    public func indexPath(ofItemWithID id: Item.ID) -> IndexPath? {
        for (sectionIndex, section) in sections.enumerated() {
            if let itemIndex = section.items.firstIndex(where: { $0.id == id }) {
                return IndexPath(item: itemIndex, section: sectionIndex)
            }
        }
        return nil
    }

    /// The item at `indexPath`, or nil when there is none.
    public func item(at indexPath: IndexPath) -> Item? {
        guard indexPath.isSectionAndItem, sections.indices.contains(indexPath.section),
              sections[indexPath.section].items.indices.contains(indexPath.item) else { return nil }
        return sections[indexPath.section].items[indexPath.item]
    }

    // MARK: Changing

    /// Appends a section.
    public mutating func appendSection(_ id: SectionID, items: [Item] = [], header: (any Equatable & Sendable)? = nil, footer: (any Equatable & Sendable)? = nil) {
        sections.append(Section(id: id, items: items, header: header, footer: footer))
    }

    /// Appends `items` to the first section with identity `id`, or to a new section at
    /// the end when there is none.
    public mutating func appendItems(_ items: [Item], toSection id: SectionID) {
        if let index = indexOfSection(id) {
            sections[index].items.append(contentsOf: items)
        } else {
            appendSection(id, items: items)
        }
    }

    /// Removes the items for which `shouldRemove` is true, from every section; sections
    /// stay, empty or not.
    public mutating func removeItems(where shouldRemove: (Item) throws -> Bool) rethrows {
        for index in sections.indices {
            try sections[index].items.removeAll(where: shouldRemove)
        }
    }

    /// Removes the sections for which `shouldRemove` is true, with their items.
    public mutating func removeSections(where shouldRemove: (Section) throws -> Bool) rethrows {
        try sections.removeAll(where: shouldRemove)
    }
}

extension ListSnapshot.Section: Equatable {
    /// Same identity, same items (by `==`), and equal header and footer models.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.items == rhs.items
            && supplementariesAreEqual(lhs.header, rhs.header) && supplementariesAreEqual(lhs.footer, rhs.footer)
    }
}

extension ListSnapshot: Equatable {}

extension ListSnapshot.Section: Sendable where SectionID: Sendable, Item: Sendable {}
extension ListSnapshot: Sendable where SectionID: Sendable, Item: Sendable {}

extension ListSnapshot.Section: CustomStringConvertible {
    public var description: String {
        var parts = ["\(id)"]
        if let header { parts.append("header \(header)") }
        if let footer { parts.append("footer \(footer)") }
        return "Section(" + parts.joined(separator: ", ") + ": \(items))"
    }
}

extension ListSnapshot: CustomStringConvertible {
    public var description: String {
        "ListSnapshot(" + sections.map(\.description).joined(separator: ", ") + ")"
    }
}

/// Whether two header or footer models are both absent, or equal values of one type.
@usableFromInline
func supplementariesAreEqual(_ lhs: (any Equatable & Sendable)?, _ rhs: Any?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case (let lhs?, let rhs?): return isEqual(lhs, rhs)
    default: return false
    }
}

/// Whether `rhs` is a `T` equal to `lhs` (`lhs` is opened from its existential).
private func isEqual<T: Equatable>(_ lhs: T, _ rhs: Any) -> Bool {
    (rhs as? T) == lhs
}
