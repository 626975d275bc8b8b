import CGtk
import CGtkShims
import CGtkTestShims
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// Dragging rows with the real pointer: reordering (`canMove`, typed `moveItem` events, the
/// automatic storage move, the drop indicator, redirected and refused places, invalid
/// moves), rows with a context menu (a drag is no long press), drops from outside, dragging
/// out, dragging between lists, drops at the end, scrolling while dragging.
final class DragAndDropTests: XCTestCase {
    /// "A": posts 1…4; "B": posts 5, 6. Post 3 can't be moved.
    @MainActor
    private static func makeHarness(_ configure: (ListViewManager) -> Void = { _ in }) -> GtkHarness {
        GtkHarness { manager in
            manager.register(PostRow.self)
            manager.configuration.movesItemsInStorage = true
            manager.canMove(withItem: Post.self) { post, _ in post.id != 3 }
            configure(manager)
            manager.memoryStorage.setSectionHeaderModels(["A", "B"])
            manager.memoryStorage.addItems((1...4).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
            manager.memoryStorage.addItems((5...6).map { Post(id: $0, title: "post \($0)") }, toSection: 1)
        }
    }

    func testDraggingARowBelowAnotherMovesItThereWithATypedEvent() { onMain {
        var events: [String] = []
        let harness = Self.makeHarness { manager in
            manager.moveItem(PostRow.self) { row, post, source, destination in
                events.append("row \(row.title.text) \(post.id) \(describe(source)) -> \(describe(destination))")
            }
            manager.moveItem(model: Post.self) { post, _, _ in events.append("model \(post.id)") }
        }
        let rows = harness.boundRowsByPosition  // 0 "A", 1…4 posts 1…4, 5 "B", 6 post 5, 7 post 6
        harness.drag(from: rows[1]!.rootWidget, to: rows[3]!.rootWidget, at: 0.8)
        XCTAssertEqual(events, ["row post 1 1 [0,0] -> [0,2]", "model 1"])
        XCTAssertEqual(titles(harness.manager), [[2, 3, 1, 4], [5, 6]])

        let moved = harness.boundRowsByPosition
        harness.drag(from: moved[2]!.rootWidget, to: moved[7]!.rootWidget, at: 0.2)  // post 3: can't move
        harness.drag(from: moved[4]!.rootWidget, to: moved[7]!.rootWidget, at: 0.2)  // post 4 above post 6
        XCTAssertEqual(titles(harness.manager), [[2, 3, 1], [5, 4, 6]])
        XCTAssertEqual(events.count, 4, "post 3 did not move: \(events)")
        harness.close()
    } }

    func testTheRowUnderTheDragShowsWhereTheDropGoes() { onMain {
        let harness = Self.makeHarness()
        let rows = harness.boundRowsByPosition
        XCTAssertEqual(linePixels(in: rows[4]!.rootWidget), 0, "no line before the drag")
        harness.drag(from: rows[1]!.rootWidget, to: rows[4]!.rootWidget, at: 0.2, drop: false)
        XCTAssertTrue(gtk_widget_has_css_class(rows[4]!.rootWidget, "drop-above") != 0, "a line above post 4")
        harness.waitForFrames(1)
        XCTAssertGreaterThan(linePixels(in: rows[4]!.rootWidget), 100, "the line is drawn, in the selection colour")
        harness.releaseButton()
        harness.waitForFrames(1)
        XCTAssertTrue(gtk_widget_has_css_class(rows[4]!.rootWidget, "drop-above") == 0, "the line goes with the drag")
        XCTAssertEqual(linePixels(in: rows[4]!.rootWidget), 0, "and is no longer drawn")
        XCTAssertEqual(titles(harness.manager), [[2, 3, 1, 4], [5, 6]])
        harness.close()
    } }

    func testAMoveToAPlaceOutsideTheStorageIsAnAnomalyAndChangesNothing() { onMain {
        var anomalies: [String] = []
        let harness = Self.makeHarness { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0.description) }
        }
        XCTAssertFalse(harness.manager.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 9, section: 1)))
        XCTAssertFalse(harness.manager.moveItem(at: IndexPath(item: 7, section: 0), to: IndexPath(item: 0, section: 1)))
        XCTAssertEqual(anomalies, ["ListViewManagerAnomaly.invalidMove([0, 0] to [1, 9])", "ListViewManagerAnomaly.invalidMove([0, 7] to [1, 0])"])
        XCTAssertEqual(titles(harness.manager), [[1, 2, 3, 4], [5, 6]])
        harness.close()
    } }

    func testTextAndFilesDraggedFromOutsideTheListReachTheDropHook() { onMain {
        var drops: [String] = []
        let harness = Self.makeHarness { manager in
            manager.didDropFromOutside { content, indexPath in drops.append("\(content) at \(describe(indexPath))") }
        }
        // Labels above the list, dragging text and a file, as another part of the app (or
        // another app, a file manager) would.
        let note = Self.dragSource("a note", .text("a note"))
        let file = Self.dragSource("a file", .files(["/tmp/dropped file.txt"]))
        harness.arrange(GTK_ORIENTATION_VERTICAL, [note, file, harness.list])
        let rows = harness.boundRowsByPosition
        harness.drag(from: note, to: rows[6]!.rootWidget, at: 0.8)
        harness.drag(from: file, to: rows[0]!.rootWidget, at: 0.5)
        XCTAssertEqual(drops, ["text(\"a note\") at [1,1]", "files([\"/tmp/dropped file.txt\"]) at [0,0]"],
                       "below post 5; on the header of A: its first place")
        XCTAssertEqual(titles(harness.manager), [[1, 2, 3, 4], [5, 6]], "the storage is the app's to change")
        harness.close()
    } }

    // MARK: Rows with a context menu

    /// `makeHarness`, posts having a context menu too.
    @MainActor
    private static func makeHarnessWithMenus() -> GtkHarness {
        makeHarness { manager in
            manager.contextMenu(model: Post.self) { post, _ in [MenuEntry("Open post \(post.id)") { _ in }] }
        }
    }

    func testASlowDragOfARowWithAMenuMovesItAndOpensNoMenu() { onMain {
        let harness = Self.makeHarnessWithMenus()
        let rows = harness.boundRowsByPosition  // 0 "A", 1…4 posts 1…4, 5 "B", 6 post 5, 7 post 6
        harness.drag(from: rows[1]!.rootWidget, to: rows[3]!.rootWidget, at: 0.8, slowly: true)  // post 1 below post 3
        harness.outlastLongPress()
        XCTAssertEqual(titles(harness.manager), [[2, 3, 1, 4], [5, 6]])
        XCTAssertNil(harness.manager.shownContextMenuTitles, "a drag is no long press")
        harness.close()
    } }

    func testASlowDragHeldLongerThanALongPressTakesMovesTheRowAndOpensNoMenu() { onMain {
        let harness = Self.makeHarnessWithMenus()
        let rows = harness.boundRowsByPosition
        harness.drag(from: rows[4]!.rootWidget, to: rows[7]!.rootWidget, at: 0.2, drop: false, slowly: true)  // post 4 above post 6
        harness.outlastLongPress()
        XCTAssertNil(harness.manager.shownContextMenuTitles, "a drag held still is no long press either")
        XCTAssertEqual(dropMarks(harness), [7: "drop-above"], "the line stays under the drag")
        harness.releaseButton()
        harness.outlastLongPress()
        XCTAssertEqual(titles(harness.manager), [[1, 2, 3], [5, 4, 6]])
        XCTAssertNil(harness.manager.shownContextMenuTitles)
        harness.close()
    } }

    func testALongPressWithoutMovingOpensTheMenuOfARowThatCanBeDragged() { onMain {
        let harness = Self.makeHarnessWithMenus()
        harness.click(harness.boundRowsByPosition[2]!.rootWidget, holding: 2 * harness.longPressTime)
        XCTAssertEqual(harness.manager.shownContextMenuTitles, ["Open post 2"])
        harness.close()
    } }

    // MARK: Redirected and refused moves

    func testTargetIndexPathForMoveRedirectsOrRefusesAPlaceAndTheLineShowsWhereTheItemGoes() { onMain {
        var moves: [String] = []
        let harness = Self.makeHarness { manager in
            manager.targetIndexPathForMove(model: Post.self) { _, source, proposed in
                guard proposed.section == source.section else { return nil }  // stays in its section
                return IndexPath(item: max(proposed.item, 1), section: proposed.section)  // post 1 stays first
            }
            manager.moveItem(model: Post.self) { post, source, destination in moves.append("\(post.id) \(describe(source)) -> \(describe(destination))") }
        }
        let rows = harness.boundRowsByPosition  // 0 "A", 1…4 posts 1…4, 5 "B", 6 post 5, 7 post 6
        harness.drag(from: rows[4]!.rootWidget, to: rows[1]!.rootWidget, at: 0.2, drop: false)  // post 4 above post 1
        XCTAssertEqual(dropMarks(harness), [2: "drop-above"], "the line is above post 2, where post 4 goes instead")
        harness.releaseButton()
        XCTAssertEqual(titles(harness.manager), [[1, 4, 2, 3], [5, 6]])
        XCTAssertEqual(moves, ["4 [0,3] -> [0,1]"])
        XCTAssertEqual(dropMarks(harness), [:], "the line goes with the drag")

        let moved = harness.boundRowsByPosition
        harness.drag(from: moved[3]!.rootWidget, to: moved[4]!.rootWidget, at: 0.8)  // post 2 below post 3: as proposed
        XCTAssertEqual(titles(harness.manager), [[1, 4, 3, 2], [5, 6]])

        // Last, as GTK then flies the refused drag's icon back over the list for a while.
        let last = harness.boundRowsByPosition
        harness.drag(from: last[4]!.rootWidget, to: last[7]!.rootWidget, at: 0.2, drop: false)  // post 2 into B: refused
        XCTAssertEqual(dropMarks(harness), [:], "no line where the item cannot go")
        harness.releaseButton()
        XCTAssertEqual(moves.count, 2, "a refused drop does nothing")
        XCTAssertEqual(titles(harness.manager), [[1, 4, 3, 2], [5, 6]])
        harness.close()
    } }

    // MARK: Dragging out

    func testADraggableItemGivesItsTextAndFilesToOtherWidgetsAndStaysInItsList() { onMain {
        var outsideDrops: [String] = []
        let harness = GtkHarness { manager in
            manager.register(DocumentRow.self)
            manager.didDropFromOutside { content, _ in outsideDrops.append("\(content)") }
            manager.memoryStorage.addItems([Document(name: "report", path: "/tmp/report.txt"), Document(name: "notes", path: "/tmp/notes.txt"),
                                            Document(name: "clipping", path: "/tmp/clipping.txt", ownProvider: true)])
        }
        // Another part of the app: text entries, and a label taking files.
        let entry = gtk_entry_new()!, otherEntry = gtk_entry_new()!
        var receivedFiles: [String] = []
        let fileBox = Self.fileDropLabel { receivedFiles += $0 }
        harness.arrange(GTK_ORIENTATION_VERTICAL, [entry, otherEntry, fileBox, harness.list])
        let rows = harness.boundRowsByPosition
        harness.drag(from: rows[0]!.rootWidget, to: entry)
        XCTAssertEqual(String(cString: gtk_editable_get_text(OpaquePointer(entry))), "report", "the entry got the text")
        harness.drag(from: rows[1]!.rootWidget, to: fileBox)
        XCTAssertEqual(receivedFiles, ["/tmp/notes.txt"], "the label got the file")
        harness.drag(from: rows[2]!.rootWidget, to: otherEntry)
        XCTAssertEqual(String(cString: gtk_editable_get_text(OpaquePointer(otherEntry))), "clipping, in the app's own provider")
        harness.drag(from: rows[0]!.rootWidget, to: rows[1]!.rootWidget, at: 0.8)
        XCTAssertEqual(outsideDrops, [], "its own list does not take the item as text (it cannot move)")
        XCTAssertEqual((harness.manager.memoryStorage.items(inSection: 0) ?? []).map { ($0 as! Document).name }, ["report", "notes", "clipping"])
        harness.close()
    } }

    // MARK: Between lists

    func testAnItemDraggedToAnotherListMovesThereOrWithControlIsCopied() { onMain {
        var events: [String] = []
        var sources: [ItemViewManager] = []
        let (harness, other) = Self.makeTwoLists { other in
            // Anything but post 4: the list itself refuses what it has no row type for.
            other.canDropFromOtherList(model: Any.self) { model, _, _ in (model as? Post)?.id != 4 }
            other.didDropFromOtherList(model: Post.self) { post, source, destination, operation in
                events.append("\(post.id) to \(describe(destination)) \(operation)")
                sources.append(source)
            }
        }
        let rows = harness.boundRowsByPosition, otherRows = Self.rowsByPosition(other)  // posts 1…4; posts 10, 11
        harness.drag(from: rows[1]!.rootWidget, to: otherRows[1]!.rootWidget, at: 0.2, drop: false)  // post 2 above post 11
        XCTAssertEqual(dropMarks(other), [1: "drop-above"])
        harness.releaseButton()
        XCTAssertEqual(titles(harness.manager), [[1, 3, 4, -1]], "moved: it left A (-1: the banner)")
        XCTAssertEqual(titles(other), [[10, 2, 11]])
        XCTAssertEqual(events, ["2 to [0,1] move"])
        XCTAssertTrue(sources.allSatisfy { $0 === harness.viewManager }, "the event names the list the item came from")

        harness.drag(from: harness.boundRowsByPosition[1]!.rootWidget, to: Self.rowsByPosition(other)[0]!.rootWidget, at: 0.2, holding: ["ctrl"])
        XCTAssertEqual(titles(harness.manager), [[1, 3, 4, -1]], "copied: it stays in A")
        XCTAssertEqual(titles(other), [[3, 10, 2, 11]])
        XCTAssertEqual(events.last, "3 to [0,0] copy")

        // Refused drags last, each from a row of its own: GTK flies a refused drag's icon back
        // to where it started for a while, and a drag starting there meanwhile goes nowhere.
        harness.drag(from: harness.boundRowsByPosition[2]!.rootWidget, to: Self.rowsByPosition(other)[0]!.rootWidget, at: 0.2, drop: false)
        XCTAssertEqual(dropMarks(other), [:], "post 4 is refused")
        harness.releaseButton()
        harness.drag(from: harness.boundRowsByPosition[3]!.rootWidget, to: Self.rowsByPosition(other)[0]!.rootWidget, at: 0.2, drop: false)
        XCTAssertEqual(dropMarks(other), [:], "a banner is refused: the list has no row type for it")
        harness.releaseButton()
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(titles(other), [[3, 10, 2, 11]])
        XCTAssertEqual(harness.manager.memoryStorage.numberOfItems(inSection: 0), 4, "posts 1, 3, 4 and the banner")
        harness.close()
    } }

    func testAnEmptyListAndTheSpaceBelowTheLastRowTakeDrops() { onMain {
        let (harness, other) = Self.makeTwoLists(otherPosts: []) { other in
            other.canDropFromOtherList(model: Post.self) { _, _, _ in true }
        }
        let list = harness.manager.view
        harness.drag(from: harness.boundRowsByPosition[0]!.rootWidget, to: list, at: 0.9, drop: false)  // post 1 below the banner
        XCTAssertEqual(dropMarks(harness), [4: "drop-below"], "the line is below the last row")
        harness.releaseButton()
        XCTAssertEqual(titles(harness.manager), [[2, 3, 4, -1, 1]], "-1: the banner")

        harness.drag(from: harness.boundRowsByPosition[0]!.rootWidget, to: other.view, at: 0.5)  // post 2 into the empty list
        XCTAssertEqual(titles(other), [[2]])
        harness.drag(from: harness.boundRowsByPosition[0]!.rootWidget, to: other.view, at: 0.9)  // post 3 below its last row
        XCTAssertEqual(titles(other), [[2, 3]])
        XCTAssertEqual(titles(harness.manager), [[4, -1, 1]])
        harness.close()
    } }

    // MARK: Scrolling while dragging

    func testTheLineFollowsTheRowsGtkScrollsUnderADragHeldAtAnEdge() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.configuration.movesItemsInStorage = true
            manager.canMove(withItem: Post.self) { _, _ in true }
            manager.memoryStorage.addItems((0..<200).map { Post(id: $0, title: "post \($0)") })
        }
        let view = harness.manager.view
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(view))!
        var scrolled: Double { gtk_adjustment_get_value(adjustment) }
        harness.drag(from: harness.boundRowsByPosition[2]!.rootWidget, to: view, at: 0.98, drop: false)
        harness.wait(until: { scrolled > 600 }, "GTK to scroll the list down while the drag is at its bottom edge")
        XCTAssertEqual(Array(dropMarks(harness).keys), [position(in: harness, at: 0.98)], "the line is by the row under the pointer now")
        harness.movePointer(to: view, at: 0.01)
        let lowest = scrolled
        harness.wait(until: { scrolled < lowest - 200 }, "GTK to scroll the list up while the drag is at its top edge")
        XCTAssertEqual(Array(dropMarks(harness).keys), [position(in: harness, at: 0.01)])
        harness.movePointer(to: view, at: 0.5)
        let still = scrolled
        harness.waitForFrames(10)
        XCTAssertEqual(scrolled, still, "away from the edges, the list stays")
        // How far GTK scrolled back up depends on the machine's load: the drop is checked
        // against the row under the pointer, not a fixed place.
        let under = position(in: harness, at: 0.5) ?? 0
        harness.releaseButton()
        let dropped = (harness.manager.memoryStorage.items(inSection: 0) ?? []).firstIndex { ($0 as! Post).id == 2 }
        XCTAssertGreaterThan(under, 2, "the pointer is below post 2's old place")
        XCTAssertTrue((under - 1...under).contains(dropped ?? -1), "post 2 went where the drag was: \(String(describing: dropped)), by row \(under)")
        XCTAssertFalse(harness.viewManager.dragHover.isActive, "nothing follows the drag once it dropped")
        harness.close()
    } }

    func testADragHeldOverThePinnedHeaderScrollsTheListUp() { onMain {
        let harness = GtkHarness(showing: {
            let manager = ListViewManager()
            manager.register(PostRow.self)
            manager.canMove(withItem: Post.self) { _, _ in true }
            manager.memoryStorage.setSectionHeaderModels(["A", "B"])
            manager.memoryStorage.addItems((0..<100).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
            manager.memoryStorage.addItems((100..<200).map { Post(id: $0, title: "post \($0)") }, toSection: 1)
            return manager
        }, throughScrolledView: true)
        let adjustment = gtk_scrollable_get_vadjustment(OpaquePointer(harness.manager.view))!
        gtk_adjustment_set_value(adjustment, 2000)
        harness.waitForFrames(3)
        guard let middle = position(in: harness, at: 0.5).flatMap({ harness.boundRowsByPosition[$0] }) else { return XCTFail("no row in the middle") }
        // The pinned copy of the header covers the list's top edge, where GTK would scroll.
        harness.drag(from: middle.rootWidget, to: harness.manager.view, at: 0.01, drop: false)
        harness.wait(until: { gtk_adjustment_get_value(adjustment) < 1600 }, "the list to scroll up under the drag")
        harness.movePointer(to: harness.manager.view, at: 0.5)
        let still = gtk_adjustment_get_value(adjustment)
        harness.waitForFrames(10)
        XCTAssertEqual(gtk_adjustment_get_value(adjustment), still, "off the header, the list stays")
        harness.releaseButton()
        XCTAssertFalse(harness.viewManager.dragHover.isActive)
        harness.close()
    } }

    /// A window with list A (the harness's: posts 1…4 and a banner, which list B has no
    /// row type for) beside list B (`otherPosts`), both moving items in their storages.
    @MainActor
    private static func makeTwoLists(otherPosts: [Int] = [10, 11], _ configure: (ListViewManager) -> Void) -> (GtkHarness, ListViewManager) {
        let harness = GtkHarness { manager in
            manager.register(PostRow.self)
            manager.register(BannerRow.self)
            manager.configuration.movesItemsInStorage = true
            manager.canMove(withItem: Any.self) { _, _ in true }
            manager.memoryStorage.addItems((1...4).map { Post(id: $0, title: "post \($0)") })
            manager.memoryStorage.addItem(Banner(text: "banner"))
        }
        let other = ListViewManager()
        other.register(PostRow.self)
        other.configuration.movesItemsInStorage = true
        configure(other)
        if !otherPosts.isEmpty { other.memoryStorage.addItems(otherPosts.map { Post(id: $0, title: "post \($0)") }) }
        harness.arrange(GTK_ORIENTATION_HORIZONTAL, [harness.list, GtkHarness.scrolled(other.view)])
        return (harness, other)
    }

    @MainActor
    private static func rowsByPosition(_ manager: ItemViewManager) -> [Int: RowWidget] {
        Dictionary(manager.boundRows.map { (Int(gtk_list_item_get_position($0.listItem)), $0.row.row) }, uniquingKeysWith: { first, _ in first })
    }

    /// A label taking files dropped on it, handing their paths to `received`.
    @MainActor
    private static func fileDropLabel(_ received: @escaping @MainActor ([String]) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new("drop files here")!
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        Signal.connect(UnsafeMutableRawPointer(target), "drop") { (value: UnsafePointer<GValue>, _: Double, _: Double) in
            guard let paths = cgtk_shims_dropped_files(value) else { return false }
            defer { g_strfreev(paths) }
            var files: [String] = []
            while let path = paths[files.count] { files.append(String(cString: path)) }
            received(files)
            return true
        }
        gtk_widget_add_controller(label, target)
        return label
    }

    /// A label whose drag carries `content`.
    @MainActor
    private static func dragSource(_ text: String, _ content: DragContent) -> UnsafeMutablePointer<GtkWidget> {
        let label = gtk_label_new(text)!
        let source = gtk_drag_source_new()!
        let provider = content.makeProvider()
        withExtendedLifetime(provider) { gtk_drag_source_set_content(source, provider.pointer) }
        gtk_widget_add_controller(label, source)
        return label
    }
}

