import Foundation
import ModelStorage
import TestSupport

/// An item (or header, or footer) of the snapshot tests: identity `uid`, content
/// `version`; equal when both are (so a new version is a change of content).
struct Entry: TaggedModel, Identifiable, Hashable, Sendable {
    let uid: Int
    var version: Int

    init(uid: Int, version: Int = 0) {
        self.uid = uid
        self.version = version
    }

    var id: Int { uid }
    var bumped: Entry { Entry(uid: uid, version: version + 1) }
    var description: String { version == 0 ? "\(uid)" : "\(uid).v\(version)" }
}

typealias EntrySnapshot = ListSnapshot<String, Entry>

/// Whether two header or footer models are equal (the tests' models are all `Hashable`).
func sameModel(_ lhs: Any?, _ rhs: Any?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case (let lhs?, let rhs?): return (lhs as? AnyHashable) == (rhs as? AnyHashable)
    default: return false
    }
}

/// Entries with these identities, at version 0.
func entries(_ uids: Int...) -> [Entry] {
    uids.map { Entry(uid: $0) }
}

/// What a storage holds, copied: the models of each section, and its header and footer.
struct StoredState {
    var items: [[Any]]
    var headers: [Any?]
    var footers: [Any?]

    init(_ storage: MemoryStorage) {
        let count = storage.numberOfSections()
        items = (0..<count).map { storage.items(inSection: $0) ?? [] }
        headers = (0..<count).map { storage.headerModel(forSection: $0) }
        footers = (0..<count).map { storage.footerModel(forSection: $0) }
    }
}

/// Whether the storage holds exactly `snapshot`: the same sections with the same
/// identities, items, headers and footers. Returns the first difference, or nil.
func mismatch(_ storage: MemoryStorage, _ snapshot: EntrySnapshot) -> String? {
    guard storage.numberOfSections() == snapshot.numberOfSections else {
        return "\(storage.numberOfSections()) sections, expected \(snapshot.numberOfSections)"
    }
    for (index, section) in snapshot.sections.enumerated() {
        let stored = storage.section(atIndex: index)!
        if stored.identifier != AnyHashable(section.id) { return "section \(index) is \(String(describing: stored.identifier)), expected \(section.id)" }
        let items = stored.items.map { $0 as? Entry }
        if items != section.items.map(Optional.init) { return "section \(index) holds \(stored.items), expected \(section.items)" }
        if !sameModel(stored.headerModel, section.header) { return "section \(index) header \(String(describing: stored.headerModel))" }
        if !sameModel(stored.footerModel, section.footer) { return "section \(index) footer \(String(describing: stored.footerModel))" }
    }
    return nil
}

/// Replays a change log, step by step, on a plain model of a storage's old state, checking
/// each index; then checks that the result is `new`: every item that came through from the
/// old state has the identity of the new item in its place, and its content or an update;
/// every header and footer is there when the new section has one, and is the old one only
/// when that equals the new one.
struct ChangeLogReplay {
    enum Token: Equatable {
        /// The old item at this index path; `updated` once an `updateItem` reached it.
        case old(IndexPath, updated: Bool)
        case inserted
    }

    enum Supplementary: Equatable {
        /// The old section's own model.
        case old(section: Int)
        /// Inserted or updated.
        case fresh
    }

    struct Section {
        var old: Int?
        var items: [Token]
        var header: Supplementary?
        var footer: Supplementary?
    }

    var sections: [Section]
    private(set) var failure: String?

    init(_ old: StoredState) {
        sections = old.items.indices.map { section in
            Section(old: section,
                    items: old.items[section].indices.map { .old(IndexPath(item: $0, section: section), updated: false) },
                    header: old.headers[section] == nil ? nil : .old(section: section),
                    footer: old.footers[section] == nil ? nil : .old(section: section))
        }
    }

    private mutating func fail(_ message: String) {
        if failure == nil { failure = message }
    }

    private func hasSection(_ index: Int) -> Bool { sections.indices.contains(index) }

    mutating func replay(_ update: StorageUpdate) {
        for (step, change) in update.changes.enumerated() where failure == nil {
            apply(change, step: step)
        }
    }

