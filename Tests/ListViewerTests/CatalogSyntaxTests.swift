import Foundation
import ListViewerKit
import XCTest

/// Catalog files are strict JSON: what JSON does not allow is refused, saying where.
final class CatalogSyntaxTests: XCTestCase {
    private func message(_ json: String) -> String? {
        message(Data(json.utf8))
    }

    private func message(_ data: Data) -> String? {
        do {
            _ = try CatalogLoader.decode(data, path: "c.json")
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testTrailingCommasAreRefusedWithTheirPlace() {
        XCTAssertEqual(message(#"{"title":"x","sections":[],}"#),
                       "c.json is not valid JSON: a trailing comma before } at line 1, column 27")
        XCTAssertEqual(message(#"{"title":"x","sections":[{"items":[],},]}"#),
                       "c.json is not valid JSON: a trailing comma before } at line 1, column 37")
        XCTAssertEqual(message("{\"title\": \"x\",\n \"sections\": [\n  {\"items\": []},\n ]\n}"),
                       "c.json is not valid JSON: a trailing comma before ] at line 3, column 16")
    }

    /// What Foundation refuses without saying where (a number no Double holds, a lone
    /// surrogate, nesting past 512) and every other mistake name their line and column.
    func testEveryMistakeNamesItsLineAndColumn() {
        let place = #"{"title":"x","sections":[{"items":[{"place":{"name":"p","country":"c","latitude":LATITUDE,"longitude":0}}]}]}"#
        XCTAssertEqual(message(place.replacingOccurrences(of: "LATITUDE", with: "1e-400")),
                       "c.json is not valid JSON: a number too close to 0 to be read (1e-400) at line 1, column 82")
        XCTAssertEqual(message(place.replacingOccurrences(of: "LATITUDE", with: "-1e400")),
                       "c.json is not valid JSON: a number too large to be read (-1e400) at line 1, column 82")
        XCTAssertEqual(message(place.replacingOccurrences(of: "LATITUDE", with: "1" + String(repeating: "0", count: 400))),
                       "c.json is not valid JSON: a number too large to be read (1000000000000000000000000000000000000000…) at line 1, column 82")
        XCTAssertEqual(try CatalogLoader.decode(Data(place.replacingOccurrences(of: "LATITUDE", with: "5e-324").utf8), path: "c.json").sections[0].items,
                       [.place(Place(name: "p", country: "c", latitude: .leastNonzeroMagnitude, longitude: 0))], "the smallest Double is read")
        XCTAssertEqual(message(place.replacingOccurrences(of: "LATITUDE", with: "01")), "c.json is not valid JSON: unexpected '1' at line 1, column 83")
        XCTAssertEqual(message("{\"title\": "), "c.json is not valid JSON: an early end of the text at line 1, column 11")
        XCTAssertEqual(message(#"{"title": "x", "sections": []} x"#), "c.json is not valid JSON: unexpected 'x' at line 1, column 32")
        XCTAssertEqual(message("{\"title\":\n  \"\\ud800\", \"sections\": []}"),
                       "c.json is not valid JSON: half a surrogate pair, \\uD800, without its other half at line 2, column 4")
        XCTAssertEqual(message("{\"title\": \"a\u{1}b\", \"sections\": []}"),
                       "c.json is not valid JSON: a control character in a string (JSON writes it \\u0001) at line 1, column 13")
        XCTAssertEqual(message("{\"title\": \"a\\xb\", \"sections\": []}"), "c.json is not valid JSON: an unknown escape \\x at line 1, column 13")
        XCTAssertEqual(message("{\"title\": \"\\u12\", \"sections\": []}"), "c.json is not valid JSON: \\u without four hexadecimal digits at line 1, column 12")
        XCTAssertEqual(message("{\"title\": \"é\\u00e9, "), "c.json is not valid JSON: a string not closed by \" at line 1, column 11")
        XCTAssertEqual(message("{\"title\": tru, \"sections\": []}"), "c.json is not valid JSON: unexpected ',' at line 1, column 14")
        XCTAssertEqual(message("{\"title\": \"x\"\n\"sections\": []}"), "c.json is not valid JSON: unexpected '\"' at line 2, column 1")
        XCTAssertEqual(message("\u{1}"), "c.json is not valid JSON: unexpected '␁' at line 1, column 1")
        XCTAssertEqual(message(" \n "), "c.json is not valid JSON: an early end of the text at line 2, column 2")
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        XCTAssertEqual(message(deep), "c.json is not valid JSON: arrays and objects nested more than 512 deep at line 1, column 513")
        XCTAssertEqual(message(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)),
                       "c.json is not a catalog: at the top level (line 1, column 1), expected an object", "512 deep is JSON")
        var latin1 = Data(#"{"title": "caf"#.utf8)
        latin1.append(contentsOf: [0xE9, 0x22, 0x7D])
        XCTAssertEqual(try? CatalogLoader.decode(latin1, path: "c.json"), nil)
        XCTAssertThrowsError(try CatalogLoader.decode(latin1, path: "c.json")) { error in
            XCTAssertEqual("\(error)", "c.json is not valid JSON: bytes that are not UTF-8 text at line 1, column 15")
        }
        // A byte order mark may start the text, and is not counted.
        XCTAssertEqual(try CatalogLoader.decode(Data([0xEF, 0xBB, 0xBF] + Array(#"{"title":"x","sections":[]}"#.utf8)), path: "c.json").title, "x")
        XCTAssertEqual(message("\u{FEFF}{,}"), "c.json is not valid JSON: unexpected ',' at line 1, column 2")
    }

    /// Every way of cutting a catalog short or changing one of its bytes is read or refused
    /// with a place.
    func testEveryCutOrChangedCatalogIsReadOrRefusedWithAPlace() throws {
        let catalog = Data("""
            {"title": "Shelf", "sections": [
              {"header": {"title": "Books", "subtitle": "read", "icon": "book"}, "footer": "end",
               "items": [{"book": {"title": "Dune", "author": "F. H.", "year": 1965, "pages": 412}},
                         {"album": {"title": "\\u00c9t\\u00e9 \\ud83d\\ude00", "artist": "A", "year": -1.0e3, "tracks": 9}}]},
              {"header": "Places", "items": [{"place": {"name": "Oslo", "country": "NO", "latitude": 59.9, "longitude": 1E-2}}]}
            ]}
            """.utf8)
        XCTAssertNil(message(catalog), "the catalog itself reads")
        let placed = try NSRegularExpression(pattern: "(at line [0-9]+, column [0-9]+|\\(line [0-9]+, column [0-9]+\\), .*)$")
        var refused = 0
        func check(_ data: Data) {
            guard let text = message(data) else { return }
            refused += 1
            XCTAssertNotNil(placed.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), text)
            XCTAssertFalse(text.contains("The given data was not valid JSON."), "Foundation's message, which says not where: \(text)")
        }
        for length in 1..<catalog.count { check(catalog.prefix(length)) }
        for offset in 0..<catalog.count {
            for byte: UInt8 in [0x00, 0x22, 0x2C, 0x5B, 0x5D, 0x7D, 0x31, 0x2E, 0x65, 0x5C, 0xFF] {
                var changed = catalog
                changed[offset] = byte
                check(changed)
            }
        }
        XCTAssertGreaterThan(refused, catalog.count * 5)
    }

    func testCommasInsideStringsAreText() throws {
        let catalog = try CatalogLoader.decode(Data(#"{"title":"a,]} \",}","sections":[]}"#.utf8), path: "c.json")
        XCTAssertEqual(catalog.title, #"a,]} ",}"#)
    }

    func testAnEmptyFileIsSaidToBeEmpty() throws {
        XCTAssertEqual(message(""), "c.json is empty")
        let path = NSTemporaryDirectory() + "list-viewer-empty-\(UUID().uuidString).sqlite"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try CatalogLoader.load(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path) is empty")
        }
    }
}
