import CGtk
import Foundation
@testable import ListViewManager
import ModelStorage
import Synchronization
import XCTest
import GtkTestSupport

/// Registration as DTTableViewManager 11 allows it: row types that are not `ModelTransfer`
/// with a handler, a mapping naming its template, visible rows refreshed without a storage
/// change, and the anomalies of events that can never fire.
final class RegistrationParityTests: XCTestCase {
    func testAHandlerFillsARowTypeThatIsNotModelTransferBeforeItIsShown() { onMain {
        final class PlainRow: ListRow {
            let title = Label()
            required init() { super.init(); append(title) }
        }
        var events: [String] = []
        let harness = GtkHarness { manager in
            manager.register(PlainRow.self, for: Post.self, mapping: { mapping in
                mapping.modelCondition = { _, post in post.id != 3 }
                mapping.willDisplay { row, post, _ in events.append("display \(post.id): \(row.title.text)") }
                mapping.didSelect { row, post, indexPath in events.append("select \(post.id) \(row.title.text) [\(indexPath.item)]") }
            }, handler: { row, post, indexPath in
                row.title.text = "\(indexPath.item + 1). \(post.title)"
            })
            manager.register(PostRow.self)
            manager.memoryStorage.addItems([Post(id: 1, title: "one"), Post(id: 2, title: "two"), Post(id: 3, title: "three")])
        }
        let rows = harness.boundRowsByPosition
        XCTAssertEqual((rows[0] as? PlainRow)?.title.text, "1. one")
        XCTAssertEqual((rows[1] as? PlainRow)?.title.text, "2. two")
        XCTAssertTrue(rows[2] is PostRow, "the mapping's condition leaves post 3 to the next mapping")
        XCTAssertEqual(events, ["display 1: 1. one", "display 2: 2. two"], "the handler ran before willDisplay")
        harness.selectRow(1)
        harness.manager.memoryStorage.reloadItem(Post(id: 2, title: "two, edited"))
        harness.waitForFrames()
        XCTAssertEqual((harness.boundRowsByPosition[1] as? PlainRow)?.title.text, "2. two, edited", "and runs again on an update in place")
        XCTAssertEqual(events.last, "select 2 2. two [1]")
        harness.close()
    } }

    func testALabelIsARowOfItsOwnFilledByItsHandler() { onMain {
        let harness = GtkHarness { manager in
            // As the README writes it.
            manager.register(Label.self, for: String.self) { label, text, indexPath in label.text = text }
            manager.memoryStorage.addItems(["Milk", "Bread"])
        }
        let rows = harness.boundRowsByPosition
        XCTAssertEqual((rows[0] as? Label)?.text, "Milk")
        XCTAssertEqual((rows[1] as? Label)?.text, "Bread")
        XCTAssertTrue(rows.values.allSatisfy { gtk_widget_get_mapped($0.rootWidget) != 0 }, "the labels are on screen")
        try? harness.manager.memoryStorage.replaceItem("Bread", with: "Rye bread")
        harness.waitForFrames()
        XCTAssertEqual((harness.boundRowsByPosition[1] as? Label)?.text, "Rye bread", "the handler runs again on an update in place")
        harness.close()
    } }

    func testAMappingNamesTheTemplateItsRowsLoad() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PhotoTemplateRow.self, bundle: .module) { mapping in
                mapping.templateName = "CompactPhotoRow"
                mapping.modelCondition = { _, photo in photo.caption.hasPrefix("Small") }
            }
            manager.register(PhotoTemplateRow.self, bundle: .module)
            manager.memoryStorage.addItems([Photo(caption: "Small harbour"), Photo(caption: "Hills")] as [any Media])
        }
        let rows = harness.boundRowsByPosition
        let compact = rows[0] as? PhotoTemplateRow
        XCTAssertEqual(compact?.caption.text, "Small harbour")
        XCTAssertEqual(compact?.icon.iconName, "camera-photo-symbolic", "from CompactPhotoRow.ui")
        XCTAssertEqual((rows[1] as? PhotoTemplateRow)?.icon.iconName, "image-x-generic-symbolic", "from PhotoTemplateRow.ui")
        harness.close()
    } }

    func testUpdatingVisibleRowsRefreshesThemWithNoSpliceAndKeepsTheSelection() { onMain {
        var suffix = ""
        let harness = GtkHarness { manager in
            manager.register(PostRow.self) { mapping in
                mapping.configure { row, post, _ in row.title.text = post.title + suffix }
            }
            manager.memoryStorage.addItems([Post(id: 1, title: "one"), Post(id: 2, title: "two")])
        }
        harness.selectRow(1)
        let recorder = ItemsChangedRecorder(harness.manager.bridge.listModel, describe: describeRowItem)
        suffix = " (new)"
        harness.manager.updateVisibleRows()
        harness.waitForFrames()
        XCTAssertEqual((harness.boundRowsByPosition[0] as? PostRow)?.title.text, "one (new)")
        XCTAssertEqual((harness.boundRowsByPosition[1] as? PostRow)?.title.text, "two (new)")
        harness.manager.updateVisibleRows { row in (row as? PostRow)?.title.text += "!" }
        XCTAssertEqual((harness.boundRowsByPosition[1] as? PostRow)?.title.text, "two (new)!")
        XCTAssertEqual(recorder.take(), [], "no splice reached GTK")
        XCTAssertEqual(harness.manager.selectedIndexPaths, [IndexPath(item: 1, section: 0)])
        recorder.disconnect()
        harness.close()
    } }

    func testEventsThatCanNeverFireAreReported() { onMain {
        var anomalies: [String] = []
        let grid = GridViewManager()
        grid.anomalyHandler.anomalyAction = { anomalies.append($0.description) }
        grid.register(PostRow.self)
        grid.registerHeader(BannerRow.self) { mapping in
            mapping.configure { _, _, _ in }
        }
        grid.willDisplayFooter(TitleRow.self) { _, _, _ in }
        grid.didSelect(model: PostRow.self) { _, _ in }
        grid.canSelect(withItem: PostRow.self) { _, _ in true }
        grid.didSelect(model: Post.self) { _, _ in }
        XCTAssertEqual(anomalies, [
            "ListViewManagerAnomaly.unusedEventDetected(BannerRow, configure)",
            "ListViewManagerAnomaly.unusedEventDetected(TitleRow, willDisplay)",
            "ListViewManagerAnomaly.modelEventCalledWithCellClass(PostRow, didSelect(model:_:))",
            "ListViewManagerAnomaly.modelEventCalledWithCellClass(PostRow, canSelect(withItem:_:))",
        ])
    } }

    func testTheStorageAManagerMakesReportsToTheAppsDefaultAction() { onMain {
        let reported = Mutex<[String]>([])
        MemoryStorageAnomaly.defaultAction = { anomaly in reported.withLock { $0.append(anomaly.description) } }
        defer { MemoryStorageAnomaly.restoreDefaultAction() }
        let manager = ListViewManager()
        manager.register(PostRow.self)
        manager.memoryStorage.removeItems([Post(id: 9, title: "missing")])
        XCTAssertEqual(reported.withLock { $0 }, ["MemoryStorageAnomaly.removeItemFailedItemNotFound(Post(id: 9, title: \"missing\"))"])
        XCTAssertTrue(MemoryStorageAnomaly.hasCustomDefaultAction)
    } }
}
