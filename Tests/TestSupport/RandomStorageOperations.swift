import Foundation
import ModelStorage

// Shared by the storage tests and the GTK tests: the seeded random storage operations (their
// models are in TaggedModels.swift), so both run the very same operations.

/// Which row a flat row is, independent of where it is.
public enum RowID: Hashable {
    case header(Int), item(Int), footer(Int)
}

/// SplitMix64: a small seeded generator, so a failing run can be replayed from its seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Any generator, as a generator (a protocol's existential does not conform to it).
struct AnyGenerator: RandomNumberGenerator {
    var base: any RandomNumberGenerator

    mutating func next() -> UInt64 {
        base.next()
    }
}

/// One step of a random run: what was done, and which rows' content it changed.
public struct RandomStep {
    /// The operations, for failure messages.
    public let description: String
    /// Rows whose content an operation replaced in place.
    public let touched: Set<RowID>
    /// Whether the step was an operation with bad input, which must change nothing.
    public let isInvalid: Bool
}

/// Random single and batched operations on a MemoryStorage of `Tagged` models: items and
/// sections, moves across sections, headers and footers (also on empty sections), content
/// updates, reloads, and now and then an operation with bad input.
///
/// A run that mixes model types makes one operation in three add `WideTagged` items instead,
/// so that sections hold models of two types, of which one is boxed when stored as `Any`.
public final class RandomStorageOperations {
    public let storage: MemoryStorage
    private var random: AnyGenerator
    private var nextUID = 0
    private let mixesModelTypes: Bool

    /// - Parameters:
    ///   - storage: the storage to change.
    ///   - seed: the seed of the operations: the same seed, the same operations.
    ///   - mixesModelTypes: whether some items are `WideTagged`. A run that does not mix
    ///     draws no extra random numbers: a seed gives the operations it always gave.
    public convenience init(storage: MemoryStorage, seed: UInt64, mixesModelTypes: Bool = false) {
        self.init(storage: storage, generator: SeededGenerator(seed: seed), mixesModelTypes: mixesModelTypes)
    }

    /// Operations drawn from `generator`: a fuzzer's bytes, for one.
    public init(storage: MemoryStorage, generator: some RandomNumberGenerator, mixesModelTypes: Bool = false) {
        self.storage = storage
        random = AnyGenerator(base: generator)
        self.mixesModelTypes = mixesModelTypes
    }

    /// Performs the next step: one in ten is an operation with bad input, one in four of
    /// the rest a `performUpdates` batch of up to six operations.
    public func next() -> RandomStep {
        if int(10) == 0 {
            return RandomStep(description: invalidOperation(), touched: [], isInvalid: true)
        }
        var touched = Set<RowID>()
        var description = ""
        if int(4) == 0 {
            storage.performUpdates {
                for _ in 0..<(1 + int(6)) { description += randomOperation(&touched) + "; " }
            }
        } else {
            description = randomOperation(&touched)
        }
        return RandomStep(description: description, touched: touched, isInvalid: false)
    }

    private func ip(_ section: Int, _ item: Int) -> IndexPath {
        IndexPath(item: item, section: section)
    }

