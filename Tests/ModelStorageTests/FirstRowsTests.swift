import Foundation
@testable import ModelStorage
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

    @Test("the same first rows shown again change nothing; every key with other counts than the first rows reloads")
    func firstRowsAgainAndOtherCounts() throws {
        let fixture = Rows()
        let rows = fixture.rows
        let first = try #require(KeyRead<String, String>.firstRows(counts: fixture.counts, keys: Array(fixture.keys.prefix(5))))
        #expect(rows.show(first) == nil)
        // A read of every key failed; the next read tells the same first rows again.
        #expect(rows.show(first) == StorageUpdate(), "no reload: the list keeps its place")
        let other = try #require(KeyRead<String, String>.firstRows(counts: [("a", 5), ("b", 4)], keys: Array(fixture.keys.prefix(5))))
        #expect(rows.show(other) == nil, "other counts: a reload")
        // Every key, with sections the first rows did not have (another way of grouping).
        let split = KeyRead<String, String>(keys: try KeyList(counts: [("a", 5), ("b", 2), ("c", 2)], keys: Array(fixture.keys.prefix(9))),
                                            update: StorageUpdate(), pages: [:])
        #expect(rows.show(split) == nil, "a reload, not an update that says nothing changed")
        #expect(rows.isLoaded)
    }

    @Test("a query with no row shows nothing early")
    func noRowNoFirstRows() {
        #expect(KeyRead<String, String>.firstRows(counts: [("", 0)], keys: []) == nil)
    }
}
