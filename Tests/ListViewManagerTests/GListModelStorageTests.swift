import CGtk
import CGtkShims
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// A word shown by its own row type.
final class WordRow: ListRow, ModelTransfer {
    let word = Label()
    required init() { super.init(); append(word) }
    func update(with model: String) { word.text = model }
}

/// A file name from a GtkDirectoryList.
struct ListedFile: Equatable, CustomStringConvertible {
    let name: String
    var description: String { name }
}

final class ListedFileRow: ListRow, ModelTransfer {
    let name = Label()
    required init() { super.init(); append(name) }
    func update(with model: ListedFile) { name.text = model.name }
}

/// GTK's own list models as storages: their `items-changed` pass through as the very same
/// splices, and their items show as typed models.
final class GListModelStorageTests: XCTestCase {
    /// The manager shows section 0's items only (no header): its positions are the source's.
    func testAFilterChainOverAStringListPassesItsChangesThroughUnchanged() { onMain {
        let strings = gtk_string_list_new(nil)!
        for word in ["apple", "banana", "cherry", "avocado", "blueberry"] { gtk_string_list_append(strings, word) }
        let expression = gtk_property_expression_new(gtk_string_object_get_type(), nil, "string")
        let filter = gtk_string_filter_new(expression)!
        let filtered = gtk_filter_list_model_new(cgtk_shims_list_model(UnsafeMutableRawPointer(strings)),
                                                 UnsafeMutableRawPointer(filter).assumingMemoryBound(to: GtkFilter.self))!  // takes both references
        let storage = GListModelStorage(listModel: cgtk_shims_list_model(UnsafeMutableRawPointer(filtered))) { object in
            String(cString: gtk_string_object_get_string(OpaquePointer(object)))
        }
        g_object_unref(UnsafeMutableRawPointer(filtered))
        let harness = GtkHarness { manager in
            manager.register(WordRow.self)
            manager.storage = storage
        }
        let source = ItemsChangedRecorder(storage.listModel) { _ in "" }
        let shown = ItemsChangedRecorder(harness.manager.bridge.listModel, describe: describeRowItem)
        XCTAssertEqual(shown.fetchAll(), ["item:apple", "item:banana", "item:cherry", "item:avocado", "item:blueberry"])

        gtk_string_filter_set_search(filter, "b")
        harness.waitForFrames(1)
        XCTAssertEqual(shown.take(), source.take(), "the same splices as the filter model emitted")
        XCTAssertEqual(shown.fetchAll(), ["item:banana", "item:blueberry"])

        gtk_string_list_append(strings, "bilberry")
        gtk_string_list_append(strings, "cranberry")
        gtk_string_list_remove(strings, 1)  // banana
        harness.waitForFrames(1)
        XCTAssertEqual(shown.take(), source.take())
        XCTAssertEqual(shown.fetchAll(), ["item:blueberry", "item:bilberry", "item:cranberry"])
        XCTAssertEqual(harness.manager.numberOfRows, 3)
        let rows = harness.boundRowsByPosition
        XCTAssertEqual((rows[0] as? WordRow)?.word.text, "blueberry")
        XCTAssertEqual((rows[2] as? WordRow)?.word.text, "cranberry")
        source.disconnect()
        shown.disconnect()
        harness.close()
    } }

    func testADirectoryListShowsAFoldersFilesAndFollowsItsReloads() throws { try onMain {
        let folder = NSTemporaryDirectory() + "glist-storage-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["one.txt", "two.txt", "three.txt"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()))
        }
        let file = g_file_new_for_path(folder)
        let directory = gtk_directory_list_new("standard::display-name", file)!
        g_object_unref(UnsafeMutableRawPointer(file))
        let storage = GListModelStorage(listModel: cgtk_shims_list_model(UnsafeMutableRawPointer(directory)), header: "Files") { info in
            ListedFile(name: String(cString: g_file_info_get_display_name(OpaquePointer(info))))
        }
        g_object_unref(UnsafeMutableRawPointer(directory))
        let harness = GtkHarness { manager in
            manager.register(ListedFileRow.self)
            manager.storage = storage
        }
        harness.wait(until: { gtk_directory_list_is_loading(directory) == 0 && storage.numberOfItems(inSection: 0) == 3 }, "the folder to be listed")
        harness.waitForFrames(1)
        @MainActor func names() -> [String] {
            harness.boundRowsByPosition.sorted { $0.key < $1.key }.map { ($0.value as? ListedFileRow)?.name.text ?? ($0.value as? TitleRow)?.label.text ?? "?" }
        }
        XCTAssertEqual(names().first, "Files", "the header")
        XCTAssertEqual(Set(names().dropFirst()), ["one.txt", "two.txt", "three.txt"])

        // Given no folder, then the folder again, GtkDirectoryList drops its items and reads
        // them anew; the list follows splice for splice.
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/four.txt", contents: Data()))
        let source = ItemsChangedRecorder(storage.listModel) { _ in "" }
        let shown = ItemsChangedRecorder(harness.manager.bridge.listModel, describe: describeRowItem)
        gtk_directory_list_set_file(directory, nil)
        XCTAssertEqual(storage.numberOfItems(inSection: 0), 0)
        let again = g_file_new_for_path(folder)
        gtk_directory_list_set_file(directory, again)
        g_object_unref(UnsafeMutableRawPointer(again))
        harness.wait(until: { gtk_directory_list_is_loading(directory) == 0 && storage.numberOfItems(inSection: 0) == 4 }, "the folder to be read again")
        harness.waitForFrames(1)
        let sourceSplices = source.take()
        XCTAssertFalse(sourceSplices.isEmpty)
        XCTAssertEqual(shown.take().map { shifted($0, by: -1) }, sourceSplices, "the same splices, one row lower for the header")
        XCTAssertEqual(Set(names().dropFirst()), ["one.txt", "two.txt", "three.txt", "four.txt"])
        XCTAssertEqual(harness.manager.numberOfRows, 5)
        source.disconnect()
        shown.disconnect()
        harness.close()
    } }
}

/// A splice token ("5-1+2") with its position moved by `offset`.
private func shifted(_ token: String, by offset: Int) -> String {
    let digits = token.prefix { $0.isNumber }
    return "\(Int(digits)! + offset)" + token.dropFirst(digits.count)
}
