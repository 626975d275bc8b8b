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
            (#"{"sections": []}"#, #"shape.json is not a catalog: at the top level, "title" is missing"#),
            (#"{"title": 1, "sections": []}"#, "shape.json is not a catalog: at title, expected a string"),
            (#"{"title": "t", "sections": [{"items": [{"book": {"title": "b", "author": "a", "year": "old", "pages": 1}}]}]}"#,
             "shape.json is not a catalog: at sections[0].items[0].book.year, expected a whole number"),
            (#"{"title": "t", "sections": [{"items": [{"movie": {}}]}]}"#,
             "shape.json is not a catalog: at sections[0].items[0], an item is an object with exactly one key, one of book, album, place; found movie"),
            ("[1, 2]", "shape.json is not a catalog: at the top level, expected an object"),
            ("\"just a string\"", "shape.json is not a catalog: at the top level, expected an object"),
            (#"{"title": "t", "sections": [{"items": [{"album": {"title": "a", "artist": "b", "year": 1.5, "tracks": 9}}]}]}"#,
             "shape.json is not a catalog: at sections[0].items[0].album.year, expected a whole number, found 1.5"),
            (#"{"title": "t", "sections": [{"header": 5, "items": []}]}"#,
             "shape.json is not a catalog: at sections[0].header, a header is a string, or an object with a title and optional subtitle and icon"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try CatalogLoader.decode(Data(json.utf8), path: "shape.json")) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
    }

    func testAMissingFileIsUnreadable() {
        XCTAssertThrowsError(try CatalogLoader.load(path: "/nonexistent/catalog.json")) { error in
            guard case CatalogError.unreadable? = error as? CatalogError else { return XCTFail("\(error)") }
        }
    }

    func testTheREADMEsCatalogExampleIsACatalog() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardizedFileURL, encoding: .utf8)
        let section = try XCTUnwrap(readme.range(of: "### The catalog format"))
        let start = try XCTUnwrap(readme.range(of: "```json\n", range: section.upperBound..<readme.endIndex))
        let end = try XCTUnwrap(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let catalog = try CatalogLoader.decode(Data(readme[start.upperBound..<end.lowerBound].utf8), path: "README.md")
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
