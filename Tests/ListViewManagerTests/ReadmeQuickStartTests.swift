import Foundation
import Synchronization
import TestSupport
import XCTest

/// The README's quick start is a whole app (`Tests/QuickStart/main.swift`, built as the
/// `QuickStart` executable): the test checks that the README shows exactly that file, that
/// it needs neither `CGtk` nor pointers, and runs it as a user would, clicking a row of its
/// window and pressing Enter.
final class ReadmeQuickStartTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let source = repository.appendingPathComponent("Tests/QuickStart/main.swift")

    func testTheReadmeShowsTheWholeAppWithoutCGtkOrPointers() throws {
        let app = try String(contentsOf: Self.source, encoding: .utf8)
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("## Quick start\n\n```swift\n" + app + "```\n"), "README.md's quick start is Tests/QuickStart/main.swift")
        let imports = app.split(separator: "\n").filter { $0.hasPrefix("import ") }
        XCTAssertEqual(imports, ["import Foundation", "import ListViewManager"])
        for raw in ["Unsafe", "OpaquePointer", "gtk_", "g_object", "assumingMemoryBound"] {
            XCTAssertFalse(app.contains(raw), "the quick start needs no \(raw)")
        }
    }

    func testTheQuickStartAppShowsItsPostsAndReportsAClickAndEnter() throws {
        let binary = ChildProcess.built("QuickStart")
        let process = Process()
        // Line-buffered, as on a terminal: the app prints, and is stopped, not quit.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = ["-oL", binary]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let printed = Mutex("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            printed.withLock { $0 += text }
        }
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            output.fileHandleForReading.readabilityHandler = nil
        }
        let window = try xdotool(["search", "--sync", "--name", "^Posts$"]).split(separator: "\n").first.map(String.init)
        let id = try XCTUnwrap(window, "the app opened its window")
        func waitForLine(_ prefix: String) -> String? {
            for _ in 0..<100 {
                if let line = printed.withLock({ $0 }).split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) { return String(line) }
                usleep(50_000)
            }
            return nil
        }

        // The lower half of the 400 × 300 window: a post of either section, under its header.
        _ = try xdotool(["mousemove", "--window", id, "60", "150", "click", "1"])
        let selected = try XCTUnwrap(waitForLine("selected "), "a click selects a post and the typed event tells which: \(printed.withLock { $0 })")
        let title = String(selected.dropFirst("selected ".count))
        XCTAssertTrue(["Swift on GTK", "Sections in 4.8", "Hello, world"].contains(title), selected)
        _ = try xdotool(["key", "--window", id, "Return"])
        XCTAssertEqual(waitForLine("opened "), "opened \(title)", "Enter opens the selected post")
        XCTAssertTrue(process.isRunning, "the app runs until its window closes")
        let complaints = String(decoding: errors.fileHandleForReading.availableDataIfRunning(process), as: UTF8.self)
        XCTAssertFalse(complaints.contains("CRITICAL") || complaints.contains("WARNING"), complaints)
    }

    private func xdotool(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run("/usr/bin/timeout", ["20", "xdotool"] + arguments)
        XCTAssertEqual(result.status, 0, "xdotool \(arguments.joined(separator: " ")): \(result.errors)")
        return result.output
    }
}

private extension FileHandle {
    /// What is there to read now, without waiting for the writer to finish.
    func availableDataIfRunning(_ process: Process) -> Data {
        let flags = fcntl(fileDescriptor, F_GETFL)
        _ = fcntl(fileDescriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fileDescriptor, F_SETFL, flags) }
        return (try? readToEnd()) ?? Data()
    }
}
