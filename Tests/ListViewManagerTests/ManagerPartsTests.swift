import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

private let first = IndexPath(item: 0, section: 0), second = IndexPath(item: 1, section: 0)

/// The manager's parts that hold the app's rules by model type, as the manager's own
/// methods fill them: which items the user can delete, move and drop, where moves go, the
/// rows' tooltips and names, and the context menus' entries. (The GTK tests show each in a
/// window; these pin down who decides when several rules speak.)
final class ManagerPartsTests: XCTestCase {
    private struct Note: AccessibilityLabeled {
        let text: String
        var accessibilityLabel: String { "note: \(text)" }
    }

    override func setUp() {
        XCTAssertNotEqual(gtk_init_check(), 0)
    }

    func testAnItemCanBeDeletedMovedOrTakenOnlyWhenARuleOfItsTypeSaysSoAndNoneSaysNo() { onMain {
        let manager = ListViewManager()
        let rules = { manager.editingRules }
        XCTAssertFalse(rules().allowsDeleting(Post(id: 1, title: "a"), at: first), "no rule: not deletable")
        manager.canDelete(withItem: Note.self) { _, _ in true }
        XCTAssertFalse(rules().allowsDeleting(Post(id: 1, title: "a"), at: first), "a rule of another type does not speak")
        manager.canDelete(withItem: Post.self) { post, _ in post.id != 2 }
        manager.canDelete(withItem: Post.self) { _, indexPath in indexPath.item < 5 }
        XCTAssertTrue(rules().allowsDeleting(Post(id: 1, title: "a"), at: first))
        XCTAssertFalse(rules().allowsDeleting(Post(id: 2, title: "b"), at: first), "one no is enough")
        XCTAssertFalse(rules().allowsDeleting(Post(id: 1, title: "a"), at: IndexPath(item: 5, section: 0)))

        XCTAssertFalse(rules().allowsMoving(Post(id: 1, title: "a"), at: first))
        manager.canMove(withItem: Post.self) { _, _ in true }
        XCTAssertTrue(rules().allowsMoving(Post(id: 1, title: "a"), at: first))

        let source = ListViewManager()
        XCTAssertFalse(rules().allowsDrop(of: Post(id: 1, title: "a"), from: source, at: first))
        manager.canDropFromOtherList(model: Post.self) { _, from, _ in from === source }
        XCTAssertTrue(rules().allowsDrop(of: Post(id: 1, title: "a"), from: source, at: first))
        XCTAssertFalse(rules().allowsDrop(of: Post(id: 1, title: "a"), from: ListViewManager(), at: first))
    } }

    func testTheLastRedirectOfAnItemsTypeDecidesWhereItsMoveGoes() { onMain {
        let manager = ListViewManager()
        XCTAssertEqual(manager.editingRules.target(forMoving: Post(id: 1, title: "a"), from: first, proposed: second), second)
        manager.targetIndexPathForMove(model: Post.self) { _, _, _ in IndexPath(item: 7, section: 0) }
        manager.targetIndexPathForMove(model: Post.self) { post, _, proposed in post.id == 1 ? nil : proposed }
        manager.targetIndexPathForMove(model: Note.self) { _, _, _ in IndexPath(item: 9, section: 9) }
        XCTAssertNil(manager.editingRules.target(forMoving: Post(id: 1, title: "a"), from: first, proposed: second), "refused")
        XCTAssertEqual(manager.editingRules.target(forMoving: Post(id: 2, title: "b"), from: first, proposed: second), second)
        XCTAssertEqual(manager.editingRules.target(forMoving: "text", from: first, proposed: second), second, "no redirect of its type")
    } }

    func testTheFirstDescriptionOfAnItemsTypeDecidesItsTooltipAndItsName() { onMain {
        let manager = ListViewManager()
        manager.tooltip(model: Note.self) { note, _ in note.text == "quiet" ? nil : "about \(note.text)" }
        manager.tooltip(model: Note.self) { _, _ in "never asked" }
        manager.tooltip(model: Post.self) { post, indexPath in "\(post.title) at \(indexPath.item)" }
        let descriptions = manager.rowDescriptions
        XCTAssertEqual(descriptions.tooltip(of: Note(text: "x"), at: first), "about x")
        XCTAssertNil(descriptions.tooltip(of: Note(text: "quiet"), at: first), "the first provider's nil is its answer")
        XCTAssertEqual(descriptions.tooltip(of: Post(id: 1, title: "a"), at: second), "a at 1")
        XCTAssertNil(descriptions.tooltip(of: "text", at: first))

        XCTAssertFalse(descriptions.dependOnPlace)
        XCTAssertEqual(descriptions.accessibleLabel(of: Note(text: "x"), at: first), "note: x", "the model's own label")
        manager.accessibilityLabel(model: Note.self) { note, indexPath in "\(note.text), row \(indexPath.item + 1)" }
        XCTAssertTrue(manager.rowDescriptions.dependOnPlace)
        XCTAssertEqual(manager.rowDescriptions.accessibleLabel(of: Note(text: "x"), at: second), "x, row 2")
        XCTAssertNil(manager.rowDescriptions.accessibleLabel(of: Post(id: 1, title: "a"), at: first))
    } }

    func testMenuEntriesComeFromEveryBuilderOfTheModelsTypeInOrder() { onMain {
        let manager = ListViewManager()
        manager.contextMenu(model: Post.self) { post, _ in [MenuEntry("Open \(post.id)") { _ in }] }
        manager.contextMenu(model: Note.self) { _, _ in [MenuEntry("Edit note") { _ in }] }
        manager.contextMenu(model: Post.self) { _, _ in [MenuEntry("Share") { _ in }, MenuEntry("Pin") { _ in }] }
        manager.contextMenu(forSelection: Post.self) { posts, _ in [MenuEntry("Archive \(posts.count)") { _ in }] }
        let builders = manager.contextMenuBuilders
        XCTAssertEqual(builders.entries(for: Post(id: 3, title: "c"), at: first).map(\.title), ["Open 3", "Share", "Pin"])
        XCTAssertEqual(builders.entries(for: "text", at: first).map(\.title), [])
        let posts: [Any] = [Post(id: 1, title: "a"), Post(id: 2, title: "b")]
        XCTAssertEqual(builders.entries(forSelected: posts, at: [first, second]).map(\.title), ["Archive 2"])
        XCTAssertEqual(builders.entries(forSelected: posts + [Note(text: "n")], at: [first, second, second]).map(\.title), [],
                       "a selection of mixed types has no entries of one type's")
    } }
}
