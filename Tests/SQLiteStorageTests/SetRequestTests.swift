import Foundation
import GRDB
import ModelStorage
import SQLiteStorage
import XCTest

/// Changing a storage's request: a search narrowing the rows, then widening them again.
extension FetchedResultsStorageTests {
    static func named(like pattern: String) -> SQLRequest<Fruit> {
        SQLRequest<Fruit>(sql: "SELECT * FROM fruit WHERE name LIKE ? ORDER BY category, name", arguments: [pattern])
    }

    func testANewRequestIsAppliedAtOnceAsTheRowsThatDiffer() throws {
        let (storage, delegate) = try makeStorage()
        try storage.setRequest(Self.named(like: "%p%"))
        XCTAssertEqual(names(storage), [["apple", "pear"], ["plum"]])
        XCTAssertEqual(delegate.reloads, 0)
        XCTAssertEqual(delegate.updates.count, 1)
        XCTAssertEqual(delegate.updates.first?.changes, [
            .deleteItems(section: 0, items: 2..<3),
            .deleteItems(section: 1, items: 0..<1),
        ])

        try storage.setRequest(Self.byCategory)
        XCTAssertEqual(names(storage), [["apple", "pear", "quince"], ["cherry", "plum"]])
        XCTAssertEqual(delegate.updates.count, 2)
        XCTAssertEqual(delegate.updates.last?.changes, [
            .insertItems(section: 0, items: 2..<3),
            .insertItems(section: 1, items: 0..<1),
        ])
        XCTAssertEqual(delegate.reloads, 0)
    }

    func testWritesAfterANewRequestAreFetchedWithIt() throws {
        let (storage, delegate) = try makeStorage()
        try storage.setRequest(Self.named(like: "%e%"))
        XCTAssertEqual(names(storage), [["apple", "pear", "quince"], ["cherry"]])
        let applied = delegate.updates.count
        // From another connection (found by polling), then through the storage's own
        // database (found by observing the new request's tables).
        try other.write { db in try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (6, 'peach', 'stone'), (7, 'fig', 'other')") }
        waitUntil { self.names(storage).last == ["cherry", "peach"] }
        try database.write { db in try db.execute(sql: "UPDATE fruit SET name = 'greengage' WHERE id = 5") }
        waitUntil { self.names(storage).last == ["cherry", "greengage", "peach"] }
        settle()
        XCTAssertEqual(names(storage), [["apple", "pear", "quince"], ["cherry", "greengage", "peach"]], "fig does not match, apple and pear still do")
        XCTAssertEqual(delegate.reloads, 0)
        XCTAssertEqual(delegate.updates.dropFirst(applied).flatMap(\.changes).filter {
            if case .insertItems = $0 { return false } else { return true }
        }, [], "each write only inserted the rows it made match")
    }

    func testAMalformedNewRequestThrowsAndKeepsTheContentAndTheRequest() throws {
        let (storage, delegate) = try makeStorage()
        try storage.setRequest(Self.named(like: "%r%"))
        let before = names(storage)
        XCTAssertEqual(before, [["pear"], ["cherry"]])
        XCTAssertThrowsError(try storage.setRequest(SQLRequest<Fruit>(sql: "SELECT * FROM fruit WHERE"))) { error in
            XCTAssertEqual((error as? DatabaseError)?.resultCode, .SQLITE_ERROR, "\(error)")
        }
        XCTAssertEqual(names(storage), before)
        XCTAssertEqual(delegate.updates.count, 1)
        // The request in force is still the last good one.
        try other.write { db in try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (6, 'raspberry', 'berry'), (7, 'sloe', 'stone')") }
        waitUntil { self.names(storage).count == 3 }
        XCTAssertEqual(names(storage), [["raspberry"], ["pear"], ["cherry"]])
    }

    func testTheNewRequestsTablesAreObservedWithoutPolling() throws {
        try database.write { db in
            try db.execute(sql: "CREATE TABLE basket (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        let (storage, delegate) = try makeStorage(pollInterval: nil)
        try storage.setRequest(SQLRequest<Fruit>(sql: "SELECT id, name, 'basket' AS category FROM basket ORDER BY name"))
        XCTAssertEqual(storage.numberOfSections(), 0)
        try database.write { db in try db.execute(sql: "INSERT INTO basket (id, name) VALUES (1, 'loquat')") }
        waitUntil { storage.numberOfSections() == 1 }
        XCTAssertEqual(names(storage), [["loquat"]])
        let count = storage.fetchCount
        // The old request's table is no longer observed.
        try database.write { db in try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (6, 'peach', 'stone')") }
        settle(0.4)
        XCTAssertEqual(storage.fetchCount, count)
        XCTAssertEqual(delegate.reloads, 0)
    }
}
