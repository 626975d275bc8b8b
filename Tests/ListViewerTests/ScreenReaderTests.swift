import CGtk
import CGtkShims
import Foundation
import XCTest
import GtkTestSupport

/// The real `list-viewer`, read and driven through AT-SPI as a screen reader would
/// (`ScreenReader/screen_reader.py`, Debian's python3-pyatspi), with the accessibility bus
/// started before the app, and driven from the real keyboard (xdotool).
final class ScreenReaderTests: XCTestCase {

    private let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("ScreenReader/screen_reader.py")

    /// Starts the session's accessibility bus (the first caller activates it) before the
    /// app, so the app registers with it when it starts, as under a desktop session.
    private func startAccessibilityBus() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            XCTFail("no D-Bus session: run the tests with meson-helpers/run-tests.sh (dbus-run-session)")
            return
        }
        let call = Process()
        call.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        call.arguments = ["call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                          "--method", "org.a11y.Bus.GetAddress"]
        call.standardOutput = Pipe()
        try call.run()
        call.waitUntilExit()
        XCTAssertEqual(call.terminationStatus, 0, "the accessibility bus (at-spi2-core) started")
    }

    /// Runs the viewer with `arguments` and the screen reader's `mode` (with `readerArguments`);
    /// returns its findings.
    private func read(_ mode: String, viewerArguments arguments: [String], readerArguments: [String] = []) throws -> [String: Any] {
        try startAccessibilityBus()
        let viewer = Process()
        viewer.executableURL = URL(fileURLWithPath: ViewerProcess.binary)
        viewer.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["G_DEBUG"] = "fatal-warnings"
        viewer.environment = environment
        // What the viewer prints goes to a file, so that a crash's backtrace can be part of
        // the failure (the end of a long run's log is all that may be kept of it).
        let viewerOutput = FileManager.default.temporaryDirectory
            .appendingPathComponent("list-viewer-screen-reader-\(UUID().uuidString).log")
        XCTAssertTrue(FileManager.default.createFile(atPath: viewerOutput.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: viewerOutput) }
        let viewerLog = try FileHandle(forWritingTo: viewerOutput)
        defer { try? viewerLog.close() }
        viewer.standardOutput = viewerLog
        viewer.standardError = viewerLog
        try viewer.run()
        defer {
            viewer.terminate()
            viewer.waitUntilExit()
        }
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        reader.arguments = [script.path, mode, "\(viewer.processIdentifier)"] + readerArguments
        // The app runs with fatal warnings; the screen reader is not under test.
        var readerEnvironment = ProcessInfo.processInfo.environment
        readerEnvironment["G_DEBUG"] = nil
        reader.environment = readerEnvironment
        let output = Pipe()
        let errors = Pipe()
        reader.standardOutput = output
        reader.standardError = errors
        try reader.run()
        // This process may be on the accessibility bus too (GTK tests ran in it): it keeps
        // answering while the reader asks, or the reader would wait on it.
        MainActor.assumeIsolated { _ = MainLoopPump.run(until: { !reader.isRunning }, timeout: .infinity) }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if !viewer.isRunning {
            let printed = (try? String(contentsOf: viewerOutput, encoding: .utf8)) ?? ""
            FileHandle.standardError.write(Data(printed.utf8))
            XCTFail("the viewer ended (a GLib warning or a crash), status \(viewer.terminationStatus): \(Self.crash(in: printed))")
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertEqual(reader.terminationStatus, 0, line + errorText)
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        return try XCTUnwrap(object, "the screen reader said: \(line) \(errorText)")
    }

    /// The part of `printed` (what the viewer wrote) that says why it ended: the crashed
    /// thread's first frames, or else the last lines.
    private static func crash(in printed: String) -> String {
        let lines = printed.split(separator: "\n", omittingEmptySubsequences: false)
        let start = lines.firstIndex { $0.contains("crashed") || $0.contains("-WARNING") || $0.contains("-CRITICAL") }
            ?? max(lines.count - 20, 0)
        return lines[start...].prefix(24).joined(separator: " | ")
    }

    func testAScreenReaderReadsRowsAndHeadingsSelectsABookAndReadsItsDetails() throws {
        let found = try read("catalog", viewerArguments: [])
        XCTAssertEqual(found["list"] as? String, "Items")
        let rows = try XCTUnwrap(found["rows"] as? [String])
        XCTAssertTrue(rows.contains("Book: Summer Library by Clara Duval, 1902"), "\(rows)")
        XCTAssertTrue(rows.contains("Book: Lost Machine by Ravi Menon, 1904"), "\(rows)")
        let headings = try XCTUnwrap(found["headings"] as? [String])
        XCTAssertEqual(headings.first, "Books", "section headers are headings named by their text")
        XCTAssertEqual(found["selected"] as? Bool, true)
        XCTAssertEqual(found["selected_count"] as? Int, 1)
        let details = try XCTUnwrap(found["details"] as? [String])
        XCTAssertEqual(details.first, "Summer Library")
        XCTAssertTrue(details.contains("Clara Duval") && details.contains("1902"), "\(details)")
        // The section index: a slider over the catalog's five sections, at the first ("B",
        // Books); a screen reader sets it to the third.
        let index = try XCTUnwrap(found["index"] as? [String: Any])
        XCTAssertEqual(index["name"] as? String, "Section index")
        if cgtk_shims_gtk_at_least(10) != 0 {
            XCTAssertEqual(index["minimum"] as? Double, 0)
            XCTAssertEqual(index["maximum"] as? Double, 4, "five titles: B(ooks), A(lbums), P(laces), …")
            XCTAssertEqual(index["current"] as? Double, 0, "at the first section")
            XCTAssertEqual(index["set"] as? Bool, true, "set to the third title")
        } else {
            XCTAssertEqual(index["description"] as? String, "B", "GTK 4.8: the title in the description")
        }
    }

    func testTheKeyboardOpensAFolderFromTheList() throws {
        let root = NSTemporaryDirectory() + "list-viewer-keyboard-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/alpha", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/beta", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/alpha/inside.txt", contents: Data("hello".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/readme.txt", contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let found = try read("folder", viewerArguments: [root], readerArguments: ["Down", "Return"])
        XCTAssertEqual(found["before"] as? [String], ["", "Folder: alpha", "Folder: beta", "", "Document: readme.txt"],
                       "a header, the folders, a header, the document")
        XCTAssertEqual(found["after"] as? [String], ["", "Document: inside.txt"], "Down then Return opened alpha")
    }

    func testAScreenReaderReadsTheGridsTilesByTheirItemsAndItsHeadersAsHeadings() throws {
        let root = NSTemporaryDirectory() + "list-viewer-grid-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/alpha", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/beta", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/readme.txt", contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let found = try read("grid", viewerArguments: [root, "--view", "grid"])
        XCTAssertEqual(found["tiles"] as? [String], ["Folder: alpha", "Folder: beta", "Document: readme.txt"], "each tile named by its item")
        XCTAssertEqual(found["headings"] as? [String], ["Folders", "Text and documents"], "each section's header a heading (none for empty sections)")
    }
}
