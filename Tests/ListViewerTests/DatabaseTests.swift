import Foundation
import GRDB
import ListViewerKit
import XCTest

/// The command line, schema checks, queries and records of the viewer's SQLite mode.
final class DatabaseTests: XCTestCase {
    func testADatabaseIsRecognisedByItsHeaderNotItsName() throws {
        let sample = try SampleDatabase(name: "fruits.data")
        defer { sample.remove() }
        XCTAssertEqual(try ViewerOptions.parse([sample.path, "--table", "fruit", "--section-by", "category"]).source,
                       .database(path: sample.path, table: "fruit", sectionBy: "category"))
        XCTAssertEqual(try ViewerOptions.parse(["--section-by", "category", sample.path]).source,
                       .database(path: sample.path, table: nil, sectionBy: "category"))
        // A JSON file named like a database is still a catalog.
        let named = sample.folder + "/catalog.sqlite"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: named))
        XCTAssertEqual(try ViewerOptions.parse([named]).source, .catalog(path: named))
    }

    func testTableOptionsWithoutADatabaseAreUsageErrors() throws {
        let catalog = ViewerResources.sampleCatalog.path
        XCTAssertThrowsError(try ViewerOptions.parse([catalog, "--table", "fruit"])) { error in
            let problem = error as? ViewerOptions.Problem
            XCTAssertEqual(problem?.description, "--table applies to a database, and \(catalog) is not one")
            XCTAssertEqual(problem?.isUsageError, true)
        }
        XCTAssertThrowsError(try ViewerOptions.parse(["--section-by", "category"])) { error in
            XCTAssertEqual((error as? ViewerOptions.Problem)?.description, "--section-by needs an SQLite database's path or a postgres:// URL")
        }
        XCTAssertThrowsError(try ViewerOptions.parse(["x.sqlite", "--table"])) { error in
            XCTAssertEqual((error as? ViewerOptions.Problem)?.description, "missing value for '--table <name>'")
        }
        XCTAssertTrue(ViewerOptions.usage.contains("--section-by <column>"))
    }

    func testWrongTablesAndColumnsAreMessagesNamingWhatExists() throws {
        let sample = try SampleDatabase(extraSQL: "CREATE TABLE note (text TEXT);")
        defer { sample.remove() }
        XCTAssertThrowsError(try DatabaseFile.open(sample.path, table: "vegetable", sectionBy: nil)) { error in
            XCTAssertEqual("\(error)", "fruits.sqlite has no table vegetable; tables: fruit, note")
        }
        XCTAssertThrowsError(try DatabaseFile.open(sample.path, table: nil, sectionBy: nil)) { error in
            XCTAssertEqual("\(error)", "fruits.sqlite has several tables; choose one with --table: fruit, note")
        }
        XCTAssertThrowsError(try DatabaseFile.open(sample.path, table: "fruit", sectionBy: "colour")) { error in
            XCTAssertEqual("\(error)", "table fruit has no column colour; columns: id, name, category, price, photo")
        }
        XCTAssertThrowsError(try DatabaseFile.open(ViewerResources.sampleCatalog.path, table: "fruit", sectionBy: nil)) { error in
            XCTAssertEqual("\(error)", "sample-catalog.json is not an SQLite database")
        }
        // Names are matched ignoring case, and reported as the database spells them.
        let (_, query) = try DatabaseFile.open(sample.path, table: "FRUIT", sectionBy: "Category")
        XCTAssertEqual(query.table, "fruit")
        XCTAssertEqual(query.sectionColumn, "category")
    }

    func testTheOnlyTableIsTheDefaultAndWithoutRowIDTablesAreRefused() throws {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        XCTAssertEqual(try DatabaseFile.open(sample.path, table: nil, sectionBy: nil).1.table, "fruit")
        try sample.otherConnection().write { db in
            try db.execute(sql: "CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID")
        }
        XCTAssertThrowsError(try DatabaseFile.open(sample.path, table: "setting", sectionBy: nil)) { error in
            XCTAssertEqual("\(error)", "table setting is a WITHOUT ROWID table; the viewer follows rows by their rowid and cannot show it")
        }
    }

    func testRecordsShowEveryKindOfValue() throws {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let (database, query) = try DatabaseFile.open(sample.path, table: "fruit", sectionBy: "category")
        let records = try database.read { db in try query.request().fetchAll(db) }
        XCTAssertEqual(records.map(\.id), [1, 2, 3])
        XCTAssertEqual(records[0].columns, ["id", "name", "category", "price", "photo"])
        XCTAssertEqual(records[0].values, ["1", "apple", "pome", "1.5", "3 bytes"])
        XCTAssertEqual(records[1].values, ["2", "pear", "pome", "2.0", "NULL"])
        XCTAssertEqual(records[0].title, "apple", "the first text column")
        XCTAssertEqual(records[0].summary(), "id: 1 · category: pome · price: 1.5")
        // The INTEGER PRIMARY KEY is the rowid; with the section column, a row need not repeat it.
        XCTAssertEqual(query.rowIDColumn, "id")
        XCTAssertEqual(query.columnsShownElsewhere, ["id", "category"])
        XCTAssertEqual(records[0].summary(skipping: query.columnsShownElsewhere), "price: 1.5 · photo: 3 bytes")
        XCTAssertEqual(records[2].details.first?.0, "rowid")
        XCTAssertEqual(records[2].details.count, 6)
    }

    func testSearchTermsMatchAnyColumnLiterally() throws {
        let sample = try SampleDatabase(extraSQL: """
            INSERT INTO fruit (id, name, category) VALUES
                (4, '50% off', 'sale'), (5, '500 off', 'sale'), (6, 'a_b', 'odd'), (7, 'axb', 'odd'),
                (8, 'quote" and ''', 'odd');
            """)
        defer { sample.remove() }
        let (database, query) = try DatabaseFile.open(sample.path, table: "fruit", sectionBy: nil)
        func names(_ search: String) throws -> [String] {
            try database.read { db in try query.request(matching: search).fetchAll(db).map(\.title) }
        }
        XCTAssertEqual(try names("50%"), ["50% off"], "% is a character, not a wildcard")
        XCTAssertEqual(try names("a_b"), ["a_b"], "_ is a character, not a wildcard")
        XCTAssertEqual(try names("STONE"), ["cherry"], "any column, any case")
        XCTAssertEqual(try names("pome p"), ["apple", "pear"], "every term")
        XCTAssertEqual(try names("pome ear"), ["pear"])
        XCTAssertEqual(try names("\" '"), ["quote\" and '"])
        XCTAssertEqual(try names(""), ["apple", "pear", "cherry", "50% off", "500 off", "a_b", "axb", "quote\" and '"])
    }

    func testQuotedNamesAndAColumnCalledRowid() throws {
        let sample = try SampleDatabase(extraSQL: #"""
            CREATE TABLE "odd ""name""" (rowid TEXT, "group" TEXT);
            INSERT INTO "odd ""name""" VALUES ('r1', 'g'), ('r2', 'h');
            """#)
        defer { sample.remove() }
        let (database, query) = try DatabaseFile.open(sample.path, table: "odd \"name\"", sectionBy: "group")
        let records = try database.read { db in try query.request(matching: "r2").fetchAll(db) }
        XCTAssertEqual(records.map(\.id), [2])
        XCTAssertEqual(records.first?.values, ["r2", "h"])
        XCTAssertEqual(records.first?.columns, ["rowid", "group"])
    }
}
