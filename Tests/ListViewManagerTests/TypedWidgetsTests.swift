import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// The typed widgets an app puts a managed list into, and typed signals, in a real window.
final class TypedWidgetsTests: XCTestCase {
    private struct Post { let title: String }

    private final class PostRow: ListRow, ModelTransfer {
        let title = Label()
        required init() { super.init(); append(title) }
        func update(with model: Post) { title.text = model.title }
    }

    func testAWindowAndTheManagerItShowsLiveUntilTheWindowIsClosed() { onMain {
        openTestDisplay()
        weak var window: Window?
        weak var manager: ListViewManager?
        do {
            let shown = Window(title: "Posts")
            let list = ListViewManager()
            list.register(PostRow.self)
            list.memoryStorage.setSectionHeaderModels(["Today"])
            list.memoryStorage.addItems((1...50).map { Post(title: "Post \($0)") }, toSection: 0)
            shown.setDefaultSize(width: 300, height: 200)
            shown.child = list
            shown.present()
            window = shown
            manager = list
        }
        XCTAssertEqual(MainLoopPump.run(until: { manager.map { $0.row(at: IndexPath(item: 0, section: 0)) != nil } ?? false }, timeout: 5), true)
        XCTAssertNotNil(window, "an open window keeps itself, though nothing else does")
        XCTAssertNotNil(manager, "the window keeps the manager it shows")
        XCTAssertNotNil(manager.flatMap { gtk_widget_get_ancestor($0.view, gtk_window_get_type()) })
        XCTAssertNotNil(manager.flatMap { gtk_widget_get_ancestor($0.view, gtk_overlay_get_type()) }, "a list is shown with its pinned header's overlay")
        XCTAssertTrue(window?.child === manager)

        window?.close()
        MainLoopPump.drain(rounds: 10)
        XCTAssertNil(window, "a closed window goes")
        XCTAssertNil(manager, "and the manager it showed with it")
    } }

    func testContainersShowWhatTheyAreGivenAndKeepIt() { onMain {
        openTestDisplay()
        let window = Window(title: "Panes")
        let grid = GridViewManager(storage: MemoryStorage())
        let table = ColumnViewManager(storage: MemoryStorage())
        let stack = Stack()
        stack.addPage(grid, name: "grid")
        stack.addPage(table, name: "table")
        XCTAssertEqual(stack.visiblePageName, "grid", "the first page added is shown")
        stack.visiblePageName = "table"
        XCTAssertEqual(stack.visiblePageName, "table")
        XCTAssertTrue(stack.page(named: "grid") === grid)
        XCTAssertEqual(gtk_widget_get_parent(grid.view).map { gtk_widget_get_ancestor($0, gtk_scrolled_window_get_type()) != nil }, true,
                       "a grid is put into a stack scrolled")

        let details = Label("Details")
        let paned = Paned(orientation: .horizontal, start: stack, end: ScrolledWindow(child: details))
        paned.position = 120
        paned.resizesEndChild = false
        XCTAssertFalse(paned.resizesEndChild)
        let header = HeaderBar()
        let search = SearchEntry()
        let back = Button(iconName: "go-previous-symbolic")
        let spinner = Spinner()
        header.packStart(back)
        header.packEnd(search)
        header.packEnd(spinner)
        header.titleWidget = Label("Title")
        window.titlebar = header
        window.child = paned
        search.captureKeys(from: window)
        window.present()
        MainLoopPump.drain(rounds: 10)
        XCTAssertFalse(spinner.isVisible, "a spinner is hidden until it spins")
        spinner.isSpinning = true
        XCTAssertTrue(spinner.isSpinning && spinner.isVisible)
        XCTAssertEqual(gtk_widget_get_ancestor(search.gtkWidget, gtk_header_bar_get_type()), header.gtkWidget)
        XCTAssertEqual(gtk_widget_get_ancestor(details.gtkWidget, gtk_paned_get_type()), paned.gtkWidget)
        XCTAssertEqual(paned.position, 120)

        // A search entry reports the text once typing pauses; toggle buttons of a group
        // release each other.
        var searches: [String] = []
        search.onSearchChanged { searches.append(search.text) }
        search.text = "swift"
        XCTAssertTrue(MainLoopPump.run(until: { !searches.isEmpty }, timeout: 5))
        XCTAssertEqual(searches, ["swift"])
        let list = ToggleButton(iconName: "view-list-symbolic")
        let grid2 = ToggleButton(iconName: "view-grid-symbolic", group: list)
        var toggles = 0
        grid2.onToggled { toggles += 1 }
        list.isActive = true
        grid2.isActive = true
        XCTAssertFalse(list.isActive, "pressing one of a group releases the other")
        list.isActive = true
        XCTAssertEqual(toggles, 2)
        window.close()
        MainLoopPump.drain(rounds: 5)
    } }

    func testTypedSignalsPassTheirArgumentsWithoutAnnotations() throws { try onMain {
        openTestDisplay()
        let harness = GtkHarness()
        let manager = harness.manager!
        manager.register(PostRow.self)
        manager.memoryStorage.addItems(["a", "b", "c"].map(Post.init))
        harness.waitForFrames()
        var activated: [UInt32] = []
        Signal.connect(manager, .activatePosition) { position in activated.append(position) }
        var changes: [[UInt32]] = []
        let model = try XCTUnwrap(gtk_list_view_get_model(OpaquePointer(manager.view)))
        Signal.connect(model, .itemsChanged) { position, removed, added in changes.append([position, removed, added]) }
        var clicks = 0
        let button = Button(label: "Go")
        Signal.connect(button, .clicked) { clicks += 1 }
        let buttonWindow = Window(title: "Go")
        buttonWindow.child = button
        buttonWindow.present()
        MainLoopPump.drain(rounds: 5)

        harness.activateRow(1)
        manager.memoryStorage.addItems([Post(title: "d")])
        gtk_widget_activate(button.gtkWidget)
        XCTAssertEqual(activated, [1])
        XCTAssertEqual(changes, [[3, 0, 1]], "one item added after the three")
        // A button activated (Enter, or here GTK's activate) shows itself pressed, then clicks.
        XCTAssertTrue(MainLoopPump.run(until: { clicks == 1 }, timeout: 5))
        buttonWindow.close()
        harness.close()
    } }
    func testGridAndColumnViewsReportTheActivatedPosition() { onMain {
        openTestDisplay()
        XCTAssertEqual(Self.activatedPositions(in: GridViewManager()), [2])
        XCTAssertEqual(Self.activatedPositions(in: ColumnViewManager()), [2])
    } }

    /// The positions `manager`'s `activatePosition` reports when its third row is activated.
    @MainActor
    private static func activatedPositions(in manager: some ActivatesPositions) -> [UInt32] {
        manager.register(PostRow.self)
        manager.memoryStorage.addItems(["a", "b", "c"].map(Post.init))
        let harness = GtkHarness(showing: { manager })
        harness.waitForFrames()
        var activated: [UInt32] = []
        Signal.connect(manager, .activatePosition) { position in activated.append(position) }
        harness.activateRow(2)
        harness.close()
        return activated
    }
}
