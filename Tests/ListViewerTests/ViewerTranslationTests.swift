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
            XCTAssertEqual(gtk_widget_get_tooltip_text(viewer.viewButton(.grid).gtkWidget).map { String(cString: $0) }, "Grille")
            ViewerTestLoop.close(viewer)
        }
    } }

    /// Counts, names read to screen readers and the messages of bad input, in French:
    /// French plural forms (0 and 1 are singular), thousands apart by a narrow space.
    func testCountsNamesAndProblemsAreFrench() throws { try MainActor.assumeIsolated {
        let application = ViewerTestApplication.shared
        try FrenchUser.run(domains: [.library, TextDomain("list-viewer")]) {
            let viewer = ViewerWindow(application: application)
            viewer.present()
            let books = (0..<1_200).map { CatalogItem.book(Book(title: "Livre \($0)", author: "Anonyme", year: 1900, pages: 1)) }
            viewer.show(Catalog(title: "Bibliothèque", sections: [CatalogSection(header: .title("Tous"), footer: nil, items: books)]))
            XCTAssertEqual(viewer.countText, "1\u{202F}200 éléments")
            viewer.show(Catalog(title: "Un seul", sections: [CatalogSection(header: nil, footer: nil, items: Array(books.prefix(1)))]))
            XCTAssertEqual(viewer.countText, "1 élément")
            viewer.show(Catalog(title: "Aucun", sections: []))
            XCTAssertEqual(viewer.countText, "0 élément")
            ViewerTestLoop.close(viewer)

            let file = DirectoryEntry(name: "notes", path: "/notes", kind: .other, size: 1_500)
            XCTAssertEqual(file.details.first { $0.0 == "Taille" }?.1, "1.5 ko (1500 octets)")
            XCTAssertEqual(Book(title: "Dune", author: "Frank Herbert", year: 1965, pages: 412).accessibilityLabel,
                           "Livre : Dune de Frank Herbert, 1965")
            XCTAssertThrowsError(try CatalogLoader.decode(Data("[1,]".utf8), path: "c.json")) { error in
                XCTAssertEqual("\(error)", "c.json n’est pas du JSON valide : une virgule finale avant ] à la ligne 1, colonne 3")
            }
            XCTAssertThrowsError(try CatalogLoader.decode(Data("[1e-400]".utf8), path: "c.json")) { error in
                XCTAssertEqual("\(error)", "c.json n’est pas du JSON valide : un nombre trop proche de 0 pour être lu (1e-400) à la ligne 1, colonne 2")
            }
            XCTAssertThrowsError(try ViewerOptions.parse(["--table", "t"])) { error in
                XCTAssertEqual("\(error)", "--table demande le chemin d’une base de données SQLite ou une URL postgres://")
            }
            XCTAssertThrowsError(try ViewerOptions.parse(["/nonexistent/list-viewer"])) { error in
                XCTAssertEqual("\(error)", "/nonexistent/list-viewer : aucun fichier ou dossier de ce nom")
            }
            let help = ViewerOptions.usage
            for text in ["Affiche un dossier, un catalogue, ou une table SQLite ou PostgreSQL", "un fichier SQLite",
                         "--section-by <column>", "Regroupe les lignes par les valeurs de cette colonne."] {
                XCTAssertTrue(help.contains(text), "--help shows \(text):\n\(help)")
            }
            // The storage's own messages, in the library's domain.
            XCTAssertThrowsError(try ViewerOptions.parse(["postgres://owner:secret@localhost/db"])) { error in
                XCTAssertEqual("\(error)", "impossible d’utiliser postgres://owner@localhost/db : un mot de passe sur la ligne de commande "
                                           + "est vu par chaque utilisateur de cet ordinateur ; donnez-le dans PGPASSWORD ou ~/.pgpass")
            }
            XCTAssertThrowsError(try ViewerOptions.parse(["postgres://localhost:abc/db"])) { error in
                XCTAssertEqual("\(error)", "impossible d’utiliser postgres://localhost:abc/db : le port « abc » n’est pas un nombre")
            }
        }
    } }

    func testTheFrenchTranslationCoversEveryText() throws {
        try FrenchUser.checkTranslationIsComplete(domain: "list-viewer", sources: ["Sources/ListViewerKit"])
    }
}
