import Foundation
import ListViewerKit
import XCTest

final class CatalogTests: XCTestCase {
    func testTheBundledSampleHasSectionsKindsAndHeadersOfBothSorts() throws {
        let catalog = try CatalogLoader.load(path: ViewerResources.sampleCatalog.path)
        XCTAssertGreaterThanOrEqual(catalog.sections.count, 4)
        let items = catalog.sections.flatMap(\.items)
        XCTAssertGreaterThanOrEqual(items.count, 200, "a few hundred items")
        XCTAssertTrue(items.contains { if case .book = $0 { true } else { false } })
        XCTAssertTrue(items.contains { if case .album = $0 { true } else { false } })
        XCTAssertTrue(items.contains { if case .place = $0 { true } else { false } })
        XCTAssertTrue(catalog.sections.contains { if case .title? = $0.header { true } else { false } })
        XCTAssertTrue(catalog.sections.contains { if case .banner? = $0.header { true } else { false } })
    }

    func testMalformedJSONSaysSo() {
        XCTAssertThrowsError(try CatalogLoader.decode(Data("{\"title\": ".utf8), path: "broken.json")) { error in
            guard case CatalogError.malformed(let path, _)? = error as? CatalogError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "broken.json")
            XCTAssertTrue("\(error)".hasPrefix("broken.json is not valid JSON"))
        }
    }

    func testWrongShapedJSONSaysWhereAndWhat() {
        let cases: [(String, String)] = [
            (#"{"sections": []}"#, #"shape.json is not a catalog: at the top level (line 1, column 1), "title" is missing"#),
            (#"{"title": 1, "sections": []}"#, "shape.json is not a catalog: at title (line 1, column 11), expected a string"),
            (#"{"title": "t", "sections": [{"items": [{"book": {"title": "b", "author": "a", "year": "old", "pages": 1}}]}]}"#,
             "shape.json is not a catalog: at sections[0].items[0].book.year (line 1, column 87), expected a whole number"),
            (#"{"title": "t", "sections": [{"items": [{"movie": {}}]}]}"#,
             "shape.json is not a catalog: at sections[0].items[0] (line 1, column 40), an item is an object with exactly one key, one of book, album, place; found movie"),
            ("[1, 2]", "shape.json is not a catalog: at the top level (line 1, column 1), expected an object"),
            ("\"just a string\"", "shape.json is not a catalog: at the top level (line 1, column 1), expected an object"),
            (#"{"title": "t", "sections": [{"items": [{"album": {"title": "a", "artist": "b", "year": 1.5, "tracks": 9}}]}]}"#,
             "shape.json is not a catalog: at sections[0].items[0].album.year (line 1, column 88), expected a whole number, found 1.5"),
            (#"{"title": "t", "sections": [{"header": 5, "items": []}]}"#,
             "shape.json is not a catalog: at sections[0].header (line 1, column 40), a header is a string, or an object with a title and optional subtitle and icon"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try CatalogLoader.decode(Data(json.utf8), path: "shape.json")) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
    }

    /// A year or a count is any whole number an Int holds, written as JSON writes numbers;
    /// one it does not hold is shown as written.
    func testWholeNumbersAreTheWholeRangeOfInt() throws {
        func book(year: String) throws -> Book? {
            let json = #"{"title": "t", "sections": [{"items": [{"book": {"title": "b", "author": "a", "year": \#(year), "pages": 1}}]}]}"#
            guard case .book(let book) = try CatalogLoader.decode(Data(json.utf8), path: "n.json").sections[0].items[0] else { return nil }
            return book
        }
        XCTAssertEqual(try book(year: "9223372036854775807")?.year, Int.max)
        XCTAssertEqual(try book(year: "-9223372036854775808")?.year, Int.min)
        XCTAssertEqual(try book(year: "1.965e3")?.year, 1965)
        XCTAssertEqual(try book(year: "-0")?.year, 0)
        let prefix = "n.json is not a catalog: at sections[0].items[0].book.year (line 1, column 87), "
        for (year, reason) in [
            ("9223372036854775808", "expected a whole number from -9223372036854775808 to 9223372036854775807, found 9223372036854775808"),
            ("-9223372036854775809", "expected a whole number from -9223372036854775808 to 9223372036854775807, found -9223372036854775809"),
            ("1e19", "expected a whole number from -9223372036854775808 to 9223372036854775807, found 1e19"),
            ("196.55e1", "expected a whole number, found 196.55e1"),
            ("1965.5", "expected a whole number, found 1965.5"),
            ("\"1965\"", "expected a whole number"),
        ] {
            XCTAssertThrowsError(try book(year: year)) { error in
                XCTAssertEqual("\(error)", prefix + reason)
            }
        }
    }

    func testAMissingFileIsUnreadable() {
        XCTAssertThrowsError(try CatalogLoader.load(path: "/nonexistent/catalog.json")) { error in
            guard case CatalogError.unreadable? = error as? CatalogError else { return XCTFail("\(error)") }
        }
    }

    func testTheViewerArticlesCatalogExampleIsACatalog() throws {
        let path = "Sources/ListViewManager/ListViewManager.docc/TheViewer.md"
        let article = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../" + path).standardizedFileURL, encoding: .utf8)
        let section = try XCTUnwrap(article.range(of: "### The catalog format"))
        let start = try XCTUnwrap(article.range(of: "```json\n", range: section.upperBound..<article.endIndex))
        let end = try XCTUnwrap(article.range(of: "```", range: start.upperBound..<article.endIndex))
        let catalog = try CatalogLoader.decode(Data(article[start.upperBound..<end.lowerBound].utf8), path: path)
        XCTAssertEqual(catalog.sections.count, 2)
        XCTAssertEqual(catalog.sections[1].items.count, 2)
    }

    func testCatalogsRoundTrip() throws {
        let catalog = Catalog(title: "T", sections: [
            CatalogSection(header: .banner(SectionBanner(title: "B", subtitle: nil, icon: nil)), footer: "f",
                           items: [.place(Place(name: "P", country: "C", latitude: 1, longitude: 2))]),
        ])
        let data = try JSONEncoder().encode(catalog)
        XCTAssertEqual(try CatalogLoader.decode(data, path: "t.json"), catalog)
    }

    func testCommandLines() throws {
        XCTAssertEqual(try ViewerOptions.parse([]).source, .sample)
        XCTAssertEqual(try ViewerOptions.parse(["/tmp", "--screenshot", "x.png"]), ViewerOptions(source: .directory(path: "/tmp"), screenshot: "x.png"))
        XCTAssertEqual(try ViewerOptions.parse([ViewerResources.sampleCatalog.path]).source, .catalog(path: ViewerResources.sampleCatalog.path))
        XCTAssertThrowsError(try ViewerOptions.parse(["--screenshot"]))
        XCTAssertThrowsError(try ViewerOptions.parse(["--frobnicate"]))
        XCTAssertThrowsError(try ViewerOptions.parse(["/no/such/place"])) { error in
            XCTAssertEqual("\(error)", "/no/such/place: no such file or folder")
        }
        XCTAssertEqual(try ViewerOptions.parse(["--help", "/no/such/place"]).printedText, ViewerOptions.usage, "--help wins")
    }
}