private func describe(_ indexPath: IndexPath) -> String {
    "[\(indexPath.section),\(indexPath.item)]"
}

/// A model dragged out as its name (text) and its file, or through a content provider of
/// the app's own.
private struct Document: DraggableModel {
    let name: String
    let path: String
    var ownProvider = false

    var dragContent: [DragContent] {
        guard ownProvider else { return [.text(name), .files([path])] }
        return [.provider(ObjectReference(adopting: cgtk_shims_text_content_new("\(name), in the app's own provider")!))]
    }
}

private final class DocumentRow: ListRow, ModelTransfer {
    let name = Label()
    required init() { super.init(); append(name) }
    func update(with model: Document) { name.text = model.name }
}

/// The position of the row on screen at `fraction` of the list's height: of the widget GTK
/// made for its item, padding included (GTK leaves the rows it keeps off screen where they
/// were, unmapped).
@MainActor
private func position(in harness: GtkHarness, at fraction: Double) -> Int? {
    let view = harness.manager.view
    let y = Float(fraction) * Float(gtk_widget_get_height(view))
    return harness.boundRowsByPosition.first { _, row in
        var bounds = graphene_rect_t()
        guard let item = harness.viewManager.itemWidget(of: row), gtk_widget_get_mapped(item) != 0,
              gtk_widget_compute_bounds(item, view, &bounds) != 0 else { return false }
        return y >= bounds.origin.y && y < bounds.origin.y + bounds.size.height
    }?.key
}

