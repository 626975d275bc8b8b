import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// The library's texts through gettext, in its text domain `list-view-manager`: the French
/// translation shipped in meson-helpers/po, compiled with msgfmt as meson builds it, shown
/// to a user whose language is French; and a translation that covers every text.
final class TranslationTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let po = repository.appendingPathComponent("meson-helpers/po/list-view-manager")

    private struct Post {}

    @discardableResult
    private static func run(_ program: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(program) \(arguments): \(complained)")
        return String(decoding: printed, as: UTF8.self) + complained
    }

    func testTheLibrarysTextsAreShownInFrenchToAFrenchUser() throws { try onMain {
        XCTAssertNotEqual(gtk_init_check(), 0, "GTK needs a display: run the tests under xvfb-run")
        let locale = NSTemporaryDirectory() + "list-view-manager-locale-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: locale + "/fr/LC_MESSAGES", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: locale) }
        try Self.run("/usr/bin/msgfmt", ["-o", locale + "/fr/LC_MESSAGES/list-view-manager.mo", Self.po.appendingPathComponent("fr.po").path])

        // A French user: a French locale, built here (a machine may have only C.UTF-8, in
        // which glibc 2.41 ignores LANGUAGE, where 2.36 honours it).
        try Self.run("/usr/bin/localedef", ["-i", "fr_FR", "-f", "UTF-8", locale + "/fr_FR.UTF-8"])
        let locpath = getenv("LOCPATH").map { String(cString: $0) }, language = getenv("LANGUAGE").map { String(cString: $0) }
        let messages = String(cString: setlocale(LC_MESSAGES, nil))
        let bound = String(cString: bindtextdomain(TextDomain.library.name, nil))
        setenv("LOCPATH", locale, 1)
        setenv("LANGUAGE", "fr", 1)
        XCTAssertNotNil(setlocale(LC_MESSAGES, "fr_FR.UTF-8"), "the French locale built with localedef")
        TextDomain.library.bind(to: locale)
        defer {
            setlocale(LC_MESSAGES, messages)
            if let locpath { setenv("LOCPATH", locpath, 1) } else { unsetenv("LOCPATH") }
            if let language { setenv("LANGUAGE", language, 1) } else { unsetenv("LANGUAGE") }
            TextDomain.library.bind(to: bound)
        }

        XCTAssertEqual(MenuEntry.delete.title, "Supprimer")
        XCTAssertEqual(DestructiveEntries.accessibleDescription, "Destructif")
        let row = MissingMappingRow()
        row.update(with: Post())
        XCTAssertEqual(row.label.text, "Aucune ligne enregistrée pour Post")
        XCTAssertEqual(TextDomain("no-such-domain")("Delete"), "Delete", "a text without translation is shown as written")
    } }

    /// Every text the library's sources give `tr` is in the template POTFILES makes, and
    /// translated in fr.po (none missing, none fuzzy); every source that calls `tr` is in
    /// POTFILES.
    func testTheFrenchTranslationCoversEveryText() throws {
        let listed = try String(contentsOf: Self.po.appendingPathComponent("POTFILES"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let sources = Self.repository.appendingPathComponent("Sources/ListViewManager")
        let callers = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { path in
            path.hasSuffix(".swift") && path != "GTK/TextDomain.swift"
                && (try? String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8))?.contains("tr(\"") == true
        }
        XCTAssertEqual(Set(callers.map { "../Sources/ListViewManager/" + $0 }), Set(listed), "POTFILES lists every source that calls tr")

        let template = NSTemporaryDirectory() + "list-view-manager-\(UUID().uuidString).pot"
        defer { try? FileManager.default.removeItem(atPath: template) }
        try Self.run("/usr/bin/xgettext", ["--language=C", "--keyword=tr:1", "--keyword=plural:1,2", "--from-code=UTF-8",
                                          "-o", template] + listed, in: Self.repository.appendingPathComponent("meson-helpers"))
        let statistics = try Self.run("/usr/bin/msgfmt", ["--check", "--statistics", "-o", "/dev/null", Self.po.appendingPathComponent("fr.po").path])
        XCTAssertFalse(statistics.contains("untranslated") || statistics.contains("fuzzy"), statistics)
        let missing = try Self.run("/usr/bin/msgcomm", ["--unique", "--less-than=2", template, Self.po.appendingPathComponent("fr.po").path])
        XCTAssertFalse(missing.contains("msgid \""), "texts in the sources and not in fr.po, or the other way round:\n\(missing)")
    }
}
