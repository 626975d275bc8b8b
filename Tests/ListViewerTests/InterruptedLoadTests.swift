import CGtk
import Foundation
import ListViewManager
import ListViewerKit
import XCTest

/// Loads interrupted: a folder removed while it is read.
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
}