    private func int(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &random)
    }

    private func newModel() -> Tagged {
        nextUID += 1
        return Tagged(uid: nextUID, version: 0)
    }

    private func newModels(_ count: Int) -> [Tagged] {
        (0..<count).map { _ in newModel() }
    }

    /// A new item model of type `M`.
    private func newItem<M: TaggedModel>(_ type: M.Type) -> M {
        nextUID += 1
        return M(uid: nextUID, version: 0)
    }

    /// `count` new item models of type `M`.
    private func newItems<M: TaggedModel>(_ type: M.Type, _ count: Int) -> [M] {
        (0..<count).map { _ in newItem(type) }
    }

    /// The type of the items an operation adds: `Tagged`, or in a run that mixes model
    /// types, `WideTagged` one time in three.
    private func itemType() -> any TaggedModel.Type {
        mixesModelTypes && int(3) == 0 ? WideTagged.self : Tagged.self
    }

    private var allItems: [(IndexPath, any TaggedModel)] {
        (0..<storage.numberOfSections()).flatMap { section in
            (storage.items(inSection: section) ?? []).enumerated().map { (ip(section, $0.offset), $0.element as! any TaggedModel) }
        }
    }

    /// Removes one item equal to each of `items`, in one update: a call per model type.
    private func removeItems(_ items: [any TaggedModel]) {
        let tagged = items.compactMap { $0 as? Tagged }
        let wide = items.compactMap { $0 as? WideTagged }
        guard !wide.isEmpty else {
            storage.removeItems(tagged)
            return
        }
        storage.performUpdates {
            storage.removeItems(tagged)
            storage.removeItems(wide)
        }
    }

    private func randomItem() -> (IndexPath, any TaggedModel)? {
        let items = allItems
        return items.isEmpty ? nil : items[int(items.count)]
    }

    /// A header or footer model for a section whose current one is `current`: sometimes
    /// none, else the current one with new content (replacing a model keeps its row), or a
    /// new one where there was none.
    private func randomSupplementary(_ current: Any?, _ touched: inout Set<RowID>, _ id: (Int) -> RowID) -> Tagged? {
        guard int(3) > 0 else { return nil }
        guard let current = current as? Tagged else { return newModel() }
        touched.insert(id(current.uid))
        return current.bumped
    }

    func randomOperation(_ touched: inout Set<RowID>) -> String {
        randomOperation(adding: itemType(), &touched)
    }

    /// A random operation; the items it adds are of type `M`.
    private func randomOperation<M: TaggedModel>(adding type: M.Type, _ touched: inout Set<RowID>) -> String {
        let sections = storage.numberOfSections()
        let total = storage.totalNumberOfItems
        var choice = int(100)
        if total > 60, choice < 32 { choice = 32 + int(20) }
        if sections > 8, choice >= 70, choice < 74 { choice = 74 }
        switch choice {
        case 0..<12:
            let section = int(sections + 2)
            storage.addItem(newItem(type), toSection: section)
            return "addItem to \(section)"
        case 12..<18:
            let section = int(sections + 1)
            storage.addItems(newItems(type, int(4)), toSection: section)
            return "addItems to \(section)"
        case 18..<28:
            let section = int(sections + 1)
            let target = ip(section, int(storage.numberOfItems(inSection: section) + 1))
            try? storage.insertItem(newItem(type), to: target)
            return "insertItem at \(target)"
        case 28..<32:
            var counts = (0..<sections).map { storage.numberOfItems(inSection: $0) }
            var targets: [IndexPath] = []
            for _ in 0..<(1 + int(4)) where !counts.isEmpty {
                let section = int(counts.count)
                targets.append(ip(section, int(counts[section] + 1)))
                counts[section] += 1
            }
            try? storage.insertItems(newItems(type, targets.count), to: targets)
            return "insertItems at \(targets.map { [$0.section, $0.item] })"
        case 32..<40:
            guard let (_, item) = randomItem() else { return "nothing to remove" }
            try? storage.removeItem(item)
            return "removeItem \(item)"
        case 40..<44:
            let items = allItems.filter { _ in int(3) == 0 }.map(\.1)
            removeItems(items)
            return "removeItems \(items)"
        case 44..<48:
            let indexPaths = allItems.filter { _ in int(3) == 0 }.map(\.0)
            storage.removeItems(at: indexPaths)
            return "removeItems at \(indexPaths.map { [$0.section, $0.item] })"
        case 48..<50:
            guard sections > 0 else { return "no section to empty" }
            let section = int(sections)
            storage.removeItems(fromSection: section)
            return "removeItems fromSection \(section)"
        case 50:
            storage.removeAllItems()
            return "removeAllItems"
        case 51..<61:
            guard let (source, _) = randomItem() else { return "nothing to move" }
            let section = int(sections)
            let count = storage.numberOfItems(inSection: section) - (section == source.section ? 1 : 0)
            let destination = ip(section, int(count + 1))
            storage.moveItem(at: source, to: destination)
            return "moveItem \([source.section, source.item]) to \([destination.section, destination.item])"
        case 61..<66:
            guard let (_, item) = randomItem() else { return "nothing to reload" }
            touched.insert(.item(item.uid))
            storage.reloadItem(item.bumped)
            return "reloadItem \(item)"
        case 66..<70:
            guard let (_, item) = randomItem() else { return "nothing to replace" }
            touched.insert(.item(item.uid))
            try? storage.replaceItem(item, with: item.bumped)
            return "replaceItem \(item)"
        case 70..<74:
            let index = int(sections + 1)
            let section = SectionModel(items: newItems(type, int(4)), headerModel: int(2) == 0 ? newModel() : nil,
                                       footerModel: int(2) == 0 ? newModel() : nil)
            storage.insertSection(section, atIndex: index)
            return "insertSection at \(index) with \(section.numberOfItems) items"
        case 74..<78:
            let indexes = IndexSet((0..<sections).filter { _ in int(3) == 0 })
            storage.deleteSections(indexes)
            return "deleteSections \(Array(indexes))"
        case 78..<82:
            guard sections > 0 else { return "no section to move" }
            let (from, to) = (int(sections), int(sections))
            storage.moveSection(from, toSection: to)
            return "moveSection \(from) to \(to)"
        case 82..<86:
            let section = int(sections + 1)
            storage.setItems(newItems(type, int(5)), forSection: section)
            return "setItems forSection \(section)"
        case 86..<92:
            let section = int(sections + 1)
            let model = randomSupplementary(storage.headerModel(forSection: section), &touched, RowID.header)
            storage.setSectionHeaderModel(model, forSection: section)
            return "setSectionHeaderModel \(model.map(\.description) ?? "nil") for \(section)"
        case 92..<96:
            let section = int(sections + 1)
            let model = randomSupplementary(storage.footerModel(forSection: section), &touched, RowID.footer)
            storage.setSectionFooterModel(model, forSection: section)
            return "setSectionFooterModel \(model.map(\.description) ?? "nil") for \(section)"
        case 96:
            let models = (0..<int(sections + 2)).map { randomSupplementary(storage.headerModel(forSection: $0), &touched, RowID.header) }
            storage.setSectionHeaderModels(models)
            return "setSectionHeaderModels \(models)"
        case 97:
            storage.setItemsForAllSections((0..<int(sections + 2)).map { _ in newItems(type, int(4)) })
            return "setItemsForAllSections"
        case 98:
            var inner = ""
            storage.updateWithoutAnimations {
                inner = randomOperation(&touched) + ", " + randomOperation(&touched)
            }
            return "updateWithoutAnimations { \(inner) }"
        default:
            let index = int(sections + 1)
            let header = randomSupplementary(storage.headerModel(forSection: index), &touched, RowID.header)
            storage.setSection(SectionModel(items: newItems(type, int(3)), headerModel: header), forSection: index)
            return "setSection \(index)"
        }
    }

    /// An index path of another shape than [section, item]: no index, one, or three.
    private func malformedIndexPath() -> IndexPath {
        switch int(3) {
        case 0: IndexPath()
        case 1: IndexPath(index: int(3))
        default: IndexPath(indexes: [int(2), int(2), int(2)])
        }
    }

    /// An operation with bad input: it must report one anomaly, change nothing and
    /// deliver nothing. Returns what it tried.
    private func invalidOperation() -> String {
        let sections = storage.numberOfSections()
        let description: String
        switch int(13) {
        case 0:
            let target = ip(sections + 1, 1)
            _ = try? storage.insertItem(newModel(), to: target)
            description = "insertItem past the end"
        case 1:
            _ = try? storage.removeItem(newModel())
            description = "removeItem of a missing item"
        case 2:
            storage.moveItem(at: ip(sections, 0), to: ip(0, 0))
            description = "moveItem from a missing section"
        case 3:
            storage.deleteSections(IndexSet([0, sections]))
            description = "deleteSections past the end"
        case 4:
            storage.removeItems(at: [ip(0, storage.numberOfItems(inSection: 0))])
            description = "removeItems at a missing index path"
        case 5:
            _ = try? storage.insertItems(newModels(2), to: [ip(0, 0)])
            description = "insertItems with a count mismatch"
        case 6:
            storage.insertSection(SectionModel(items: newModels(1)), atIndex: sections + 1)
            description = "insertSection past the end"
        case 7:
            storage.addItems([newModel(), nil], toSection: 0)
            description = "addItems with a nil"
        case 8:
            let path = malformedIndexPath()
            _ = try? storage.insertItem(newModel(), to: path)
            description = "insertItem at \(path.shortDescription)"
        case 9:
            let path = malformedIndexPath()
            storage.moveItem(at: path, to: ip(0, 0))
            description = "moveItem from \(path.shortDescription)"
        case 10:
            let path = malformedIndexPath()
            storage.removeItems(at: allItems.prefix(1).map(\.0) + [path])
            description = "removeItems at \(path.shortDescription) and maybe a valid path"
        case 11:
            let section = [Int.max, 1 << 40, MemoryStorage.maximumNewSections + sections + 1][int(3)]
            storage.addItem(newModel(), toSection: section)
            description = "addItem to section \(section)"
        default:
            let target = ip(int(sections + 1), -1 - int(3))
            _ = try? storage.insertItem(newModel(), to: target)
            description = "insertItem at \(target.shortDescription)"
        }
        return description
    }
}
