import CGettext
import CGtk
import Foundation
import ListViewManager
import TestSupport
import XCTest

/// The translation tests' French user and their check that a translation is complete,
/// shared by the library's text domain and the viewer's (meson-helpers/po/DOMAIN).
public enum FrenchUser {
    /// The repository's folder.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `po` folder of the text domain `domain`.
    public static func po(_ domain: String) -> URL {
        repository.appendingPathComponent("meson-helpers/po/\(domain)")
    }

    /// Runs `program` with `arguments` (in `directory`), failing the test on a non-zero
    /// status; returns what it printed, both outputs.
    @discardableResult
    public static func run(_ program: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
        let result = try ChildProcess.run(program, arguments, in: directory)
        XCTAssertEqual(result.status, 0, "\(program) \(arguments): \(result.errors)")
        return result.output + result.errors
    }

    /// Runs `body` as a French user would see it: each of `domains`' fr.po compiled with
    /// msgfmt, as meson builds it, and bound; a French locale built with localedef (a
    /// machine may have only C.UTF-8, in which glibc 2.41 ignores LANGUAGE, where 2.36
    /// honours it). Everything is as before afterwards.
    @MainActor
    public static func run(domains: [TextDomain], _ body: () throws -> Void) throws {
        let locale = NSTemporaryDirectory() + "list-view-manager-locale-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: locale + "/fr/LC_MESSAGES", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: locale) }
        for domain in domains {
            try run("/usr/bin/msgfmt", ["-o", locale + "/fr/LC_MESSAGES/\(domain.name).mo", po(domain.name).appendingPathComponent("fr.po").path])
        }
        try run("/usr/bin/localedef", ["-i", "fr_FR", "-f", "UTF-8", locale + "/fr_FR.UTF-8"])
        let locpath = getenv("LOCPATH").map { String(cString: $0) }, language = getenv("LANGUAGE").map { String(cString: $0) }
        let messages = String(cString: setlocale(LC_MESSAGES, nil))
        let bound = domains.map { String(cString: bindtextdomain($0.name, nil)) }
        setenv("LOCPATH", locale, 1)
        setenv("LANGUAGE", "fr", 1)
        XCTAssertNotNil(setlocale(LC_MESSAGES, "fr_FR.UTF-8"), "the French locale built with localedef")
        domains.forEach { $0.bind(to: locale) }
        defer {
            setlocale(LC_MESSAGES, messages)
            if let locpath { setenv("LOCPATH", locpath, 1) } else { unsetenv("LOCPATH") }
            if let language { setenv("LANGUAGE", language, 1) } else { unsetenv("LANGUAGE") }
            // Binding again also empties gettext's cache of what it found.
            zip(domains, bound).forEach { $0.bind(to: $1) }
        }
        try body()
    }

    /// Checks that every text the Swift files under `sources` (folders of the repository)
    /// give `tr` is in the template xgettext makes from the domain's POTFILES, and
    /// translated in its fr.po (none missing, none fuzzy), and that POTFILES lists every
    /// such file.
    public static func checkTranslationIsComplete(domain: String, sources: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let po = po(domain)
        let listed = try String(contentsOf: po.appendingPathComponent("POTFILES"), encoding: .utf8).split(separator: "\n").map(String.init)
        let callers = try sources.flatMap { sources in
            let folder = repository.appendingPathComponent(sources)
            return try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
                guard path.hasSuffix(".swift"), let text = try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) else { return false }
                // Code, not comments (whose examples xgettext does not read either).
                return text.split(separator: "\n").contains { line in
                    !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && (line.contains("tr(\"") || line.contains("tr.plural(\""))
                }
            }.map { "../\(sources)/" + $0 }
        }
        XCTAssertEqual(Set(callers), Set(listed), "POTFILES lists every source that calls tr", file: file, line: line)

        let template = NSTemporaryDirectory() + "\(domain)-\(UUID().uuidString).pot"
        defer { try? FileManager.default.removeItem(atPath: template) }
        try run("/usr/bin/xgettext", ["--language=C", "--keyword=tr:1", "--keyword=plural:1,2", "--from-code=UTF-8", "-o", template] + listed,
                in: repository.appendingPathComponent("meson-helpers"))
        let statistics = try run("/usr/bin/msgfmt", ["--check", "--statistics", "-o", "/dev/null", po.appendingPathComponent("fr.po").path])
        XCTAssertFalse(statistics.contains("untranslated") || statistics.contains("fuzzy"), statistics, file: file, line: line)
        let unmatched = try run("/usr/bin/msgcomm", ["--unique", "--less-than=2", template, po.appendingPathComponent("fr.po").path])
        XCTAssertFalse(unmatched.contains("msgid \""), "texts in the sources and not in fr.po, or the other way round:\n\(unmatched)", file: file, line: line)
    }
}
