import CGtk
import Foundation
import GtkTestSupport
import ListViewManager
import ListViewerKit
import XCTest

/// The viewer's texts through gettext, in its text domain `list-viewer`: a window shown
/// to a French user, and a French translation of every text.
final class ViewerTranslationTests: XCTestCase {
    func testTheViewerSpeaksFrenchToAFrenchUser() throws { try MainActor.assumeIsolated {
        let application = ViewerTestApplication.shared
        try FrenchUser.run(domains: [.library, TextDomain("list-viewer")]) {
            let viewer = ViewerWindow(application: application)
            viewer.present()
            viewer.show(try CatalogLoader.load(path: ViewerResources.sampleCatalog.path))
            XCTAssertEqual(viewer.window.title, "Visionneuse de listes")
            XCTAssertEqual(viewer.countText, "310 éléments")
            XCTAssertEqual(viewer.tableManager.columns.map(\.title), ["Nom", "Type", "Taille", "Modifié"])
            XCTAssertEqual(gtk_widget_get_tooltip_text(viewer.viewButton(.grid)).map { String(cString: $0) }, "Grille")
            ViewerTestLoop.close(viewer)
        }
    } }

    func testTheFrenchTranslationCoversEveryText() throws {
        try FrenchUser.checkTranslationIsComplete(domain: "list-viewer", sources: "Sources/ListViewerKit")
    }
}
