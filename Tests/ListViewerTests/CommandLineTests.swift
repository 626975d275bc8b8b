import CGtk
import Foundation
import ListViewerKit
import TestSupport
import XCTest

/// `list-viewer`'s command line as a shell user meets it: the help, `--version`, the shell
/// completions and the usage errors, from the real binary.
final class CommandLineTests: XCTestCase {
    /// Runs the viewer (no window is opened for any of these) and collects both outputs.
    private func run(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(ViewerProcess.binary, arguments)
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func testTheHelpNamesEveryOptionAndWhatAPathCanBe() throws {
        for option in ["--help", "-h"] {
            let result = try run([option])
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertEqual(result.errors, "")
            for text in ["USAGE: list-viewer [<path-or-url>]", "--table <name>", "--section-by <column>", "--view <view>",
                         "values: list, grid, table", "--screenshot <file.png>", "--version", "postgres://USER@HOST/DB",
                         "PGPASSWORD", "an SQLite file"] {
                XCTAssertTrue(result.output.contains(text), "\(option) shows \(text)")
            }
        }
    }

    func testTheVersionIsTheProjectsAndNamesTheGTKItRunsOn() throws {
        let result = try run(["--version"])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(result.output, "\(ViewerApp.version) (GTK \(gtk_get_major_version()).\(gtk_get_minor_version()).\(gtk_get_micro_version()))\n")
        let meson = try String(contentsOf: Self.repository.appendingPathComponent("meson-helpers/meson.build"), encoding: .utf8)
        XCTAssertTrue(meson.contains("project('list-viewer', version: '\(ViewerApp.version)'"), "meson.build's version is the viewer's")
        let metainfo = try String(contentsOf: Self.repository.appendingPathComponent("Resources/\(ViewerApp.applicationID).metainfo.xml"), encoding: .utf8)
        XCTAssertTrue(metainfo.contains("<release version=\"\(ViewerApp.version)\""), "the newest release in the metainfo is the viewer's version")
    }

    /// What bash's completion offers for the words of `line` (the last one being completed),
    /// through the script `list-viewer --generate-completion-script bash` prints.
    private func bashCompletions(_ words: [String]) throws -> [String] {
        let script = try run(["--generate-completion-script", "bash"])
        XCTAssertEqual(script.status, 0, script.errors)
        let file = NSTemporaryDirectory() + "list-viewer-completion-\(UUID().uuidString).bash"
        try script.output.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let result = try ChildProcess.run("/bin/bash", ["-c", """
            source '\(file)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _list-viewer list-viewer "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """])
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output.split(separator: "\n").map(String.init)
    }

    func testBashCompletesTheOptionsAndTheViews() throws {
        XCTAssertEqual(try bashCompletions(["list-viewer", "--view", ""]), ["list", "grid", "table"])
        XCTAssertEqual(try bashCompletions(["list-viewer", "--sec"]), ["--section-by"])
        let options = try bashCompletions(["list-viewer", "--"])
        for option in ["--table", "--section-by", "--view", "--screenshot", "--version", "--help"] {
            XCTAssertTrue(options.contains(option), "bash offers \(option) (offered \(options))")
        }
    }

    func testZshAndFishScriptsOfferEveryOption() throws {
        for shell in ["zsh", "fish"] {
            let result = try run(["--generate-completion-script", shell])
            XCTAssertEqual(result.status, 0, result.errors)
            for option in ["table", "section-by", "view", "screenshot"] {
                XCTAssertTrue(result.output.contains(option), "\(shell)'s script offers --\(option)")
            }
            XCTAssertTrue(result.output.contains("list") && result.output.contains("grid"), "\(shell)'s script offers the views")
        }
    }

    func testAWrongOptionIsStatus2WithTheUsageAndBadInputIsStatus1() throws {
        for (arguments, message) in [(["--frobnicate"], "list-viewer: unknown option '--frobnicate'"),
                                     (["--view", "cards"], "list-viewer: the value 'cards' is invalid for '--view <view>'"),
                                     (["--screenshot"], "list-viewer: missing value for '--screenshot <file.png>'"),
                                     (["a", "b"], "list-viewer: unexpected argument 'b'"),
                                     (["--section-by", "genre"], "list-viewer: --section-by needs an SQLite database's path or a postgres:// URL")] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.errors.hasPrefix(message), result.errors)
            XCTAssertTrue(result.errors.contains("Usage: list-viewer [<path-or-url>]"), result.errors)
            XCTAssertTrue(result.errors.contains("See 'list-viewer --help'"), result.errors)
            XCTAssertEqual(result.output, "")
        }
        let result = try run(["/no/such/place"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.errors, "list-viewer: /no/such/place: no such file or folder\n", "bad input: the message alone")
    }
}
