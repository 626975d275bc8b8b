import CGtk
import CGtkShims
import Foundation
import GtkTestSupport
import ListViewerKit
import ListViewManager
import XCTest

/// The viewer's three views of the same content, switched from the header bar: the list,
/// a grid of tiles (thumbnails of images) and a table sorted by its columns.
final class ViewModeTests: XCTestCase {
    /// A folder with a subfolder, a text file and images of different sizes (real PNG files).
    private func makeFolder() throws -> String {
        let root = NSTemporaryDirectory() + "list-viewer-modes-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/Holidays", withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        for (name, side) in [("beach.png", 40), ("alps.png", 160), ("city.png", 90)] {
            let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(side), Int32(side))!
            // Noise, so that the files' sizes follow their pictures' sizes.
            let pixels = gdk_pixbuf_get_pixels(pixbuf)!
            for index in 0..<Int(gdk_pixbuf_get_rowstride(pixbuf)) * side { pixels[index] = UInt8.random(in: 0...255) }
            var error: UnsafeMutablePointer<GError>?
            XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, root + "/" + name, "png", nil, nil, &error), 0)
            g_object_unref(UnsafeMutableRawPointer(pixbuf))
        }
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        return root
    }

    @MainActor
    private static func open(_ path: String) -> ViewerWindow {
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openDirectory(path)
        ViewerTestLoop.wait("the folder to load") { viewer.isLoaded }
        return viewer
    }

    /// Presses `viewer`'s header bar button for `mode` as Enter or Space on it does (GTK
    /// shows the button pressed for a moment, then it is clicked).
    @MainActor
    private static func press(_ viewer: ViewerWindow, _ mode: ViewMode) {
        XCTAssertNotEqual(gtk_widget_activate(viewer.viewButton(mode).gtkWidget), 0)
        ViewerTestLoop.wait("the \(mode) view") { viewer.viewMode == mode }
    }

    /// The names the storage of `viewer` holds in `section` (Folders 0, Images 1, Text 2).
    @MainActor
    private static func names(_ viewer: ViewerWindow, section: Int) -> [String] {
        (0..<viewer.activeManager.storage.numberOfItems(inSection: section)).compactMap {
            (viewer.activeManager.storage.item(at: IndexPath(item: $0, section: section)) as? DirectoryEntry)?.name
        }
    }

    func testTheHeaderBarSwitchesViewsAndTheSelectionComesAlong() throws {
        let root = try makeFolder()
        MainActor.assumeIsolated {
            let viewer = Self.open(root)
            XCTAssertEqual(viewer.shownPage, "list")
            let city = IndexPath(item: 2, section: 1)
            XCTAssertTrue(viewer.manager.select(city))
            XCTAssertEqual(viewer.detailsTitle, "city.png")

            Self.press(viewer, .grid)
            XCTAssertEqual(viewer.viewMode, .grid)
            XCTAssertEqual(viewer.shownPage, "grid")
            XCTAssertEqual(viewer.gridManager.selectedIndexPaths, [city])
            XCTAssertEqual(viewer.detailsTitle, "city.png")
            let storage = viewer.gridManager.storage
            // A folder's empty sections show no header, as in the list.
            let supplementary = (0..<storage.numberOfSections()).filter { storage.numberOfItems(inSection: $0) > 0 }.reduce(0) { count, section in
                count + (storage.headerModel(forSection: section) != nil ? 1 : 0) + (storage.footerModel(forSection: section) != nil ? 1 : 0)
            }
            XCTAssertEqual(viewer.gridManager.numberOfRows, 5 + supplementary, "tiles for the items, under the sections' headers")
            XCTAssertEqual(viewer.gridManager.stripRow(at: 0), .header(section: 0), "Folders")
            XCTAssertEqual(viewer.manager.numberOfRows, 0, "the hidden list let go of the items")
            // Image tiles show thumbnails made from the files, off the main thread. A tile is
            // bound once its strip is laid out near the visible part of the grid.
            // (The tile is asked for each time: a re-flow, when the grid's width settles, shows
            // the items in other tiles.)
            ViewerTestLoop.wait("the thumbnail of city.png") { (viewer.gridManager.row(at: city) as? ImageTile)?.showsThumbnail == true }
            XCTAssertEqual((viewer.gridManager.row(at: city) as? ImageTile)?.path, root + "/city.png")
            XCTAssertEqual((viewer.gridManager.row(at: IndexPath(item: 0, section: 0)) as? ItemTile)?.name.text, "Holidays")

            Self.press(viewer, .table)
            XCTAssertEqual(viewer.shownPage, "table")
            XCTAssertEqual(viewer.tableManager.selectedIndexPaths, [city])
            XCTAssertEqual(viewer.gridManager.numberOfRows, 0)
            XCTAssertEqual(viewer.tableManager.columns.map(\.title), ["Name", "Kind", "Size", "Modified"])

            Self.press(viewer, .list)
            XCTAssertEqual(viewer.manager.selectedIndexPaths, [city])
            XCTAssertEqual(viewer.detailsTitle, "city.png")
            ViewerTestLoop.close(viewer)
        }
    }

    /// The grid prefetches: the thumbnails of the images below the first screen are made
    /// before their tiles are bound, so that scrolling down shows them at once.
    func testTheThumbnailsOfTheImagesBelowTheGridAreMadeBeforeTheirTilesAreShown() throws {
        let root = NSTemporaryDirectory() + "list-viewer-prefetch-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 24, 24)!
        gdk_pixbuf_fill(pixbuf, 0x3366_99FF)
        for number in 0..<300 {
            var error: UnsafeMutablePointer<GError>?
            XCTAssertNotEqual(gdk_pixbuf_savev(pixbuf, root + String(format: "/image %03d.png", number), "png", nil, nil, &error), 0)
        }
        g_object_unref(UnsafeMutableRawPointer(pixbuf))
        MainActor.assumeIsolated {
            let viewer = Self.open(root)
            Self.press(viewer, .grid)
            let grid = viewer.gridManager
            ViewerTestLoop.wait("images below the grid prefetched") { grid.prefetchedIndexPaths.count == 48 }
            let farthest = grid.prefetchedIndexPaths.last!
            let path = (grid.storage.item(at: farthest) as? DirectoryEntry)?.path ?? ""
            XCTAssertEqual(path, root + String(format: "/image %03d.png", farthest.item))
            ViewerTestLoop.wait("the farthest one's thumbnail made") { Thumbnails.shared.isMade(path) }
            XCTAssertNil(grid.row(at: farthest), "before its tile was bound")
            ViewerTestLoop.close(viewer)
        }
    }

    func testAFolderTileOpensTheFolder() throws {
        let root = try makeFolder()
        try Data().write(to: URL(fileURLWithPath: root + "/Holidays/inside.txt"))
        MainActor.assumeIsolated {
            let viewer = Self.open(root)
            viewer.setViewMode(.grid)
            // Enter or a double click on the first tile: the grid's activate-item.
            let first = viewer.gridManager.position(of: IndexPath(item: 0, section: 0))!
            cgtk_shims_widget_activate_action(viewer.gridManager.view, "tiles.activate-item", g_variant_new_uint32(UInt32(first)))
            ViewerTestLoop.wait("the subfolder to open") { viewer.titleText == "Holidays" && viewer.isLoaded }
            XCTAssertEqual(viewer.viewMode, .grid, "the view stays a grid")
            XCTAssertEqual(Self.names(viewer, section: 2), ["inside.txt"])
            ViewerTestLoop.close(viewer)
        }
    }

    func testTheTableSortsBySizeAndTheSearchKeepsThatOrder() throws {
        let root = try makeFolder()
        try MainActor.assumeIsolated {
            let viewer = Self.open(root)
            viewer.setViewMode(.table)
            XCTAssertEqual(Self.names(viewer, section: 1), ["alps.png", "beach.png", "city.png"], "by name at first")
            let size = try XCTUnwrap(viewer.tableManager.columns.first { $0.title == "Size" })
            viewer.tableManager.sort(by: size, ascending: false)
            XCTAssertEqual(Self.names(viewer, section: 1), ["alps.png", "city.png", "beach.png"])

            viewer.searchEntry.text = "a"
            ViewerTestLoop.wait("the search") { viewer.filter.query == "a" }
            XCTAssertEqual(Self.names(viewer, section: 1), ["alps.png", "beach.png"])
            viewer.searchEntry.text = ""
            ViewerTestLoop.wait("the search to clear") { viewer.filter.query.isEmpty }
            XCTAssertEqual(Self.names(viewer, section: 1), ["alps.png", "city.png", "beach.png"], "the search keeps the sorted order")

            let name = try XCTUnwrap(viewer.tableManager.columns.first { $0.title == "Name" })
            viewer.tableManager.sort(by: name)
            XCTAssertEqual(Self.names(viewer, section: 1), ["alps.png", "beach.png", "city.png"])
            ViewerTestLoop.close(viewer)
        }
    }

    func testTheCatalogInAGridShowsItsFiveSectionsUnderTheirHeaders() throws { try MainActor.assumeIsolated {
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.show(try CatalogLoader.load(path: ViewerResources.sampleCatalog.path))
        viewer.setViewMode(.grid)
        MainLoopPump.drain(rounds: 20)
        let grid = viewer.gridManager
        XCTAssertEqual(grid.storage.numberOfSections(), 5)
        XCTAssertEqual((0..<5).reduce(0) { $0 + grid.storage.numberOfItems(inSection: $1) }, 310, "every item a tile")
        let rows = sequence(first: 0) { $0 + 1 }.lazy.map(grid.stripRow(at:)).prefix { $0 != nil }.compactMap { $0 }
        XCTAssertEqual(rows.filter { if case .header = $0 { true } else { false } }, (0..<5).map { StripRow.header(section: $0) },
                       "each section under its header")
        ViewerTestLoop.wait("the first tile") { viewer.gridManager.row(at: IndexPath(item: 0, section: 0)) != nil }
        let first = try XCTUnwrap(viewer.gridManager.row(at: IndexPath(item: 0, section: 0)) as? ItemTile)
        XCTAssertEqual(first.name.text, (viewer.filter.storage.item(at: IndexPath(item: 0, section: 0)) as? any Detailed)?.detailTitle)
        XCTAssertEqual(first.picture.iconName, "x-office-document-symbolic")
        ViewerTestLoop.close(viewer)
    } }

    func testTheViewCanBeChosenOnTheCommandLine() throws {
        XCTAssertEqual(try ViewerOptions.parse(["--view", "grid"]).viewMode, .grid)
        XCTAssertEqual(try ViewerOptions.parse([]).viewMode, .list)
        XCTAssertThrowsError(try ViewerOptions.parse(["--view", "cards"])) { error in
            XCTAssertEqual((error as? ViewerOptions.Problem)?.description,
                           "the value 'cards' is invalid for '--view <view>'. Please provide one of 'list', 'grid' or 'table'.")
        }
    }

    func testTheSelectionComesAlongToATableThatSortsOnArrival() throws {
        let root = NSTemporaryDirectory() + "list-viewer-sorted-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: root) }
        // Text files whose sizes run against their names.
        for (name, size) in [("a.txt", 300), ("b.txt", 100), ("c.txt", 200)] {
            try Data(repeating: 65, count: size).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        try MainActor.assumeIsolated {
            let viewer = Self.open(root)
            viewer.setViewMode(.table)
            viewer.tableManager.sort(by: try XCTUnwrap(viewer.tableManager.columns.first { $0.title == "Size" }))
            viewer.setViewMode(.list)
            // Read again, the folder is in name order; the table sorts it by size on arrival.
            viewer.openDirectory(root)
            ViewerTestLoop.wait("the folder read again") { viewer.isLoaded && viewer.filter.totalCount == 3 }
            let section = EntryKind.document.rawValue
            XCTAssertEqual(Self.names(viewer, section: section), ["a.txt", "b.txt", "c.txt"])
            XCTAssertTrue(viewer.manager.select(IndexPath(item: 2, section: section)))
            viewer.setViewMode(.table)
            XCTAssertEqual(Self.names(viewer, section: section), ["b.txt", "c.txt", "a.txt"])
            XCTAssertEqual(viewer.tableManager.selectedIndexPaths, [IndexPath(item: 1, section: section)])
            XCTAssertEqual(viewer.detailsTitle, "c.txt")
            ViewerTestLoop.close(viewer)
        }
    }

    func testAWindowClosedFromItsTitleBarFreesItsViewsEvenAfterSortingADatabase() throws {
        let sample = try SampleDatabase()
        defer { sample.remove() }
        try MainActor.assumeIsolated {
            weak var table: ColumnViewManager?
            weak var storage: AnyObject?
            var viewer: ViewerWindow? = ViewerWindow(application: ViewerTestApplication.shared)
            viewer!.present()
            viewer!.openDatabase(sample.path, table: "fruit")
            ViewerTestLoop.wait("the first rows") { viewer!.isLoaded }
            viewer!.setViewMode(.table)
            viewer!.tableManager.sort(by: try XCTUnwrap(viewer!.tableManager.columns.first { $0.title == "name" }))
            table = viewer!.tableManager
            storage = viewer!.tableManager.storage as AnyObject
            // What the title bar's close button does: the window is destroyed, not `close()`d.
            gtk_window_destroy(viewer!.window.gtkPointer(as: GtkWindow.self))
            viewer = nil
            MainLoopPump.drain(rounds: 20)
            XCTAssertNil(table, "the table's manager went with its window")
            XCTAssertNil(storage, "the database storage stopped and went too")
        }
    }
}
