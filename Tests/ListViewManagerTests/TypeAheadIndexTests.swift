import Foundation
@testable import ListViewManager
import XCTest

/// The texts type-ahead find compares: folded as a user expects (case and accents ignored),
/// at the start or anywhere, whatever their script.
final class TypeAheadIndexTests: XCTestCase {
    private static let texts: [String?] = ["Berlin", nil, "Cádiz", "ÉCOLE normale", "straße", "Zürich", "", "日本語のテキスト", "Ölands BERN"]
    private let index: TypeAheadIndex = {
        var index = TypeAheadIndex(count: texts.count)
        index.read { texts[$0] }
        return index
    }()

    func testTextsReadInPartsAreTheSameAsReadAtOnce() {
        var parts = TypeAheadIndex(count: 1000), asked = 0
        let text = { (position: Int) -> String? in position % 7 == 0 ? nil : "Row \(position)" }
        while !parts.isComplete {
            asked += 1
            parts.read(text) { false }  // one part of 256 rows
        }
        XCTAssertEqual(asked, 4, "1,000 rows in parts of 256")
        var whole = TypeAheadIndex(count: 1000)
        whole.read(text)
        let folded = TypeAheadIndex.folded("row 99")
        XCTAssertEqual((0..<1000).filter { parts.matches($0, folded, anywhere: false) }, (0..<1000).filter { whole.matches($0, folded, anywhere: false) })
        XCTAssertEqual((0..<1000).filter { parts.matches($0, folded, anywhere: false) }, [99, 990, 991, 992, 993, 995, 996, 997, 998, 999])
    }

    /// The positions whose text matches `typed`.
    private func matches(_ typed: String, anywhere: Bool = false) -> [Int] {
        let folded = TypeAheadIndex.folded(typed)
        return (0..<index.count).filter { index.matches($0, folded, anywhere: anywhere) }
    }

    func testTheStartOfATextMatchesWhateverItsCaseAndAccents() {
        XCTAssertEqual(matches("ber"), [0])
        XCTAssertEqual(matches("BER"), [0])
        XCTAssertEqual(matches("cad"), [2], "an accent in the text")
        XCTAssertEqual(matches("cád"), [2], "an accent typed")
        XCTAssertEqual(matches("ecole n"), [3])
        XCTAssertEqual(matches("zu"), [5])
        XCTAssertEqual(matches("日本"), [7], "other scripts compare as they are")
        XCTAssertEqual(matches("stra"), [4])
        XCTAssertEqual(matches("berlinx"), [], "longer than the text")
        XCTAssertEqual(matches("q"), [])
    }

    func testAnywhereFindsAWordInside() {
        XCTAssertEqual(matches("bern", anywhere: true), [8])
        XCTAssertEqual(matches("er", anywhere: true), [0, 8])
        XCTAssertEqual(matches("テキスト", anywhere: true), [7])
        XCTAssertEqual(matches("rich", anywhere: true), [5])
    }
}
