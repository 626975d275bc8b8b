import CGtk
import CGtkTestShims
import Foundation
import GRDB
import ListViewerKit
import SQLiteStorage
import XCTest

/// Runs the real `list-viewer` binary, as a user would, under the tests' display.
final class ViewerBinaryTests: XCTestCase {
    private func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let result = try ViewerProcess.run(arguments)
        return (result.status, result.errors + (result.timedOut ? "\n(killed: still running after a minute)" : ""))
    }

    func testScreenshotOfTheSampleIsAFullWindowThatIsNotBlank() throws {
        let path = NSTemporaryDirectory() + "list-viewer-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try run(["--screenshot", path])
        XCTAssertEqual(result.status, 0, result.errors)
        try MainActor.assumeIsolated {
            // Opening the display right after other clients (the viewer, xdotool) left it
            // failed once in several runs: a few tries, as a desktop session would.
            var opened = cgtk_shims_open_test_display() != 0
            for _ in 0..<5 where !opened {
                usleep(200_000)
                opened = cgtk_shims_open_test_display() != 0
            }
            XCTAssertTrue(opened, "GTK opened the tests' display")
            guard opened else { return }
            let texture = try XCTUnwrap(gdk_texture_new_from_filename(path, nil))
            defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
            let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
            XCTAssertGreaterThanOrEqual(width, 800)
            XCTAssertGreaterThanOrEqual(height, 600)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            pixels.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
            var colours = Set<UInt32>()
            var dark = 0
            for index in stride(from: 0, to: pixels.count, by: 4) {
                colours.insert(UInt32(pixels[index]) << 16 | UInt32(pixels[index + 1]) << 8 | UInt32(pixels[index + 2]))
                if pixels[index] < 100, pixels[index + 1] < 100, pixels[index + 2] < 100 { dark += 1 }
            }
            XCTAssertGreaterThan(colours.count, 20, "the picture has content, not one flat colour")
            XCTAssertGreaterThan(dark, width * height / 200, "text and icons are drawn")
        }
    }

    func testCommandLineProblemsGoToStandardErrorWithAFailingStatus() throws {
        let malformed = NSTemporaryDirectory() + "list-viewer-\(UUID().uuidString).json"
        try Data("{\"title\": \"x\", \"sections\": [".utf8).write(to: URL(fileURLWithPath: malformed))
        defer { try? FileManager.default.removeItem(atPath: malformed) }
        var result = try run([malformed])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("is not valid JSON"), result.errors)
        result = try run(["/no/such/path"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("/no/such/path: no such file or folder"), result.errors)
        result = try run(["--frobnicate"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.errors.contains("Usage: list-viewer"), result.errors)
    }

    func testAFolderIsShownWhateverItHolds() throws {
        let root = NSTemporaryDirectory() + "list-viewer-binary-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/loop", withDestinationPath: root + "/loop")
        _ = FileManager.default.createFile(atPath: root + "/a.txt", contents: Data("a".utf8))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/shot.png"
        let result = try run([root, "--screenshot", path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }

    func testScreenshotsAreWrittenEveryTime() throws {
        // Taken between frames, a screenshot was empty when anything asked to be redrawn
        // meanwhile: 10 to 15 runs in 20 wrote nothing for a folder of 200 "d"s holding one
        // of the same name (its list ran past the pane), 2 in 15 for the grid of a folder
        // of pictures (thumbnails arriving).
        let root = NSTemporaryDirectory() + "list-viewer-shots-\(UUID().uuidString)"
        let name = String(repeating: "d", count: 200)
        try FileManager.default.createDirectory(atPath: root + "/\(name)/\(name)", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/pictures", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let picture = try Data(contentsOf: ViewerResources.directory.appendingPathComponent("screenshot.png"))
        for index in 0..<60 { try picture.write(to: URL(fileURLWithPath: root + "/pictures/picture\(index).png")) }
        for attempt in 0..<20 {
            for arguments in [[root + "/" + name], [root + "/pictures", "--view", "grid"]] {
                let path = root + "/shot\(attempt)-\(arguments.count).png"
                let result = try run(arguments + ["--screenshot", path])
                XCTAssertEqual(result.status, 0, "run \(attempt) of \(arguments): \(result.errors)")
                XCTAssertTrue(FileManager.default.fileExists(atPath: path), "run \(attempt) of \(arguments)")
            }
        }
    }

    /// The width and height of the PNG at `path`, read from its header.
    private func pictureSize(_ path: String) throws -> (width: Int, height: Int) {
        let header = try XCTUnwrap(FileHandle(forReadingAtPath: path)).readData(ofLength: 24)
        XCTAssertEqual(header.count, 24, "\(path) is a PNG")
        let number = { (offset: Int) in header[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// A catalog titled `title` whose one book has the title `bookTitle`, written to a
    /// temporary file.
    private func writeCatalog(title: String, bookTitle: String) throws -> String {
        let catalog: [String: Any] = ["title": title, "sections": [["header": "Books", "items": [
            ["book": ["title": bookTitle, "author": "A. Writer", "year": 2001, "pages": 10]],
        ]]]]
        let path = NSTemporaryDirectory() + "list-viewer-title-\(UUID().uuidString).json"
        try JSONSerialization.data(withJSONObject: catalog).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testLongTitlesAreShortenedAndTheWindowKeepsItsSize() throws {
        let long = String(repeating: "T", count: 5000)
        let catalog = try writeCatalog(title: long, bookTitle: long)
        defer { try? FileManager.default.removeItem(atPath: catalog) }
        let shot = catalog + ".png"
        defer { try? FileManager.default.removeItem(atPath: shot) }
        var result = try run([catalog, "--screenshot", shot])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertFalse(result.errors.contains("BadAlloc"), result.errors)
        XCTAssertLessThanOrEqual(try pictureSize(shot).width, 1024, "the window is no wider than the screen")

        let sample = try SampleDatabase(extraSQL: "CREATE TABLE \"\(long)\" (name TEXT); INSERT INTO \"\(long)\" VALUES ('\(long)');")
        defer { sample.remove() }
        result = try run([sample.path, "--table", long, "--screenshot", shot])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertLessThanOrEqual(try pictureSize(shot).width, 1024, "the window is no wider than the screen")
    }

    func testATitleOfFiftyMegabytesIsShownQuicklyInLittleMemory() throws {
        let catalog = try writeCatalog(title: String(repeating: "B", count: 50_000_000), bookTitle: "A book")
        defer { try? FileManager.default.removeItem(atPath: catalog) }
        let shot = catalog + ".png"
        defer { try? FileManager.default.removeItem(atPath: shot) }
        let result = try ViewerProcess.run([catalog, "--screenshot", shot])
        XCTAssertEqual(result.status, 0, result.errors)
        // Processor time, not the time it took, which a loaded machine stretches (44 s
        // once, under AddressSanitizer beside a release build).
        XCTAssertLessThan(result.cpuSeconds, Self.underAddressSanitizer ? 60 : 30)
        // This run's own peak (250 MB; 560 MB to 1 GB under AddressSanitizer, whose shadow
        // memory, redzones and 256 MB quarantine scale with the machine, and 2.08 GB once
        // on GTK 4.18): `RUSAGE_CHILDREN` would give the largest of every viewer the tests
        // ran. The viewer is built as the tests are, so it is under AddressSanitizer when
        // they are.
        let budget = Self.underAddressSanitizer ? 3_000_000 : 1_000_000
        XCTAssertLessThan(result.peakKilobytes, budget, "the viewer took less than \(budget / 1_000_000) GB (in kB)")
        XCTAssertLessThanOrEqual(try pictureSize(shot).width, 1024)
    }

    /// Whether this test binary (and so the viewer, built with it) runs under AddressSanitizer:
    /// its runtime is linked in only then.
    private static var underAddressSanitizer: Bool {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
    }

    func testDatabaseProblemsAreMessagesWithAFailingStatus() throws {
        let sample = try SampleDatabase(extraSQL: "CREATE TABLE note (text TEXT);")
        defer { sample.remove() }
        var result = try run([sample.path, "--table", "vegetable"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("fruits.sqlite has no table vegetable; tables: fruit, note"), result.errors)
        result = try run([sample.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("choose one with --table: fruit, note"), result.errors)
        result = try run([sample.path, "--table", "fruit", "--section-by", "colour"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("table fruit has no column colour"), result.errors)
        result = try run([ViewerResources.sampleCatalog.path, "--table", "fruit"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.errors.contains("is not one"), result.errors)
        XCTAssertTrue(result.errors.contains("Usage: list-viewer"), result.errors)
    }

    /// `--install-change-log` installs the table's change log (again: nothing changes), then
    /// shows the table, still the database's only table to choose from; it applies to
    /// databases only.
    func testTheChangeLogIsInstalledOnAskingAndTwiceIsOnce() throws {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let shot = sample.folder + "/shot.png"
        for _ in 0..<2 {
            let result = try run([sample.path, "--install-change-log", "--section-by", "category", "--screenshot", shot])
            XCTAssertEqual(result.status, 0, result.errors)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: shot))
        let database = try sample.otherConnection()
        // A commit now is logged.
        try database.write { db in try db.execute(sql: "DELETE FROM fruit WHERE id = 2") }
        XCTAssertEqual(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(SQLiteChangeLog.logTable(for: "fruit").quotedSQLIdentifier)") }, 1)
        try database.close()

        // A log is not given a log of its own; a wrong option writes nothing.
        let log = try run([sample.path, "--table", SQLiteChangeLog.logTable(for: "fruit"), "--install-change-log"])
        XCTAssertEqual(log.status, 1)
        XCTAssertTrue(log.errors.contains("table list_view_manager_log_fruit is a change log: install the log on the table it logs"), log.errors)
        let other = try SampleDatabase()
        defer { other.remove() }
        let wrongColumn = try run([other.path, "--section-by", "colour", "--install-change-log"])
        XCTAssertEqual(wrongColumn.status, 1)
        let tables = try other.otherConnection().read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table'") }
        XCTAssertEqual(tables, ["fruit"], "nothing installed")

        let folder = try run([sample.folder, "--install-change-log"])
        XCTAssertEqual(folder.status, 2)
        XCTAssertTrue(folder.errors.contains("--install-change-log applies to a database, and \(sample.folder) is not one"), folder.errors)
    }

    func testADatabaseTableIsShown() throws {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let path = sample.folder + "/shot.png"
        let result = try run([sample.path, "--table", "fruit", "--section-by", "category", "--screenshot", path])
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }
}
