import Foundation
@testable import ModelStorage
import TestSupport
import Testing

@Suite("PagedRows: the first rows shown before every key is read")
struct FirstRowsTests {
    /// 10 rows in two sections (`a`: keys 100…105, `b`: keys 106…109), pages of 4 rows; the
    /// reads asked for, answered by the test.
    final class Rows {
        let rows = PagedRows<String, String>(pageSize: 4, maximumPages: 8)
        var asked: [(page: Int, keys: [Int64], generation: Int)] = []
        let counts: [(value: String, count: Int)] = [("a", 6), ("b", 4)]
        let keys: [Int64] = Array(100...109)

        init() { rows.readPage = { [unowned self] in asked.append(($0, $1, $2)) } }

        /// The answer to the read `ask`: the record of each of its keys.
        func arrive(_ ask: (page: Int, keys: [Int64], generation: Int)) -> StorageUpdate? {
            try? rows.pageArrived(.success(ask.keys.map { ($0, "record \($0)") }), page: ask.page, generation: ask.generation)?.get()
        }

        var everyKey: KeyRead<String, String> {
            KeyRead(keys: try! KeyList(counts: counts, keys: keys), update: StorageUpdate(), pages: [:])
        }
    }

    @Test("rows past the first keys are placeholders with no key, which take their keys and records in place")
    func unkeyedRowsTakeTheirKeysInPlace() throws {
        let fixture = Rows()
        let rows = fixture.rows
        // The first 5 keys: page 1 (rows 4…7) has one key read.
        let first = try #require(KeyRead<String, String>.firstRows(counts: fixture.counts, keys: Array(fixture.keys.prefix(5))))
        #expect(rows.show(first) == nil, "shown by reloading")
        #expect(!rows.isLoaded)
        #expect(rows.places.sectionCount == 2 && rows.places.count(inSection: 0) == 6 && rows.places.count(inSection: 1) == 4)

        // The list binds rows 3…8: the keyed ones ask for their pages, with the keys read.
        let bound = (3...8).map { rows.row(at: $0) }
        #expect(bound.map { $0?.id } == [103, 104, nil, nil, nil, nil])
        #expect(bound.allSatisfy { $0?.isPlaceholder == true })
        #expect(fixture.asked.map(\.page) == [0, 1])
        #expect(fixture.asked[1].keys == [104], "only the key read")
        #expect(rows.row(at: 10) == nil, "none past the last row")

        // Page 1 arrives with its one row: not short (the keys are read again only for that).
        var shortPages = 0
        rows.pageCameShort = { shortPages += 1 }
        let pageOne = fixture.asked.removeLast()
        let update = try #require(fixture.arrive(pageOne))
        #expect(update.changes == [.updateItem(IndexPath(item: 4, section: 0))])
        #expect(shortPages == 0)

        // Every key: no change, and the rows given out with no key have their pages read.
        let keyed = try #require(rows.show(fixture.everyKey))
        #expect(keyed.isEmpty)
        #expect(rows.isLoaded)
        #expect(fixture.asked.map(\.page) == [0, 1, 2])
        #expect(fixture.asked[1].keys == [104, 105, 106, 107])
        #expect(fixture.asked[2].keys == [108, 109])
        let pageTwo = fixture.asked.removeLast()
        let again = fixture.asked.removeLast()
        let updates = [try #require(fixture.arrive(again)), try #require(fixture.arrive(pageTwo))]
        // Rows 5…8 (a:5, b:0…2) take their keys and records; row 4 had its record already.
        #expect(updates[0].changes == [.updateItem(IndexPath(item: 5, section: 0)), .updateItem(IndexPath(item: 0, section: 1)),
                                       .updateItem(IndexPath(item: 1, section: 1))])
        #expect(updates[1].changes == [.updateItem(IndexPath(item: 2, section: 1))])
        #expect((updates[1].updatedObjects[IndexPath(item: 2, section: 1)] as? PagedRow<String>)?.id == 108)
        #expect(shortPages == 0)
    }

    @Test("a page asked for with part of its keys, still being read when every key arrives, is read again whole")
    func aPageBeingReadIsReadAgainWhole() throws {
        let fixture = Rows()
        let rows = fixture.rows
        let first = try #require(KeyRead<String, String>.firstRows(counts: fixture.counts, keys: Array(fixture.keys.prefix(5))))
        _ = rows.show(first)
        _ = (4...5).map { rows.row(at: $0) }
        #expect(fixture.asked.map(\.keys) == [[104]])
        // Every key comes while page 1 is being read: it is not asked for twice at once.
        _ = rows.show(fixture.everyKey)
        #expect(fixture.asked.count == 1)
        let update = try #require(fixture.arrive(fixture.asked.removeFirst()))
        #expect(update.changes == [.updateItem(IndexPath(item: 4, section: 0))])
        #expect(fixture.asked.map(\.keys) == [[104, 105, 106, 107]], "read again with every key of the page")
        let whole = try #require(fixture.arrive(fixture.asked.removeFirst()))
        #expect(whole.changes == [.updateItem(IndexPath(item: 5, section: 0))])
    }

    @Test("the same first rows shown again change nothing; every key with other counts than the first rows corrects them at the sections' ends")
    func firstRowsAgainAndOtherCounts() throws {
        let fixture = Rows()
        let rows = fixture.rows
        let first = try #require(KeyRead<String, String>.firstRows(counts: fixture.counts, keys: Array(fixture.keys.prefix(5))))
        #expect(rows.show(first) == nil)
        // A read of every key failed; the next read tells the same first rows again.
        #expect(rows.show(first) == StorageUpdate(), "no reload: the list keeps its place")
        let other = try #require(KeyRead<String, String>.firstRows(counts: [("a", 5), ("b", 4)], keys: Array(fixture.keys.prefix(5))))
        #expect(rows.show(other) == nil, "other counts: a reload")
        // Every key, with sections the first rows did not have: the rows past the first
        // (placeholders) go and come at the sections' ends.
        let split = KeyRead<String, String>(keys: try KeyList(counts: [("a", 5), ("b", 2), ("c", 2)], keys: Array(fixture.keys.prefix(9))),
                                            update: StorageUpdate(), pages: [:])
        #expect(rows.show(split) == StorageUpdate([.deleteItems(section: 1, items: 2..<4), .insertSection(2),
                                                   .supplementary(.header, .insert, section: 2), .insertItems(section: 2, items: 0..<2)]))
        #expect(rows.isLoaded)
        // A first row in another place than every key says: a reload.
        let again = Rows()
        _ = again.rows.show(try #require(KeyRead<String, String>.firstRows(counts: again.counts, keys: Array(again.keys.prefix(5)))))
        let moved = KeyRead<String, String>(keys: try KeyList(counts: [("a", 3), ("b", 7)], keys: again.keys), update: StorageUpdate(), pages: [:])
        #expect(again.rows.show(moved) == nil)
    }

    @Test("estimated counts: the sections the first rows end before are counted from them, the rest estimated, then corrected in place")
    func estimatedCounts() throws {
        let keys: [(key: Int64, section: String)] = [(1, "a"), (2, "a"), (3, "b"), (4, "b")]
        // "a" estimated at 5 but ends in the first rows (2); "b" at least its 2; "c", "d" as estimated; "e" estimated empty.
        let estimates: [(value: String, count: Int)] = [("a", 5), ("b", 6), ("c", 3), ("d", 4), ("e", 0)]
        let first = try #require(KeyRead<String, String>.firstRows(estimates: estimates, keys: keys, complete: false))
        #expect(first.keys.sectionValues == ["a", "b", "c", "d"])
        #expect((0..<4).map(first.keys.count(inSection:)) == [2, 6, 3, 4])
        #expect(first.keys.key(at: 3) == 4 && first.keys.key(at: 4) == nil)
        // Every row read: counted from the rows alone.
        let all = try #require(KeyRead<String, String>.firstRows(estimates: estimates, keys: keys, complete: true))
        #expect((0..<all.keys.sectionCount).map(all.keys.count(inSection:)) == [2, 2])
        // Estimates without the section the first rows end in do not fit the rows.
        #expect(KeyRead<String, String>.firstRows(estimates: [("a", 5), ("c", 3)], keys: keys, complete: false) == nil)

        let rows = PagedRows<String, String>(pageSize: 2, maximumPages: 8)
        var asked: [(page: Int, keys: [Int64])] = []
        rows.readPage = { page, keys, _ in asked.append((page, keys)) }
        #expect(rows.show(first) == nil)
        // Rows bound meanwhile: in "b" past its first rows, and in "d".
        #expect(rows.row(at: 5)?.id == nil && rows.row(at: 14)?.id == nil)
        // Every key: "b" has 4 rows, "c" none, "d" 2, and "f" 1 the statistics missed.
        let every = KeyRead<String, String>(keys: try KeyList(counts: [("a", 2), ("b", 4), ("d", 2), ("f", 1)], keys: Array(1...9)),
                                            update: StorageUpdate(), pages: [:])
        let update = try #require(rows.show(every))
        #expect(Array(update.changes.prefix(4)) == [.deleteItems(section: 1, items: 4..<6), .deleteSection(2), .deleteItems(section: 2, items: 2..<4),
                                                    .insertSection(3)])
        // The row bound in "b" (its fourth) is row 5 still, and has its key now; the one in "d" went.
        #expect(rows.isLoaded)
        #expect(asked.map(\.page) == [2])
        #expect(asked.first?.keys == [5, 6])
    }

    @Test("a correction of estimated counts, replayed by the flat layout, shows what a reload would: rows, sections and headers")
    func correctionsReplayAsAReload() throws {
        var random = SeededGenerator(seed: 35)
        let values: [String?] = ["a", "b", "c", "d", "e", nil]
        var corrected = 0
        for round in 0..<300 {
            // Every key: a few sections (NULL, which has no header, last), each of 1 to 12 rows.
            let truth = values.filter { _ in Bool.random(using: &random) }.map { (value: $0, count: Int.random(in: 1...12, using: &random)) }
            guard !truth.isEmpty else { continue }
            var keys: [(key: Int64, section: String?)] = []
            for section in truth { for _ in 0..<section.count { keys.append((Int64(keys.count + 1), section.value)) } }
            // The statistics: any of the values (in order), each of 0 to 12 rows; the first rows: a prefix.
            let estimates = values.filter { _ in Bool.random(using: &random) }.map { (value: $0, count: Int.random(in: 0...12, using: &random)) }
            let known = Int.random(in: 1...keys.count, using: &random)
            guard let first = KeyRead<String, String?>.firstRows(estimates: estimates, keys: Array(keys.prefix(known)), complete: known == keys.count)
            else { continue }
            let storage = PagedStorage<String, String?>(pageSize: 4, maximumPages: 8, schedule: { $0() }, header: { $0 })
            let recorder = UpdateRecorder()
            storage.delegate = recorder
            storage.show(first)
            var layout = FlatLayout(storage: storage)
            let every = KeyRead<String, String?>(keys: try KeyList(counts: truth, keys: keys.map(\.key)), update: StorageUpdate(), pages: [:])
            storage.show(every)
            #expect(recorder.reloads == 1, "round \(round): corrected, not reloaded")
            for update in recorder.updates { _ = layout.apply(update) }
            #expect(layout.rows == FlatLayout(storage: storage).rows, "round \(round): \(recorder.updates)")
            if !recorder.updates.isEmpty { corrected += 1 }
        }
        #expect(corrected > 100)
    }

    @Test("a query with no row shows nothing early")
    func noRowNoFirstRows() {
        #expect(KeyRead<String, String>.firstRows(counts: [("", 0)], keys: []) == nil)
    }
}