    private mutating func apply(_ change: StorageChange, step: Int) {
        let context = "change \(step) (\(change))"
        switch change {
        case .insertSection(let index):
            guard index >= 0, index <= sections.count else { return fail("\(context): out of range") }
            sections.insert(Section(old: nil, items: []), at: index)
        case .deleteSection(let index):
            guard hasSection(index) else { return fail("\(context): out of range") }
            sections.remove(at: index)
        case .moveSection(let from, let to):
            guard hasSection(from), hasSection(to), from != to else { return fail("\(context): out of range or no-op") }
            sections.insert(sections.remove(at: from), at: to)
        case .insertItems(let section, let items):
            guard hasSection(section), items.lowerBound >= 0, items.lowerBound <= sections[section].items.count, !items.isEmpty else {
                return fail("\(context): out of range")
            }
            sections[section].items.insert(contentsOf: repeatElement(.inserted, count: items.count), at: items.lowerBound)
        case .deleteItems(let section, let items):
            guard hasSection(section), items.lowerBound >= 0, items.upperBound <= sections[section].items.count, !items.isEmpty else {
                return fail("\(context): out of range")
            }
            sections[section].items.removeSubrange(items)
        case .moveItem(let from, let to):
            guard hasSection(from.section), sections[from.section].items.indices.contains(from.item), hasSection(to.section) else {
                return fail("\(context): source out of range")
            }
            let token = sections[from.section].items.remove(at: from.item)
            guard to.item >= 0, to.item <= sections[to.section].items.count, from != to else {
                return fail("\(context): destination out of range or no-op")
            }
            sections[to.section].items.insert(token, at: to.item)
        case .updateItem(let indexPath):
            guard hasSection(indexPath.section), sections[indexPath.section].items.indices.contains(indexPath.item) else {
                return fail("\(context): out of range")
            }
            if case .old(let origin, _) = sections[indexPath.section].items[indexPath.item] {
                sections[indexPath.section].items[indexPath.item] = .old(origin, updated: true)
            }
        case .supplementary(let kind, let type, let section):
            guard hasSection(section) else { return fail("\(context): out of range") }
            let current = kind == .header ? sections[section].header : sections[section].footer
            let next: Supplementary?
            switch type {
            case .insert:
                guard current == nil else { return fail("\(context): already there") }
                next = .fresh
            case .delete:
                guard current != nil else { return fail("\(context): not there") }
                next = nil
            case .update:
                guard current != nil else { return fail("\(context): not there") }
                next = .fresh
            case .move:
                return fail("\(context): supplementaries do not move")
            }
            if kind == .header { sections[section].header = next } else { sections[section].footer = next }
        }
    }

    /// The first way the replayed state differs from `new`, or nil.
    func mismatch(old: StoredState, new: EntrySnapshot) -> String? {
        if let failure { return failure }
        guard sections.count == new.sections.count else { return "\(sections.count) sections, expected \(new.sections.count)" }
        for (index, section) in sections.enumerated() {
            let expected = new.sections[index]
            guard section.items.count == expected.items.count else {
                return "section \(index) has \(section.items.count) items, expected \(expected.items.count)"
            }
            for (position, token) in section.items.enumerated() {
                guard case .old(let origin, let updated) = token else { continue }
                guard let model = old.items[origin.section][origin.item] as? Entry else {
                    return "[\(index), \(position)] is the old model \(old.items[origin.section][origin.item]), not an entry"
                }
                let wanted = expected.items[position]
                if model.uid != wanted.uid { return "[\(index), \(position)] is old \(model) from \(origin), expected \(wanted)" }
                if model != wanted, !updated { return "[\(index), \(position)] old \(model) became \(wanted) without an update" }
            }
            for kind in [SupplementaryKind.header, .footer] {
                let replayed = kind == .header ? section.header : section.footer
                let wanted: Any? = kind == .header ? expected.header : expected.footer
                switch replayed {
                case nil:
                    if let wanted { return "section \(index) has no \(kind), expected \(wanted)" }
                case .fresh:
                    if wanted == nil { return "section \(index) has a \(kind), expected none" }
                case .old(let origin):
                    let model = kind == .header ? old.headers[origin] : old.footers[origin]
                    if !sameModel(model, wanted) { return "section \(index) kept the \(kind) \(String(describing: model)), expected \(String(describing: wanted))" }
                }
            }
        }
        return nil
    }

    /// The old index paths of the items that came through, with where they ended.
    var keptItems: [(from: IndexPath, to: IndexPath)] {
        var result: [(from: IndexPath, to: IndexPath)] = []
        for (sectionIndex, section) in sections.enumerated() {
            for case let (position, .old(origin, _)) in section.items.enumerated() {
                result.append((origin, IndexPath(item: position, section: sectionIndex)))
            }
        }
        return result
    }

    /// The old sections that came through, with where they ended.
    var keptSections: [(from: Int, to: Int)] {
        sections.enumerated().compactMap { index, section in section.old.map { ($0, index) } }
    }
}

