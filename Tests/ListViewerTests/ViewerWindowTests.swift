import CGtk
import CGtkShims
import Foundation
import ListViewerKit
import ListViewManager
import TestSupport
import XCTest

/// Logs the storage's deliveries, then passes them on to the manager.
final class ViewerWindowTests: XCTestCase {
    @MainActor
    private static func makeViewer() -> (Application, ViewerWindow) {
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        return (ViewerTestApplication.shared, viewer)
    }

    func testTheSampleIsShownAndSearchFiltersThroughStorageUpdates() throws { try MainActor.assumeIsolated {
        let (_, viewer) = Self.makeViewer()
        viewer.show(try CatalogLoader.load(path: ViewerResources.sampleCatalog.path))
        XCTAssertEqual(viewer.countText, "310 items")
        let log = UpdateRecorder()
        log.next = viewer.manager.contentUpdater
        viewer.manager.storageUpdater = log

        viewer.searchEntry.text = "machine"
        ViewerTestLoop.wait("the search to apply") { viewer.countText != "310 items" }
        let shown = viewer.manager.memoryStorage.totalNumberOfItems
        XCTAssertEqual(viewer.countText, "\(shown) of 310 items")
        XCTAssertGreaterThan(shown, 0)
        let titles = (0..<viewer.manager.memoryStorage.numberOfSections()).flatMap { viewer.manager.memoryStorage.items(inSection: $0) ?? [] }
        XCTAssertTrue(titles.allSatisfy { "\($0)".lowercased().contains("machine") })
        XCTAssertEqual(log.reloads, 0, "filtering changes the storage, it does not reload the view")
        XCTAssertEqual(log.updates.count, 1)

        viewer.searchEntry.text = ""
        ViewerTestLoop.wait("the search to clear") { viewer.countText == "310 items" }
        XCTAssertEqual(viewer.manager.memoryStorage.totalNumberOfItems, 310)
        XCTAssertEqual(log.reloads, 0)
        ViewerTestLoop.close(viewer)
    } }

    /// A catalog's text with a NUL (JSON's "\u0000") is shown whole, the NUL as "␀": GTK
    /// would end the text there.
    func testTextAfterANulIsShown() throws { try MainActor.assumeIsolated {
        let (_, viewer) = Self.makeViewer()
        let json = #"{"title": "a\u0000b", "sections": [{"items": [{"book": {"title": "nul\u0000inside", "author": "bell\u0007", "year": 1, "pages": 1}}]}]}"#
        viewer.show(try CatalogLoader.decode(Data(json.utf8), path: "nul.json"))
        ViewerTestLoop.waitForFrames(of: viewer.window.gtkWidget)
        XCTAssertEqual(viewer.titleText, "a␀b")
        let row = try XCTUnwrap(viewer.manager.row(at: IndexPath(item: 0, section: 0)) as? BookRow)
        XCTAssertEqual(row.title.text, "nul␀inside")
        XCTAssertEqual(row.subtitle.text, "bell␇")
        ViewerTestLoop.close(viewer)
    } }

    func testSelectingAnItemShowsItsDetails() throws { try MainActor.assumeIsolated {
        let (_, viewer) = Self.makeViewer()
        let catalog = try CatalogLoader.load(path: ViewerResources.sampleCatalog.path)
        viewer.show(catalog)
        XCTAssertNil(viewer.detailsTitle)
        // GTK's own action, on the first book's position (after the header row before GTK 4.12).
        let position = try XCTUnwrap(viewer.manager.position(of: IndexPath(item: 0, section: 0)))
        XCTAssertEqual(position, viewer.manager.showsNativeSectionHeaders ? 0 : 1)
        var parameters: [OpaquePointer?] = [g_variant_new_uint32(UInt32(position)), g_variant_new_boolean(0), g_variant_new_boolean(0)]
        let tuple = parameters.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        cgtk_shims_widget_activate_action(viewer.manager.view, "list.select-item", tuple)
        guard case .book(let first) = catalog.sections[0].items[0] else { return XCTFail("the sample starts with a book") }
        XCTAssertEqual(viewer.detailsTitle, first.title)
        // Searching the selected item out of the list clears the pane.
        viewer.searchEntry.text = "no item has this text"
        ViewerTestLoop.wait("the search to apply") { viewer.countText.hasPrefix("0 of") }
        XCTAssertNil(viewer.detailsTitle)
        ViewerTestLoop.close(viewer)
    } }

