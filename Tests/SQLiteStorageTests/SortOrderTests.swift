import Foundation
import GRDB
import ModelStorage
import SQLiteStorage
import XCTest

/// Showing a query's rows in another order than the query's (a table sorted by a column).
extension FetchedResultsStorageTests {
    func testASortOrderReordersEachSectionAsMovesAndSortsLaterFetches() throws {
        let (storage, delegate) = try makeStorage()
        storage.sortOrder = { $0.name > $1.name }
        XCTAssertEqual(names(storage), [["quince", "pear", "apple"], ["plum", "cherry"]])
        XCTAssertEqual(delegate.updates.count, 1)
        let changes = try XCTUnwrap(delegate.updates.first?.changes)
        XCTAssertTrue(changes.allSatisfy { if case .moveItem = $0 { true } else { false } }, "\(changes)")
        XCTAssertEqual(changes.count, 3, "the fewest moves: two in the first section, one in the second")

        try other.write { db in
            try db.execute(sql: "INSERT INTO fruit (id, name, category) VALUES (6, 'medlar', 'pome')")
        }
        waitUntil { storage.numberOfItems(inSection: 0) == 4 }
        XCTAssertEqual(names(storage), [["quince", "pear", "medlar", "apple"], ["plum", "cherry"]])

        storage.sortOrder = nil
        XCTAssertEqual(names(storage), [["apple", "medlar", "pear", "quince"], ["cherry", "plum"]], "the query's order again")
        XCTAssertEqual(delegate.reloads, 0)
    }
}
