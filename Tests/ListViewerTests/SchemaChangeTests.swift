import CGtk
import Foundation
import GRDB
import ListViewManager
import ListViewerKit
import XCTest

/// Another program changes the schema of the table the window shows: the search and the
/// table view follow the columns there are, as the rows do.
final class SchemaChangeTests: XCTestCase {
    @MainActor
    private static func open(_ sample: SampleDatabase) -> ViewerWindow {
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit")
        ViewerTestLoop.wait("the first rows") { viewer.recordTitles == [["apple", "pear", "cherry"]] }
        return viewer
    }

    /// Types `text` in the search entry and waits for the rows it finds, with no message.
    @MainActor
    private static func search(_ viewer: ViewerWindow, _ text: String, finds count: String) {
        viewer.searchEntry.text = text
        ViewerTestLoop.wait("the search for \(text), with no message") { viewer.countText == count && viewer.problem == nil }
    }

    func testTheSearchFollowsAColumnRenamedByAnotherProgram() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample)
        try sample.otherConnection().write { db in try db.execute(sql: "ALTER TABLE fruit RENAME COLUMN name TO title") }
        Self.search(viewer, "pear", finds: "1 matching row")
        XCTAssertNil(viewer.problem)
        XCTAssertEqual(viewer.countText, "1 matching row")
        ViewerTestLoop.wait("the matching row") { viewer.recordTitles == [["pear"]] }
        // The table view shows the column's new name.
        viewer.setViewMode(.table)
        XCTAssertEqual(viewer.tableManager.columns.map(\.title), ["#", "id", "title", "category", "price", "photo"])
        ViewerTestLoop.close(viewer)
    } }

    func testTheSearchFollowsATableDroppedAndMadeAgainWithOtherColumns() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample)
        Self.search(viewer, "p", finds: "2 matching rows")
        XCTAssertEqual(viewer.countText, "2 matching rows")
        let other = try sample.otherConnection()
        try other.write { db in try db.execute(sql: "DROP TABLE fruit") }
        ViewerTestLoop.wait("the message") { viewer.problem != nil }
        XCTAssertTrue(viewer.problem?.contains("no such table: fruit") == true, viewer.problem ?? "")
        try other.write { db in
            try db.execute(sql: """
                CREATE TABLE fruit (id INTEGER PRIMARY KEY, label TEXT, colour TEXT);
                INSERT INTO fruit VALUES (1, 'plum', 'purple'), (2, 'lime', 'green'), (3, 'grape', 'purple');
                """)
        }
        // The search in force, in the new columns.
        ViewerTestLoop.wait("the new table's matching rows") { viewer.recordTitles == [["plum", "grape"]] && viewer.problem == nil }
        Self.search(viewer, "green", finds: "1 matching row")
        XCTAssertNil(viewer.problem)
        XCTAssertEqual(viewer.countText, "1 matching row")
        ViewerTestLoop.close(viewer)
    } }

    func testAColumnAddedIsSearchedToo() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = Self.open(sample)
        try sample.otherConnection().write { db in
            try db.execute(sql: "ALTER TABLE fruit ADD COLUMN origin TEXT; UPDATE fruit SET origin = 'Anatolia' WHERE id = 3")
        }
        ViewerTestLoop.wait("the new column") { viewer.liveTable?.shownColumns.last == "origin" }
        Self.search(viewer, "anatolia", finds: "1 matching row")
        XCTAssertNil(viewer.problem)
        XCTAssertEqual(viewer.countText, "1 matching row")
        ViewerTestLoop.close(viewer)
    } }
}
