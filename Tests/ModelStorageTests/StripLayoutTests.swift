import Foundation
import ModelStorage
import TestSupport
import Testing

/// What a grid row shows, by identity: a header, the items of a strip (uid and version of
/// each), or a footer.
private enum GridRowContent: Equatable, CustomStringConvertible {
    case header(uid: Int, version: Int)
    case strip([Int])
    case footer(uid: Int, version: Int)

    var description: String {
        switch self {
        case .header(let uid, let version): return "header #\(uid).v\(version)"
        case .strip(let items): return "strip \(items)"
        case .footer(let uid, let version): return "footer #\(uid).v\(version)"
        }
    }
}

/// The storage laid out in strips directly, without `StripLayout`: what the grid must show.
private func referenceGrid(of storage: MemoryStorage, columns: Int, _ options: FlatLayoutOptions) -> [GridRowContent] {
    var rows: [GridRowContent] = []
    for section in 0..<storage.numberOfSections() {
        let items = (storage.items(inSection: section) ?? []).map { $0 as! any TaggedModel }
        if let header = storage.headerModel(forSection: section) as? any TaggedModel, !items.isEmpty || options.displayHeaderOnEmptySection {
            rows.append(.header(uid: header.uid, version: header.version))
        }
        for start in stride(from: 0, to: items.count, by: columns) {
            // uid * 1000 + version: one number per shown item and its content.
            rows.append(.strip(items[start..<min(start + columns, items.count)].map { $0.uid * 1000 + $0.version }))
        }
        if let footer = storage.footerModel(forSection: section) as? any TaggedModel, !items.isEmpty || options.displayFooterOnEmptySection {
            rows.append(.footer(uid: footer.uid, version: footer.version))
        }
    }
    return rows
}

/// What a row of `layout` shows now, read from the storage.
private func content(of row: StripRow, in storage: MemoryStorage) -> GridRowContent {
    switch row {
    case .header(let section):
        let header = storage.headerModel(forSection: section) as! any TaggedModel
        return .header(uid: header.uid, version: header.version)
    case .strip(let section, let items):
        return .strip(items.map { storage.item(at: IndexPath(item: $0, section: section)) as! any TaggedModel }.map { $0.uid * 1000 + $0.version })
    case .footer(let section):
        let footer = storage.footerModel(forSection: section) as! any TaggedModel
        return .footer(uid: footer.uid, version: footer.version)
    }
}

@Suite("StripLayout: a sectioned storage as full-width headers and footers around strips of tiles")
struct StripLayoutTests {
    /// 100 sections of 1,000 items, each with a header and a footer, in strips of 5.
    private static func hundredSections() -> (StorageFixture, StripLayout) {
        let fixture = StorageFixture()
        var uid = 0
        for section in 0..<100 {
            fixture.storage.setSectionHeaderModel(Tagged(uid: -1 - section, version: 0), forSection: section)
            fixture.storage.setSectionFooterModel(Tagged(uid: -1000 - section, version: 0), forSection: section)
            fixture.storage.addItems((0..<1_000).map { _ in defer { uid += 1 }; return Tagged(uid: uid, version: 0) }, toSection: section)
        }
        _ = fixture.recorder.take()
        return (fixture, StripLayout(storage: fixture.storage, columns: 5))
    }

