import Foundation
import ListViewerKit
import XCTest

final class DirectoryTests: XCTestCase {
    /// A temporary tree with an entry of every kind, a symbolic link loop, a broken link and
    /// a folder without permissions.
    private func makeTree() throws -> String {
        let root = NSTemporaryDirectory() + "list-viewer-tree-" + UUID().uuidString
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: root + "/Photos", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: root + "/Locked", withIntermediateDirectories: true)
        try Data(count: 2048).write(to: URL(fileURLWithPath: root + "/holiday.JPG"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: root + "/notes.md"))
        try Data([0, 1, 2]).write(to: URL(fileURLWithPath: root + "/archive.bin"))
        try fileManager.createSymbolicLink(atPath: root + "/loop-a", withDestinationPath: root + "/loop-b")
        try fileManager.createSymbolicLink(atPath: root + "/loop-b", withDestinationPath: root + "/loop-a")
        try fileManager.createSymbolicLink(atPath: root + "/gone", withDestinationPath: root + "/nothing-here")
        try fileManager.createSymbolicLink(atPath: root + "/photos-link", withDestinationPath: root + "/Photos")
        chmod(root + "/Locked", 0)
        addTeardownBlock {
            chmod(root + "/Locked", 0o755)
            try? FileManager.default.removeItem(atPath: root)
        }
        return root
    }

    func testEntriesAreGroupedByKindAndProblemsAreShownAsSuch() throws {
        let root = try makeTree()
        var entries: [DirectoryEntry] = []
        try DirectoryReader.read(root, batchSize: 3) { entries += $0 }
        let byName = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0) })
        XCTAssertEqual(entries.count, 9)
        XCTAssertEqual(byName["Photos"]?.kind, .folder)
        XCTAssertEqual(byName["photos-link"]?.kind, .folder)
        XCTAssertEqual(byName["photos-link"]?.linkTarget, root + "/Photos")
        XCTAssertEqual(byName["holiday.JPG"]?.kind, .image)
        XCTAssertEqual(byName["holiday.JPG"]?.size, 2048)
        XCTAssertEqual(byName["notes.md"]?.kind, .document)
        XCTAssertEqual(byName["archive.bin"]?.kind, .other)
        XCTAssertEqual(byName["loop-a"]?.kind, .unreadable)
        XCTAssertEqual(byName["loop-a"]?.problem, "symbolic link loop")
        XCTAssertEqual(byName["gone"]?.kind, .unreadable)
        XCTAssertTrue(byName["gone"]?.problem?.hasPrefix("broken symbolic link") ?? false)
        // Permissions do not stop root; anyone else cannot open the locked folder.
        XCTAssertEqual(byName["Locked"]?.kind, geteuid() == 0 ? .folder : .unreadable)
    }

    func testNamesThatAreNotUTF8AreReadAndOpenedByTheirBytes() throws {
        let root = NSTemporaryDirectory() + "list-viewer-bytes-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = Array(root.utf8) + Array("/caf".utf8) + [0xE9] + Array(".txt".utf8)
        let folder = Array(root.utf8) + Array("/d".utf8) + [0xFF]
        XCTAssertEqual(Self.cString(file) { creat($0, 0o644) } >= 0, true)
        XCTAssertEqual(Self.cString(folder) { mkdir($0, 0o755) }, 0)
        var entries: [DirectoryEntry] = []
        try DirectoryReader.read(root) { entries += $0 }
        let text = entries.first { $0.kind == .document }
        XCTAssertEqual(text?.name, "caf\u{FFFD}.txt", "shown with a replacement character")
        XCTAssertEqual(text?.size, 0, "but read through its real bytes")
        let inner = try XCTUnwrap(entries.first { $0.kind == .folder })
        XCTAssertNil(DirectoryReader.check(raw: inner.rawPath), "and a folder opens by its bytes")
    }

    private static func cString<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    func testAFolderThatCannotBeListedIsAClearError() throws {
        XCTAssertEqual(DirectoryReader.check("/no/such/folder")?.description, "Cannot open /no/such/folder: No such file or directory")
        XCTAssertEqual(DirectoryReader.check(ViewerResources.sampleCatalog.path)?.reason, "not a folder")
        XCTAssertThrowsError(try DirectoryReader.read("/no/such/folder") { _ in })
        XCTAssertNil(DirectoryReader.check(NSTemporaryDirectory()))
    }

    func testNamesAreReadWholeFromTheLongestToTheShortest() throws {
        let root = NSTemporaryDirectory() + "list-viewer-names-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        // 255 bytes is the longest name ext4 and tmpfs allow; glibc's record for "a" is a few bytes.
        let names: Set = [String(repeating: "n", count: 255), "a", "ab"]
        for name in names { XCTAssertTrue(FileManager.default.createFile(atPath: root + "/" + name, contents: nil)) }
        var read = Set<String>()
        try DirectoryReader.read(root) { batch in read.formUnion(batch.map(\.name)) }
        XCTAssertEqual(read, names)
    }

    func testAFolderRemovedWhileItIsReadGivesTheEntriesReadSoFarAndSaysSo() throws {
        let root = NSTemporaryDirectory() + "list-viewer-removed-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        for index in 0..<1000 { _ = FileManager.default.createFile(atPath: root + "/f\(index).txt", contents: nil) }
        var batches: [[DirectoryEntry]] = []
        XCTAssertThrowsError(try DirectoryReader.read(root, batchSize: 100) { batch in
            batches.append(batch)
            // rm -rf after the first batch, on the reading thread.
            if batches.count == 1 { try? FileManager.default.removeItem(atPath: root) }
        }) { error in
            XCTAssertEqual("\(error)", "Cannot read \(root): the folder was removed while it was read")
        }
        XCTAssertEqual(batches.map(\.count), [100], "the entries read before, and none of those removed since")
        XCTAssertTrue(batches.joined().allSatisfy { $0.kind == .document })
    }

    /// A folder renamed while it is read is still there: its entries are looked up in the
    /// open folder, not by the old path, so every one comes, and nothing says it was removed.
    func testAFolderRenamedWhileItIsReadGivesEveryEntry() throws {
        let root = NSTemporaryDirectory() + "list-viewer-renamed-" + UUID().uuidString
        let renamed = root + "-renamed"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        addTeardownBlock {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: renamed)
        }
        for index in 0..<1000 { _ = FileManager.default.createFile(atPath: root + "/f\(index).txt", contents: nil) }
        var batches: [[DirectoryEntry]] = []
        try DirectoryReader.read(root, batchSize: 100) { batch in
            batches.append(batch)
            if batches.count == 1 { XCTAssertEqual(rename(root, renamed), 0) }
        }
        XCTAssertEqual(batches.joined().count, 1000)
        XCTAssertTrue(batches.joined().allSatisfy { $0.kind == .document }, "no entry unreadable")
    }

    func testBatchesCoverEveryEntryOnce() throws {
        let root = NSTemporaryDirectory() + "list-viewer-batches-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        for index in 0..<2500 { _ = FileManager.default.createFile(atPath: root + "/f\(index).txt", contents: nil) }
        var sizes: [Int] = []
        var names = Set<String>()
        try DirectoryReader.read(root, batchSize: 1000) { batch in
            sizes.append(batch.count)
            names.formUnion(batch.map(\.name))
        }
        XCTAssertEqual(sizes, [1000, 1000, 500])
        XCTAssertEqual(names.count, 2500)
    }
}
