import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// The library's texts through gettext, in its text domain `list-view-manager`: the French
/// translation shipped in meson-helpers/po shown to a French user, and complete.
final class TranslationTests: XCTestCase {
    private struct Post {}

    func testTheLibrarysTextsAreShownInFrenchToAFrenchUser() throws { try onMain {
        openTestDisplay()
        try FrenchUser.run(domains: [.library]) {
            XCTAssertEqual(MenuEntry.delete.title, "Supprimer")
            XCTAssertEqual(DestructiveEntries.accessibleDescription, "Destructif")
            let row = MissingMappingRow()
            row.update(with: Post())
            XCTAssertEqual(row.label.text, "Aucune ligne enregistrée pour Post")
            XCTAssertEqual(TextDomain("no-such-domain")("Delete"), "Delete", "a text without translation is shown as written")
        }
    } }

    func testTheFrenchTranslationCoversEveryText() throws {
        try FrenchUser.checkTranslationIsComplete(domain: "list-view-manager", sources: ["Sources/ListViewManager", "Sources/ModelStorage", "Sources/SQLiteStorage", "Sources/PostgresStorage"])
    }
}
