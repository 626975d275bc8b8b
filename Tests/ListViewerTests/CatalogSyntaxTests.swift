import Foundation
import ListViewerKit
import XCTest

/// Catalog files are strict JSON: what JSON does not allow is refused, saying where.
final class CatalogSyntaxTests: XCTestCase {
    private func message(_ json: String) -> String? {
        do {
            _ = try CatalogLoader.decode(Data(json.utf8), path: "c.json")
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