    @Test("Each section is its header, its items in strips of the column count, then its footer")
    func layout() {
        let storage = MemoryStorage()
        storage.setSectionHeaderModels(["A", "B", "C"])
        storage.setSectionFooterModel("end of A", forSection: 0)
        storage.addItems(Array(0..<7), toSection: 0)
        storage.addItems(Array(0..<3), toSection: 2)
        let layout = StripLayout(storage: storage, columns: 3)
        #expect(layout.rows.map(\.description) == ["header 0", "strip 0: 0..<3", "strip 0: 3..<6", "strip 0: 6", "footer 0",
                                                   "header 1", "header 2", "strip 2: 0..<3"])
        #expect(layout.position(ofItem: IndexPath(item: 4, section: 0)) == 2)
        #expect(layout.position(ofItem: IndexPath(item: 2, section: 2)) == 7)
        #expect(layout.position(ofItem: IndexPath(item: 3, section: 2)) == nil)
        #expect(layout.position(ofHeader: 1) == 5)
        #expect(layout.position(ofFooter: 2) == nil)
        #expect(layout.numberOfStrips(inSection: 0) == 3)

        let hidden = StripLayout(storage: storage, columns: 3, options: FlatLayoutOptions(displayHeaderOnEmptySection: false))
        #expect(!hidden.rows.contains(.header(section: 1)), "an empty section shows no header when told so")
    }

    @Test("Inserting one item into section 50 of 100 re-lays out only that section's strips from the insertion on")
    func insertIntoOneSection() throws {
        let (fixture, startLayout) = Self.hundredSections()
        var layout = startLayout
        let start = layout.position(ofHeader: 50)!
        // Strip 100 of section 50 holds items 500..<505; the section has 200 strips.
        try fixture.storage.insertItem(Tagged(uid: 1_000_000, version: 0), to: IndexPath(item: 502, section: 50))
        let changes = layout.apply(fixture.delivered[0])
        #expect(changes.splices == [Splice(position: start + 1 + 100, removed: 100, added: 101)],
                "the strips from the one holding item 502 to the section's end, which gains a strip")
        #expect(layout.numberOfStrips(inSection: 50) == 201)

        try fixture.storage.insertItem(Tagged(uid: 1_000_001, version: 0), to: IndexPath(item: 1_000, section: 50))
        #expect(layout.apply(fixture.delivered[0]).splices == [Splice(position: start + 1 + 200, removed: 1, added: 1)],
                "at the end, only the last strip, which had room")
    }

    @Test("A content update is the one strip updated in place, with no splice")
    func contentUpdate() throws {
        let (fixture, startLayout) = Self.hundredSections()
        var layout = startLayout
        try fixture.storage.replaceItem(Tagged(uid: 50_507, version: 0), with: Tagged(uid: 50_507, version: 1))
        let changes = layout.apply(fixture.delivered[0])
        #expect(changes.splices.isEmpty)
        #expect(changes.updatedPositions == [layout.position(ofItem: IndexPath(item: 507, section: 50))!])
    }

    @Test("A move inside a section re-lays out the strips between its two places; across sections, each section's tail")
    func moves() {
        let (fixture, startLayout) = Self.hundredSections()
        var layout = startLayout
        let start = layout.position(ofHeader: 3)! + 1
        fixture.storage.moveItem(at: IndexPath(item: 12, section: 3), to: IndexPath(item: 3, section: 3))
        #expect(layout.apply(fixture.delivered[0]).splices == [Splice(position: start, removed: 3, added: 3)])

        fixture.storage.moveItem(at: IndexPath(item: 997, section: 3), to: IndexPath(item: 999, section: 4))
        let end3 = layout.position(ofFooter: 3)!
        #expect(layout.apply(fixture.delivered[0]).splices.count == 2, "the last strip of section 3 and of section 4")
        #expect(layout.position(ofFooter: 3) == end3, "section 3 keeps 200 strips (999 items)")
        #expect(layout.numberOfStrips(inSection: 4) == 201)
    }

    @Test("A re-flow to another column count is one splice replacing every row, and keeps every item")
    func reflow() {
        let (fixture, startLayout) = Self.hundredSections()
        var layout = startLayout
        let oldCount = layout.count
        #expect(layout.reflow(columns: 5, storage: fixture.storage).isEmpty, "the same width changes nothing")
        let changes = layout.reflow(columns: 8, storage: fixture.storage)
        #expect(changes.splices == [Splice(position: 0, removed: oldCount, added: 100 * (2 + 125))])
        #expect(layout.rows.map { content(of: $0, in: fixture.storage) } == referenceGrid(of: fixture.storage, columns: 8, FlatLayoutOptions()))
    }

    /// Seeds 0..<120 in groups run in parallel; `STORAGE_SEED=n` reruns one seed.
    static let seedGroups: [Range<UInt64>] = {
        if let seed = ProcessInfo.processInfo.environment["STORAGE_SEED"].flatMap(UInt64.init) {
            return [seed..<(seed + 1)]
        }
        return stride(from: 0, to: 120, by: 30).map { UInt64($0)..<UInt64($0 + 30) }
    }()

    @Test("300 random operations per seed, replayed as splices on what the grid showed, give what it must show",
          arguments: seedGroups)
    func randomOperations(seeds: Range<UInt64>) {
        for seed in seeds {
            if let failure = Self.replay(seed: seed, operations: 300) {
                Issue.record("\(failure) (rerun with STORAGE_SEED=\(seed))")
                return
            }
        }
    }

    /// Runs the seed's operations; each update's splices and in-place updates are applied to
    /// the rows shown before (rows left alone keep their old content), and must give exactly
    /// the rows the storage calls for. Every 40 steps the grid re-flows to another width.
    private static func replay(seed: UInt64, operations count: Int) -> String? {
        let fixture = StorageFixture()
        let operations = RandomStorageOperations(storage: fixture.storage, seed: seed)
        let options = FlatLayoutOptions(displayHeaderOnEmptySection: seed % 2 == 0, displayFooterOnEmptySection: seed % 4 < 2)
        var columns = 1 + Int(seed % 5)
        var layout = StripLayout(storage: fixture.storage, columns: columns, options: options)
        var shown = referenceGrid(of: fixture.storage, columns: columns, options)
        for step in 0..<count {
            let description: String
            let changes: FlatChanges
            if step % 40 == 39 {
                columns = columns % 6 + 1
                description = "re-flow to \(columns) columns"
                changes = layout.reflow(columns: columns, storage: fixture.storage)
            } else {
                description = operations.next().description
                let delivered = fixture.recorder.take()
                if delivered.reloads > 0 {
                    changes = layout.reload(from: fixture.storage)
                } else if let update = delivered.updates.first {
                    changes = layout.apply(update)
                } else {
                    changes = FlatChanges()
                }
            }
            for splice in changes.splices {
                guard splice.position >= 0, splice.position + splice.removed <= shown.count else {
                    return "step \(step), \(description): splice \(splice) out of \(shown.count) rows"
                }
                let added = (splice.position..<(splice.position + splice.added)).map { layout.row(at: $0).map { content(of: $0, in: fixture.storage) } }
                shown.replaceSubrange(splice.position..<(splice.position + splice.removed), with: added.map { $0 ?? .strip([]) })
            }
            for position in changes.updatedPositions {
                guard let row = layout.row(at: position) else { return "step \(step), \(description): updated row \(position) is gone" }
                shown[position] = content(of: row, in: fixture.storage)
            }
            let expected = referenceGrid(of: fixture.storage, columns: columns, options)
            if shown != expected {
                let first = zip(shown, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(shown.count, expected.count)
                return "step \(step), \(description) -> \(changes): row \(first) shows \(first < shown.count ? shown[first].description : "nothing"), "
                    + "expected \(first < expected.count ? expected[first].description : "nothing") (\(shown.count) rows, expected \(expected.count))"
            }
            if layout.rows.map({ content(of: $0, in: fixture.storage) }) != expected {
                return "step \(step), \(description): the layout's rows differ from the storage's"
            }
        }
        return nil
    }
}
