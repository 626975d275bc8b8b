import Foundation
import ListViewerKit
import XCTest

/// `--table` and `--section-by` find names as SQLite does: exactly, else ignoring ASCII
/// case only.
final class NameMatchingTests: XCTestCase {
    func testTablesDifferingInNonASCIICaseAreDifferentTables() throws {
        let sample = try SampleDatabase(extraSQL: """
            CREATE TABLE "É" (name TEXT); INSERT INTO "É" VALUES ('upper');
            CREATE TABLE "é" (name TEXT); INSERT INTO "é" VALUES ('lower');
            CREATE TABLE "STRASSE" (name TEXT); CREATE TABLE "straße" (name TEXT);
            """)
        defer { sample.remove() }
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: "é", sectionBy: nil).1.table, "é")
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: "É", sectionBy: nil).1.table, "É")
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: "straße", sectionBy: nil).1.table, "straße")
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: "STRASSE", sectionBy: nil).1.table, "STRASSE")
        // ASCII case still does not matter, as in SQL.
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: "Strasse", sectionBy: nil).1.table, "STRASSE")
        let (database, query) = try DatabaseFile.open(sample.path, table: "é", sectionBy: nil)
        XCTAssertEqual(try database.read { db in try query.request().fetchAll(db).map(\.title) }, ["lower"])
    }

    func testANonASCIINameMatchesNoOtherCaseOfIt() throws {
        let sample = try SampleDatabase(extraSQL: """
            CREATE TABLE "straße" (name TEXT);
            CREATE TABLE city (name TEXT, "Ärea" TEXT, "ärea" TEXT);
            """)
        defer { sample.remove() }
        XCTAssertThrowsError(try DatabaseFile.open(sample.path, table: "STRASSE", sectionBy: nil)) { error in
            XCTAssertEqual("\(error)", "fruits.sqlite has no table STRASSE; tables: city, fruit, straße")
        }
        // SQLite folds the ASCII letters of a name only: "ärea" is not "Ärea", "ÄREA" is.
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: "CITY", sectionBy: "ärea").1.sectionColumn, "ärea")
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: "city", sectionBy: "Ärea").1.sectionColumn, "Ärea")
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: "city", sectionBy: "äREA").1.sectionColumn, "ärea")
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: "city", sectionBy: "ÄREA").1.sectionColumn, "Ärea")
    }
}
