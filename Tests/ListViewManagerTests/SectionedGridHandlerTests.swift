import CGtk
import Foundation
@testable import ListViewManager
import ModelStorage
import XCTest
import GtkTestSupport

/// Storage changes made by event handlers, in a sectioned grid and in a plain list with the
/// same program: each is applied once GTK is done (never inside GTK's binding of a row or a
/// strip, nor inside a layout), and the view settles showing the storage.
extension SectionedGridTests {
    /// The managers each test runs with: the sectioned grid, and the plain list.
    @MainActor
    private static let makers: [() -> ItemViewManager] = [{ SectionedGridViewManager(maxColumns: 7) }, { ListViewManager() }]

    /// A window showing the manager `make` returns with three sections of 30 posts (headers
    /// "Day 0"…"Day 2").
    @MainActor
    private static func showThreeSections(_ make: () -> ItemViewManager, configure: (ItemViewManager) -> Void) -> GtkHarness {
        GtkHarness(showing: {
            let manager = make()
            if let grid = manager as? SectionedGridViewManager { grid.itemSize = (width: 150, height: 60) }
            manager.register(PostRow.self)
            manager.memoryStorage.setSectionHeaderModels((0..<3).map { "Day \($0)" })
            for section in 0..<3 {
                manager.memoryStorage.addItems((0..<30).map { Post(id: section * 30 + $0, title: "post \(section * 30 + $0)") }, toSection: section)
            }
            manager.canDelete(withItem: Post.self) { _, _ in true }
            manager.configuration.removesDeletedItems = true
            configure(manager)
            return manager
        })
    }

    /// What an app does from code: selects, scrolls, deselects, deletes the selection.
    @MainActor
    private static func selectScrollAndDelete(in manager: ItemViewManager, _ harness: GtkHarness) {
        _ = manager.select(IndexPath(item: 3, section: 0))
        harness.waitForFrames()
        _ = manager.scrollTo(IndexPath(item: 25, section: 2))
        harness.waitForFrames()
        _ = manager.deselect(IndexPath(item: 3, section: 0))
        _ = manager.select(IndexPath(item: 1, section: 0))
        harness.waitForFrames()
        _ = manager.deleteSelectedItems()
        harness.waitForFrames()
    }

    /// The manager's rows are the storage's: as many, each bound row showing its own post.
    @MainActor
    private static func assertShowsTheStorage(_ manager: ItemViewManager, file: StaticString = #filePath, line: UInt = #line) {
        let storage = manager.memoryStorage!
        XCTAssertEqual(manager.bridge.layout.count, 3 + storage.totalNumberOfItems, "headers and items (\(manager.kind.name))", file: file, line: line)
        for (_, entry) in manager.boundRows {
            guard case .item(let indexPath)? = manager.bridge.layout.row(at: entry.position), let row = entry.row as? PostRow else { continue }
            XCTAssertEqual(row.title.text, (storage.item(at: indexPath) as? Post)?.title,
                           "the row at \(indexPath) shows its post (\(manager.kind.name))", file: file, line: line)
        }
    }

    func testADidEndDisplayingHandlerThatEmptiesTheStorageLeavesTheViewEmpty() { onMain {
        for make in Self.makers {
            let harness = Self.showThreeSections(make) { manager in
                manager.didEndDisplaying(PostRow.self) { [unowned manager] _, _, _ in manager.memoryStorage.removeAllItems() }
            }
            let manager = harness.viewManager!
            // The grid's first re-flow to its width shows other items in its strips (their
            // tiles end their display); the list's deleted row ends its display.
            Self.selectScrollAndDelete(in: manager, harness)
            XCTAssertEqual(manager.memoryStorage.totalNumberOfItems, 0, "\(manager.kind.name)")
            Self.assertShowsTheStorage(manager)
            harness.close()
        }
    } }

    func testADidEndDisplayingHandlerChangingTheStorageAsTheWindowClosesChangesItOnceGTKIsDone() { onMain {
        for make in Self.makers {
            let harness = Self.showThreeSections(make) { _ in }
            let manager = harness.viewManager!
            // GTK unbinds and tears down every row as the window goes.
            manager.didEndDisplaying(PostRow.self) { [unowned manager] _, _, _ in manager.memoryStorage.removeAllItems() }
            harness.close()
            XCTAssertEqual(manager.memoryStorage.totalNumberOfItems, 0, "\(manager.kind.name)")
            XCTAssertEqual(manager.bridge.layout.count, 3, "only the headers are left (\(manager.kind.name))")
        }
    } }

    /// Makes every row event of `manager` change its storage near the row it fires for, 100
    /// changes in all; returns how many were made.
    @MainActor
    private static func changeTheStorageInEveryEvent(of manager: ItemViewManager) -> () -> Int {
        let storage = manager.memoryStorage!
        var changes = 0
        func change(_ body: () -> Void) {
            guard changes < 100 else { return }
            changes += 1
            body()
        }
        let post = { Post(id: 1000 + changes, title: "post \(1000 + changes)") }
        let count = { (section: Int) in storage.items(inSection: section)?.count ?? 0 }
        manager.configure(PostRow.self) { _, _, indexPath in change { try? storage.insertItem(post(), to: IndexPath(item: 0, section: indexPath.section)) } }
        manager.willDisplay(PostRow.self) { _, _, indexPath in
            guard count(indexPath.section) > 1 else { return }
            change { storage.moveItem(at: IndexPath(item: 0, section: indexPath.section), to: IndexPath(item: min(indexPath.item, count(indexPath.section) - 1), section: indexPath.section)) }
        }
        manager.didEndDisplaying(PostRow.self) { _, _, indexPath in
            guard count(indexPath.section) > 0 else { return }
            change { storage.removeItems(at: [IndexPath(item: 0, section: indexPath.section)]) }
        }
        manager.didSelect(PostRow.self) { _, _, indexPath in change { storage.addItem(post(), toSection: indexPath.section) } }
        manager.didDeselect(PostRow.self) { _, _, _ in change { storage.setSectionHeaderModels((0..<3).map { "Day \($0) \(changes)" }) } }
        return { changes }
    }

    func testHandlersChangingTheStorageAtEveryEventLetTheGridSettle() { onMain {
        for make in Self.makers {
            let harness = Self.showThreeSections(make) { _ in }
            let manager = harness.viewManager!
            let changes = Self.changeTheStorageInEveryEvent(of: manager)
            // Each strip GTK shows binds its tiles in the layout, whose handlers change the
            // strips GTK shows: applied in the layout, each change asked for another.
            Self.selectScrollAndDelete(in: manager, harness)
            harness.waitForFrames(10)
            XCTAssertEqual(changes(), 100, "every change was made (\(manager.kind.name))")
            Self.assertShowsTheStorage(manager)
            harness.close()
        }
    } }

    func testHandlersChangingTheStorageWhileGTKFirstBindsTheRowsChangeThemAfter() { onMain {
        for make in Self.makers {
            var changes: () -> Int = { 0 }
            // GTK sets up and binds the first rows as the window shows the view.
            let harness = Self.showThreeSections(make) { changes = Self.changeTheStorageInEveryEvent(of: $0) }
            let manager = harness.viewManager!
            Self.selectScrollAndDelete(in: manager, harness)
            harness.waitForFrames(10)
            XCTAssertEqual(changes(), 100, "every change was made (\(manager.kind.name))")
            Self.assertShowsTheStorage(manager)
            harness.close()
        }
    } }
}
