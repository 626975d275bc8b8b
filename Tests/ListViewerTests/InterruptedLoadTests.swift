import CGtk
import Foundation
import ListViewManager
import ListViewerKit
import XCTest

/// Loads interrupted: a folder removed while it is read, a window closed while a folder, its
/// thumbnails or a database are loading.
final class InterruptedLoadTests: XCTestCase {
    /// A new folder holding `count` empty text files.
    static func makeFolder(files count: Int) throws -> String {
        let root = NSTemporaryDirectory() + "list-viewer-interrupted-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for index in 0..<count { _ = FileManager.default.createFile(atPath: root + "/file\(index).txt", contents: nil) }
        return root
    }

    func testAFolderRemovedWhileItIsReadEndsWithAMessageAndTheEntriesReadSoFar() throws { try MainActor.assumeIsolated {
        let root = try Self.makeFolder(files: 30_000)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        // rm -rf removes the files one by one, then the folder, while the viewer reads it.
        let remove = Process()
        remove.executableURL = URL(fileURLWithPath: "/bin/rm")
        remove.arguments = ["-rf", root]
        try remove.run()
        viewer.openDirectory(root)
        XCTAssertNil(viewer.problem, "the folder was still there when opened")
        ViewerTestLoop.wait("the read to end") { viewer.isLoaded }
        remove.waitUntilExit()
        let entries = (0..<viewer.manager.memoryStorage.numberOfSections()).flatMap { viewer.manager.memoryStorage.items(inSection: $0) ?? [] }
        // Read to its end before the folder went, or cut short with a message saying so.
        if let problem = viewer.problem {
            XCTAssertEqual(problem, "Cannot read \(root): the folder was removed while it was read")
        }
        XCTAssertLessThanOrEqual(entries.count, 30_000)
        XCTAssertEqual(entries.filter { ($0 as? DirectoryEntry)?.kind != .document }.count, 0,
                       "files removed meanwhile are left out, not listed as unreadable")
        XCTAssertFalse(viewer.countText.hasPrefix("Loading"), "the count is final: \(viewer.countText)")
        ViewerTestLoop.close(viewer)
    } }

    /// Runs the main loop for `seconds`.
    @MainActor
    private static func run(for seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        ViewerTestLoop.wait("\(seconds) s") { Date() > end }
    }

    func testAWindowClosedWhileAFolderIsReadTakesNoMoreOfIt() throws { try MainActor.assumeIsolated {
        let root = try Self.makeFolder(files: 30_000)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        var loaded = false
        viewer.onLoaded = { loaded = true }
        viewer.present()
        viewer.openDirectory(root)
        ViewerTestLoop.wait("the first batch") { viewer.countText.hasSuffix("entries") || viewer.isLoaded }
        XCTAssertFalse(viewer.isLoaded, "the folder is still being read when the window closes")
        let shown = viewer.filter.totalCount
        let count = viewer.countText
        viewer.close()
        Self.run(for: 1.5)
        XCTAssertFalse(loaded, "the closed window was not told the folder had loaded")
        XCTAssertEqual(viewer.filter.totalCount, shown, "no batch reached the closed window")
        XCTAssertEqual(viewer.countText, count)
    } }

    func testAWindowClosedWhileThumbnailsAreMadeIsLeftAlone() throws { try MainActor.assumeIsolated {
        let root = NSTemporaryDirectory() + "list-viewer-thumbnails-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let picture = try Data(contentsOf: ViewerResources.directory.appendingPathComponent("screenshot.png"))
        for index in 0..<60 { try picture.write(to: URL(fileURLWithPath: root + "/picture\(index).png")) }
        var viewer: ViewerWindow? = ViewerWindow(application: ViewerTestApplication.shared)
        weak let closed = viewer
        viewer?.setViewMode(.grid)
        viewer?.present()
        viewer?.openDirectory(root)
        ViewerTestLoop.wait("the folder to load") { viewer?.isLoaded ?? true }
        ViewerTestLoop.wait("the tiles") { viewer?.gridManager.row(at: IndexPath(item: 0, section: EntryKind.image.rawValue)) != nil }
        let tile = try XCTUnwrap(viewer?.gridManager.row(at: IndexPath(item: 0, section: EntryKind.image.rawValue)) as? ImageTile)
        XCTAssertFalse(tile.showsThumbnail, "closed before the thumbnails are made")
        viewer?.close()
        viewer = nil
        Self.run(for: 2)
        XCTAssertNil(closed, "the closed window went away while its thumbnails were being made")
    } }

    func testAWindowClosedWhileADatabaseIsFetchedIsLeftAlone() throws { try MainActor.assumeIsolated {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDatabase(sample.path, table: "fruit")
        ViewerTestLoop.wait("the first rows") { viewer.isLoaded }
        let table = try XCTUnwrap(viewer.liveTable)
        // Every key, read after the first rows are shown (a storage stopped before would
        // still read them once).
        ViewerTestLoop.wait("every key") { table.storage.isLoaded }
        var fetches = 0
        table.onFetch = { fetches += 1 }
        try sample.otherConnection().write { db in try db.execute(sql: "INSERT INTO fruit (name) VALUES ('plum')") }
        viewer.close()
        Self.run(for: 1.5)
        XCTAssertEqual(fetches, 0, "no fetch reached the closed window")
        XCTAssertEqual(viewer.countText, "3 rows")
    } }
}
