import Foundation
import ListViewerKit
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What the viewer says about paths that are not a folder, a catalog or a database, and
/// paths whose names are not UTF-8.
final class PathKindTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "list-viewer-paths-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func problem(_ arguments: [String]) -> ViewerOptions.Problem? {
        do {
            _ = try ViewerOptions.parse(arguments)
            return nil
        } catch {
            return error as? ViewerOptions.Problem
        }
    }

    func testAFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let fifo = folder + "/pipe.sqlite"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let result = try ViewerProcess.run([fifo, "--screenshot", folder + "/shot.png"], timeout: 20)
        XCTAssertFalse(result.timedOut, "the viewer did not wait for a writer")
        XCTAssertEqual(result.status, 1, result.errors)
        XCTAssertTrue(result.errors.contains("list-viewer: \(fifo) is a FIFO, not a file or folder"), result.errors)
    }

    func testLookingForTheSQLiteHeaderInAFIFODoesNotWait() throws {
        let fifo = folder + "/pipe"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let answered = DispatchSemaphore(value: 0)
        let isSQLite = LockedFlag()
        DispatchQueue.global().async {
            isSQLite.value = DatabaseFile.isSQLite(fifo)
            answered.signal()
        }
        let waited = answered.wait(timeout: .now() + 5) == .timedOut
        XCTAssertFalse(waited, "isSQLite answered without a writer")
        if waited {
            // Lets the blocked reader go: a writer opens the other end and closes it (end of file).
            close(open(fifo, O_WRONLY | O_NONBLOCK))
            answered.wait()
        }
        XCTAssertFalse(isSQLite.value)
    }

    func testADeviceIsNamedForWhatItIs() throws {
        let problem = try XCTUnwrap(problem(["/dev/null"]))
        XCTAssertEqual(problem.description, "/dev/null is a character device, not a file or folder")
        XCTAssertFalse(problem.isUsageError)
    }

    func testASymbolicLinkLoopIsNamedForWhatItIs() throws {
        let loop = folder + "/loop"
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        XCTAssertEqual(problem([loop])?.description, "\(loop): symbolic link loop")
        XCTAssertEqual(problem(["/no/such/place"])?.description, "/no/such/place: no such file or folder")
    }

    func testAnEmptyFileIsSaidToBeEmpty() throws {
        for name in ["empty.sqlite", "empty.json", "empty"] {
            let path = folder + "/" + name
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
            let result = try ViewerProcess.run([path, "--screenshot", folder + "/shot.png"])
            XCTAssertEqual(result.status, 1, result.errors)
            XCTAssertTrue(result.errors.contains("list-viewer: \(path) is empty"), result.errors)
        }
    }

    func testTheCommandLineKeepsThePathsOwnBytes() throws {
        let raw = Array(folder.utf8) + [UInt8(ascii: "/"), 0xFF]
        XCTAssertEqual((raw.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { mkdir($0.baseAddress!, 0o755) }, 0)
        XCTAssertEqual(try ViewerOptions.parse(raw: [raw]).source, .directory(raw: raw))
        // A file is opened by a text name (SQLite's and Foundation's calls take one): refused, saying why.
        let file = raw + Array("/c.json".utf8)
        let descriptor = (file.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { creat($0.baseAddress!, 0o644) }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        close(descriptor)
        XCTAssertThrowsError(try ViewerOptions.parse(raw: [file])) { error in
            XCTAssertEqual("\(error)", "\(folder)/\u{FFFD}/c.json: a file whose path is not UTF-8 cannot be opened; rename it")
        }
    }

    func testAFolderWhoseNameIsNotUTF8Opens() throws {
        let name = Array("caf".utf8) + [0xFF]
        let raw = Array(folder.utf8) + [UInt8(ascii: "/")] + name
        XCTAssertEqual((raw.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { mkdir($0.baseAddress!, 0o755) }, 0)
        let result = try ViewerProcess.run(raw: [raw, Array("--screenshot".utf8), Array((folder + "/shot.png").utf8)])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/shot.png"))
    }
}

/// A flag set on another thread.
private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
