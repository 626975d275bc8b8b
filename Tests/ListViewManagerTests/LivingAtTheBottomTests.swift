import CGtk
import Foundation
@testable import ListViewManager
import ModelStorage
import TestSupport
import XCTest
import GtkTestSupport

/// Lists that live at their bottom (`Configuration.livesAtBottom`), as a chat does: opened
/// at the end, kept there as messages come, left alone once the user scrolls up (with a
/// count of what came below), in real windows with a real mouse wheel.
final class LivingAtTheBottomTests: XCTestCase {
    private struct Message: Identifiable, Equatable {
        let id: Int
        /// Messages of one to three lines: GTK guesses the height of rows it has not laid
        /// out, and finds the last rows taller or shorter than it guessed.
        var text: String { (0...(id % 3)).map { "message \(id), line \($0 + 1)" }.joined(separator: "\n") }
    }

    private final class MessageRow: ListRow, ModelTransfer {
        let text = Label()
        required init() { super.init(); append(text) }
        func update(with model: Message) { text.text = model.text }
    }

    /// A manager living at its bottom, registered for messages, in a real window, showing
    /// `days` sections of 40 messages each under a header.
    @MainActor
    private static func show(_ manager: ItemViewManager, days: Int) -> GtkHarness {
        manager.configuration.livesAtBottom = true
        manager.register(MessageRow.self)
        let storage = manager.memoryStorage!
        storage.setItemsForAllSections((0..<days).map { day in (0..<40).map { Message(id: day * 40 + $0) } })
        if manager is ListViewManager { storage.setSectionHeaderModels((0..<days).map { "Day \($0 + 1)" }) }
        let harness = GtkHarness(showing: { manager })
        harness.waitForFrames(5)
        return harness
    }

    /// How far the bottom of the last item's row is from the bottom of the view (nil when
    /// GTK does not show that row).
    @MainActor
    private static func gapBelowLastRow(of manager: ItemViewManager) -> Double? {
        let storage = manager.storage
        let section = storage.numberOfSections() - 1
        let last = IndexPath(item: storage.numberOfItems(inSection: section) - 1, section: section)
        guard let span = manager.shownSpan(of: last, wholeRow: true) else { return nil }
        return Double(gtk_widget_get_height(manager.kind.listBase(manager.view))) - span.bottom
    }

    /// The message at the top of the view and its row's offset.
    @MainActor
    private static func top(of manager: ItemViewManager) -> (message: Int, offset: Double)? {
        guard let row = manager.topItemRow(), let message = manager.storage.item(at: row.indexPath) as? Message else { return nil }
        return (message.id, row.offset)
    }

    @MainActor
    private static func assertAtTheBottom(_ manager: ItemViewManager, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(manager.isAtBottom, what, file: file, line: line)
        XCTAssertEqual(gapBelowLastRow(of: manager) ?? .nan, 0, accuracy: 1, "\(what): the last row at the bottom edge", file: file, line: line)
    }

    func testAChatOpensAtItsEndFollowsNewMessagesAndLetsTheUserReadBack() throws { try onMain {
        openTestDisplay()
        let manager = ListViewManager()
        let harness = Self.show(manager, days: 10)
        let storage = manager.memoryStorage!
        var counts: [Int] = []
        manager.didChangeNewItemsBelow { counts.append($0) }
        Self.assertAtTheBottom(manager, "opened")

        var next = 10_000
        @MainActor func send(_ count: Int, toNewDay: Bool = false) {
            if toNewDay {
                storage.insertSection(SectionModel(items: [Message](), headerModel: "Day \(storage.numberOfSections() + 1)"),
                                      atIndex: storage.numberOfSections())
            }
            storage.addItems((next..<next + count).map(Message.init), toSection: storage.numberOfSections() - 1)
            next += count
        }
        send(1)
        harness.waitForFrames(3)
        Self.assertAtTheBottom(manager, "one message")
        for _ in 0..<5 { send(1) }  // five in one frame
        harness.waitForFrames(3)
        Self.assertAtTheBottom(manager, "five messages")
        send(3, toNewDay: true)
        harness.waitForFrames(3)
        Self.assertAtTheBottom(manager, "a new day")
        try storage.insertItems((20_000..<20_030).map(Message.init), at: IndexPath(item: 0, section: 0))
        harness.waitForFrames(3)
        Self.assertAtTheBottom(manager, "earlier messages loaded above")
        XCTAssertEqual(manager.newItemsBelow, 0)

        // The user reads back with the wheel: new messages leave the view where it is.
        harness.turnWheel(over: manager.view, clicks: 6)
        harness.waitForFrames(3)
        XCTAssertFalse(manager.isAtBottom, "scrolled up")
        let reading = try XCTUnwrap(Self.top(of: manager))
        send(2)
        harness.waitForFrames(3)
        send(1)
        harness.waitForFrames(3)
        XCTAssertEqual(Self.top(of: manager)?.message, reading.message, "the same message at the top")
        XCTAssertEqual(Self.top(of: manager)?.offset ?? .nan, reading.offset, accuracy: 1)
        XCTAssertEqual(manager.newItemsBelow, 3, "three messages came below")
        XCTAssertEqual(counts, [2, 3])
        try storage.insertItems((30_000..<30_030).map(Message.init), at: IndexPath(item: 0, section: 0))
        harness.waitForFrames(3)
        XCTAssertEqual(Self.top(of: manager)?.message, reading.message, "earlier messages loaded above leave the view still")
        XCTAssertEqual(Self.top(of: manager)?.offset ?? .nan, reading.offset, accuracy: 1)
        XCTAssertEqual(manager.newItemsBelow, 3, "messages above are not new below")

        // Back at the bottom by the wheel: nothing new below, and new messages follow again.
        harness.turnWheel(over: manager.view, clicks: 40, up: false)
        harness.waitForFrames(3)
        Self.assertAtTheBottom(manager, "scrolled back down")
        XCTAssertEqual(manager.newItemsBelow, 0)
        XCTAssertEqual(counts, [2, 3, 0])
        send(1)
        harness.waitForFrames(3)
        Self.assertAtTheBottom(manager, "a message after coming back")
        harness.close()
    } }

    func testEveryKindOfViewOpensAtItsEndAndIsTakenBackThereOnRequest() { onMain {
        openTestDisplay()
        let makers = everyKindOfView(columns: 3, column: "Message") { (message: Message) in message.text }
        for make in makers {
            let manager = make()
            let harness = Self.show(manager, days: 6)
            let name = "\(type(of: manager))"
            Self.assertAtTheBottom(manager, "\(name) opened")
            manager.memoryStorage.addItems((10_000..<10_004).map(Message.init), toSection: 5)
            harness.waitForFrames(3)
            Self.assertAtTheBottom(manager, "\(name) four messages")
            XCTAssertTrue(manager.scrollTo(IndexPath(item: 0, section: 2), at: .top))
            harness.waitForFrames(5)
            XCTAssertFalse(manager.isAtBottom, name)
            manager.memoryStorage.addItems((10_004..<10_006).map(Message.init), toSection: 5)
            harness.waitForFrames(3)
            XCTAssertEqual(manager.newItemsBelow, 2, name)
            manager.scrollToBottom()
            harness.waitForFrames(5)
            Self.assertAtTheBottom(manager, "\(name) taken to the bottom")
            XCTAssertEqual(manager.newItemsBelow, 0, name)
            harness.close()
        }
    } }
}