/// Random snapshots for a seed: each derived from the one before by deleting, inserting,
/// moving (within and across sections) and changing items, and deleting, inserting and
/// moving sections and changing their headers and footers. Seeds `seed % 3 == 0` repeat
/// identities (items and now and then sections); the others keep them unique.
struct RandomSnapshots {
    private var random: SeededGenerator
    let repeatsIdentities: Bool
    private var nextUID = 0
    private var nextSection = 0

    /// Items in a first snapshot's section, at most (60 for seeds `seed % 7 == 3`).
    private let sectionSize: Int

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
        repeatsIdentities = seed % 3 == 0
        sectionSize = seed % 7 == 3 ? 60 : 8
    }

    mutating func int(_ bound: Int) -> Int {
        Int(random.next() % UInt64(bound))
    }

    mutating func chance(_ percent: Int) -> Bool {
        int(100) < percent
    }

    private mutating func newEntry() -> Entry {
        if repeatsIdentities, nextUID > 0, chance(25) { return Entry(uid: int(nextUID), version: int(2)) }
        nextUID += 1
        return Entry(uid: nextUID - 1)
    }

    private mutating func newSectionID() -> String {
        if repeatsIdentities, nextSection > 0, chance(10) { return "s\(int(nextSection))" }
        nextSection += 1
        return "s\(nextSection - 1)"
    }

    /// A header (or footer) model of the section `id`: its identity is the section's, so
    /// that sections paired in order when their identities repeat keep their header rows.
    private func supplementary(_ kind: SupplementaryKind, of id: String, version: Int = 0) -> Entry {
        Entry(uid: (kind == .header ? 1_000_000 : 2_000_000) + Int(id.dropFirst())!, version: version)
    }

    /// The next header or footer of section `id`: none, the current one with new content,
    /// a new one where there was none, or the current one.
    private mutating func supplementary(_ kind: SupplementaryKind, of id: String, _ current: (any Equatable & Sendable)?) -> (any Equatable & Sendable)? {
        switch int(6) {
        case 0: return nil
        case 1: return (current as? Entry)?.bumped ?? supplementary(kind, of: id, version: int(3))
        default: return current
        }
    }

    /// A first snapshot: up to five sections of up to `sectionSize` items.
    mutating func first() -> EntrySnapshot {
        var snapshot = EntrySnapshot()
        for _ in 0..<int(6) {
            let id = newSectionID()
            snapshot.appendSection(id, items: (0..<int(sectionSize + 1)).map { _ in newEntry() },
                                   header: chance(50) ? supplementary(.header, of: id) : nil,
                                   footer: chance(30) ? supplementary(.footer, of: id) : nil)
        }
        return snapshot
    }

    /// A snapshot derived from `old`; sometimes (one in twelve) empty or quite different.
    mutating func next(after old: EntrySnapshot) -> EntrySnapshot {
        if chance(8) { return chance(50) ? EntrySnapshot() : first() }
        var sections = old.sections
        // Sections: delete, insert, move, change headers and footers.
        for index in sections.indices.reversed() where chance(15) { sections.remove(at: index) }
        for _ in 0..<int(3) where chance(40) {
            let id = newSectionID()
            sections.insert(.init(id: id, items: [], header: chance(50) ? supplementary(.header, of: id) : nil),
                            at: int(sections.count + 1))
        }
        if sections.count > 1 {
            for _ in 0..<int(3) {
                let section = sections.remove(at: int(sections.count))
                sections.insert(section, at: int(sections.count + 1))
            }
        }
        for index in sections.indices {
            sections[index].header = supplementary(.header, of: sections[index].id, sections[index].header)
            sections[index].footer = supplementary(.footer, of: sections[index].id, sections[index].footer)
        }
        guard !sections.isEmpty else { return EntrySnapshot(sections: sections) }
        // Items: delete, change, insert, move within and across sections.
        for index in sections.indices {
            sections[index].items.removeAll { _ in chance(20) }
            for position in sections[index].items.indices where chance(20) {
                sections[index].items[position] = sections[index].items[position].bumped
            }
            for _ in 0..<int(sectionSize / 2) {
                sections[index].items.insert(newEntry(), at: int(sections[index].items.count + 1))
            }
        }
        for _ in 0..<int(sectionSize) {
            let from = int(sections.count)
            guard !sections[from].items.isEmpty else { continue }
            let item = sections[from].items.remove(at: int(sections[from].items.count))
            let to = int(sections.count)
            sections[to].items.insert(item, at: int(sections[to].items.count + 1))
        }
        if chance(10), let index = sections.indices.randomElement(using: &random) {
            sections[index].items.shuffle(using: &random)
        }
        return EntrySnapshot(sections: sections)
    }
}