    func testALargeFolderArrivesInBatchesWhileTheWindowKeepsRunning() throws { try MainActor.assumeIsolated {
        let root = NSTemporaryDirectory() + "list-viewer-large-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        for index in 0..<20_000 { _ = FileManager.default.createFile(atPath: root + "/file\(index).txt", contents: nil) }
        let (_, viewer) = Self.makeViewer()
        var progress = Set<String>()
        var iterations = 0
        viewer.openDirectory(root)
        ViewerTestLoop.wait("the folder to load") {
            iterations += 1
            if viewer.countText.hasPrefix("Loading") { progress.insert(viewer.countText) }
            return viewer.isLoaded
        }
        XCTAssertEqual(viewer.countText, "20,000 items")
        XCTAssertEqual(viewer.manager.memoryStorage.numberOfItems(inSection: EntryKind.document.rawValue), 20_000)
        XCTAssertGreaterThan(iterations, 5, "the main loop kept running while the folder was read")
        XCTAssertFalse(progress.isEmpty, "progress was shown while loading")
        let first = viewer.manager.memoryStorage.item(at: IndexPath(item: 0, section: EntryKind.document.rawValue)) as? DirectoryEntry
        XCTAssertEqual(first?.name, "file0.txt", "entries are sorted by name once loaded")
        ViewerTestLoop.close(viewer)
    } }

    func testFoldersOpenOnActivationAndTheBackButtonReturns() throws { try MainActor.assumeIsolated {
        let root = NSTemporaryDirectory() + "list-viewer-window-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/Inner", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root + "/Inner/deep.txt", contents: nil)
        _ = FileManager.default.createFile(atPath: root + "/top.png", contents: nil)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (_, viewer) = Self.makeViewer()
        viewer.openDirectory(root)
        ViewerTestLoop.wait("the folder to load") { viewer.isLoaded }
        XCTAssertEqual(viewer.countText, "2 items")
        XCTAssertEqual(gtk_widget_get_visible(viewer.backButton.gtkWidget), 0)
        let folderPosition = try XCTUnwrap(viewer.manager.position(of: IndexPath(item: 0, section: EntryKind.folder.rawValue)))
        cgtk_shims_widget_activate_action(viewer.manager.view, "list.activate-item", g_variant_new_uint32(UInt32(folderPosition)))
        ViewerTestLoop.wait("the inner folder to load") { viewer.isLoaded && viewer.titleText == "Inner" }
        XCTAssertEqual(viewer.countText, "1 item")
        XCTAssertEqual(gtk_widget_get_visible(viewer.backButton.gtkWidget), 1)
        gtk_widget_activate(viewer.backButton.gtkWidget)
        ViewerTestLoop.wait("the first folder again") { viewer.isLoaded && viewer.titleText == (root as NSString).lastPathComponent }
        XCTAssertEqual(viewer.countText, "2 items")

        viewer.openDirectory("/no/such/folder")
        XCTAssertEqual(viewer.problem, "Cannot open /no/such/folder: No such file or directory")
        ViewerTestLoop.close(viewer)
    } }
    func testAFolderOpenedAgainShowsTheUserWhereTheyWere() throws { try MainActor.assumeIsolated {
        let root = NSTemporaryDirectory() + "list-viewer-place-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/Inner", withIntermediateDirectories: true)
        for index in 0..<400 { _ = FileManager.default.createFile(atPath: root + String(format: "/file-%03d.txt", index), contents: nil) }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (_, viewer) = Self.makeViewer()
        viewer.openDirectory(root)
        ViewerTestLoop.wait("the folder to load") { viewer.isLoaded }
        XCTAssertTrue(viewer.manager.scrollTo(IndexPath(item: 250, section: EntryKind.document.rawValue), at: .center))
        ViewerTestLoop.waitForFrames(of: viewer.manager.view, 6)
        let left = try XCTUnwrap(viewer.manager.place)
        XCTAssertNotNil(left.itemIdentity)

        viewer.openDirectory(root + "/Inner")
        ViewerTestLoop.wait("the inner folder to load") { viewer.isLoaded && viewer.titleText == "Inner" }
        ViewerTestLoop.waitForFrames(of: viewer.manager.view)
        XCTAssertNotEqual(viewer.manager.place?.itemIdentity, left.itemIdentity)
        // Meanwhile the folder gained files sorted before the one at the top: the place is
        // that file's, not its position's.
        for index in 0..<60 { _ = FileManager.default.createFile(atPath: root + String(format: "/0-new-%02d.txt", index), contents: nil) }
        gtk_widget_activate(viewer.backButton.gtkWidget)
        ViewerTestLoop.wait("the first folder again") { viewer.isLoaded && viewer.titleText == (root as NSString).lastPathComponent }
        ViewerTestLoop.wait("the place left") { viewer.manager.place?.itemIdentity == left.itemIdentity }
        ViewerTestLoop.waitForFrames(of: viewer.manager.view, 5)  // GTK brings the row in, then the view moves it
        XCTAssertEqual(viewer.manager.place?.itemIdentity, left.itemIdentity)
        XCTAssertEqual(viewer.manager.place?.offset ?? .nan, left.offset, accuracy: 1)
        ViewerTestLoop.close(viewer)
    } }
}