/// The bound rows of `manager` marked as where a drop goes, by position, with the mark.
@MainActor
private func dropMarks(_ harness: GtkHarness) -> [Int: String] {
    dropMarks(harness.viewManager)
}

@MainActor
private func dropMarks(_ manager: ItemViewManager) -> [Int: String] {
    var marks: [Int: String] = [:]
    for (listItem, attached) in manager.boundRows {
        for mark in ["drop-above", "drop-below", "drop-before", "drop-after"] where gtk_widget_has_css_class(attached.row.rootWidget, mark) != 0 {
            marks[Int(gtk_list_item_get_position(listItem))] = mark
        }
    }
    return marks
}

/// The post ids of each section of `manager`'s storage (-1 for other models).
@MainActor
private func titles(_ manager: ListViewManager) -> [[Int]] {
    (0..<manager.memoryStorage.numberOfSections()).map { section in
        (manager.memoryStorage.items(inSection: section) ?? []).map { ($0 as? Post)?.id ?? -1 }
    }
}

/// How many pixels of `row`, rendered as it looks now, are of a strong blue like the theme's
/// selection colour (rows are black text on white otherwise).
@MainActor
private func linePixels(in row: UnsafeMutablePointer<GtkWidget>) -> Int {
    guard let texture = Screenshot.render(row) else { return -1 }
    defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
    let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    pixels.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
    // gdk_texture_download writes B, G, R, A bytes (CAIRO_FORMAT_ARGB32, little-endian).
    return stride(from: 0, to: pixels.count, by: 4).filter { index in
        Int(pixels[index]) > Int(pixels[index + 2]) + 60 && pixels[index + 3] > 200
    }.count
}
