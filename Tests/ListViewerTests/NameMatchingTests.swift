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

    /// SQLite compares names as bytes: "é" written as one code point and as "e" with a
    /// combining accent are two names, which Swift's `==` would take for one.
    func testNamesOfOtherBytesAreOtherNamesEvenWhenSwiftCallsThemEqual() throws {
        let composed = "\u{E9}", decomposed = "e\u{301}"
        XCTAssertEqual(composed, decomposed, "Swift's equality, which the match must not use")
        let sample = try SampleDatabase(extraSQL: """
            CREATE TABLE "\(composed)" (name TEXT); INSERT INTO "\(composed)" VALUES ('composed');
            CREATE TABLE "\(decomposed)" (name TEXT); INSERT INTO "\(decomposed)" VALUES ('decomposed');
            """)
        defer { sample.remove() }
        for (name, row) in [(composed, "composed"), (decomposed, "decomposed")] {
            let (database, query) = try DatabaseFile.open(sample.path, table: name, sectionBy: nil)
            XCTAssertEqual(Array(query.table.utf8), Array(name.utf8))
            XCTAssertEqual(try database.read { db in try query.request().fetchAll(db).map(\.title) }, [row])
        }
    }
}
