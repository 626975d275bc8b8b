import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// The app's say over selection: a refused selection, however it is asked for, keeps the
/// selection there was; `willSelect` redirects, `willDeselect` and `shouldDeselect` keep.
final class SelectionRulesTests: XCTestCase {
    /// "Today": posts 1, 2, 3 and a footer; "Earlier": posts 4 (not selectable), 5.
    @MainActor
    private final class Fixture {
        let harness: GtkHarness
        var events: [String] = []
        var manager: ListViewManager { harness.manager }

        init(_ mode: SelectionMode, rules: (ListViewManager) -> Void = { _ in }) {
            var recorded: (String) -> Void = { _ in }
            harness = GtkHarness(selectionMode: mode) { manager in
                manager.register(PostRow.self)
                manager.didSelect(model: Post.self) { post, _ in recorded("select \(post.id)") }
                manager.didDeselect(model: Post.self) { post, _ in recorded("deselect \(post.id)") }
                manager.canSelect(withItem: Post.self) { post, _ in post.id != 4 }
                manager.memoryStorage.setSectionHeaderModels(["Today", "Earlier"])
                manager.memoryStorage.setSectionFooterModel("3 posts", forSection: 0)
                manager.memoryStorage.addItems((1...3).map { Post(id: $0, title: "post \($0)") }, toSection: 0)
                manager.memoryStorage.addItems((4...5).map { Post(id: $0, title: "post \($0)") }, toSection: 1)
                rules(manager)
            }
            recorded = { [unowned self] in events.append($0) }
        }

        func position(_ id: Int) -> Int {
            manager.position(of: id <= 3 ? IndexPath(item: id - 1, section: 0) : IndexPath(item: id - 4, section: 1))!
        }

        /// The ids of the selected posts.
        var selected: [Int] {
            manager.selectedIndexPaths.map { $0.section == 0 ? $0.item + 1 : $0.item + 4 }
        }

        func take() -> [String] {
            defer { events = [] }
            return events
        }

        /// Every way a user or an app asks GTK to select the row at `position`.
        func askToSelect(_ position: Int, modify: Bool) {
            harness.selectRow(position, modify: modify)  // GTK's list.select-item action: keys, clicks
            gtk_selection_model_select_item(manager.selectionModel, UInt32(position), modify ? 0 : 1)  // accessibility, code
            harness.click(harness.viewManager.factory.itemWidget(at: position)!)  // a real click
            harness.waitForFrames()
        }
    }

    func testARefusedSelectionKeepsTheSelectionInEveryMode() { onMain {
        for mode in [SelectionMode.single, .multiple] {
            let fixture = Fixture(mode)
            fixture.harness.selectRow(fixture.position(2))
            XCTAssertEqual(fixture.take(), ["select 2"])
            let footer = fixture.manager.bridge.layout.position(of: .footer(section: 0))!
            var refused = [footer, fixture.position(4)]
            // GTK 4.8 shows headers as rows; later GTKs show them as GTK's section headers.
            if let header = fixture.manager.bridge.layout.position(of: .header(section: 1)) { refused.append(header) }
            for position in refused {
                for modify in [false, true] {
                    fixture.askToSelect(position, modify: modify)
                    XCTAssertEqual(fixture.selected, [2], "\(mode): position \(position), modify \(modify)")
                    XCTAssertEqual(fixture.take(), [], "\(mode): nothing deselected")
                }
            }
            XCTAssertFalse(fixture.manager.select(IndexPath(item: 0, section: 1)))
            XCTAssertEqual(fixture.selected, [2])
            fixture.harness.close()
        }
    } }

    func testSelectAllSkipsTheRefusedItems() { onMain {
        let fixture = Fixture(.multiple)
        fixture.harness.press(["ctrl+a"], focusing: fixture.harness.viewManager.factory.itemWidget(at: fixture.position(1))!)
        fixture.harness.waitForFrames()
        XCTAssertEqual(fixture.selected, [1, 2, 3, 5])
        XCTAssertEqual(fixture.take(), ["select 1", "select 2", "select 3", "select 5"])
        fixture.harness.close()
    } }

    func testWillSelectRedirectsOrRefuses() { onMain {
        let fixture = Fixture(.single) { manager in
            // Post 3 stands for its section: selecting it selects post 1; post 5 is refused.
            manager.willSelect(model: Post.self) { post, indexPath in
                switch post.id {
                case 3: return IndexPath(item: 0, section: 0)
                case 5: return nil
                default: return indexPath
                }
            }
        }
        fixture.harness.selectRow(fixture.position(2))
        fixture.harness.selectRow(fixture.position(3))
        XCTAssertEqual(fixture.selected, [1])
        XCTAssertEqual(fixture.take(), ["select 2", "deselect 2", "select 1"])
        fixture.askToSelect(fixture.position(5), modify: false)
        XCTAssertEqual(fixture.selected, [1])
        XCTAssertEqual(fixture.take(), [])
        fixture.harness.close()
    } }

    func testShouldDeselectAndWillDeselectKeepItemsSelected() { onMain {
        // Single mode: post 1 once selected cannot be deselected, so nothing else can be selected.
        let single = Fixture(.single) { manager in
            manager.shouldDeselect(model: Post.self) { post, _ in post.id != 1 }
        }
        single.harness.selectRow(single.position(1))
        single.askToSelect(single.position(2), modify: false)
        XCTAssertFalse(single.manager.deselect(IndexPath(item: 0, section: 0)))
        XCTAssertEqual(single.selected, [1])
        XCTAssertEqual(single.take(), ["select 1"])
        single.harness.close()

        // Multiple mode: post 2 is kept selected; deselecting post 3 deselects post 1 instead.
        let multiple = Fixture(.multiple) { manager in
            manager.willDeselect(model: Post.self) { post, indexPath in
                switch post.id {
                case 2: return nil
                case 3: return IndexPath(item: 0, section: 0)
                default: return indexPath
                }
            }
        }
        for id in [1, 2, 3] { multiple.harness.selectRow(multiple.position(id), modify: true) }
        multiple.harness.selectRow(multiple.position(5))  // a plain click: the others are to go
        XCTAssertEqual(multiple.selected, [2, 3, 5])
        XCTAssertEqual(multiple.take(), ["select 1", "select 2", "select 3", "deselect 1", "select 5"])
        multiple.harness.selectRow(multiple.position(1), modify: true)
        XCTAssertTrue(multiple.manager.deselect(IndexPath(item: 2, section: 0)))
        XCTAssertEqual(multiple.selected, [2, 3, 5])
        XCTAssertEqual(multiple.take(), ["select 1", "deselect 1"])
        XCTAssertFalse(multiple.manager.deselect(IndexPath(item: 1, section: 0)))
        multiple.harness.close()
    } }
}
