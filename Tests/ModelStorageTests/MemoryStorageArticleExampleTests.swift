import Foundation
import ModelStorage
import TestSupport
import Testing

/// The storage example of the article The memory storage (ModelStorage.docc), compiled and
/// checked so that it cannot rot: the code between the markers is the article's, line for line.
@Suite("The memory storage article's example")
struct MemoryStorageArticleExampleTests {
    static let article = "Sources/ModelStorage/ModelStorage.docc/TheMemoryStorage.md"

    struct Post: Equatable {                  // equal by identity: reloadItem finds the stored one
        let id: Int
        var title: String
        static func == (lhs: Post, rhs: Post) -> Bool { lhs.id == rhs.id }
    }

    @Test("It runs as written")
    func articleExample() throws {
        let printer = UpdateRecorder()
        // Article: begin
        let storage = MemoryStorage()
        storage.delegate = printer            // any StorageUpdating; ListViewManager is one
        storage.setSectionHeaderModels(["Today", "Earlier"])
        storage.addItems([Post(id: 1, title: "Hello"), Post(id: 2, title: "GTK")], toSection: 0)
        storage.addItem(Post(id: 3, title: "Old news"), toSection: 1)

        storage.performUpdates {              // one update for the whole batch
            storage.moveItem(at: IndexPath(item: 0, section: 1), to: IndexPath(item: 0, section: 0))
            storage.reloadItem(Post(id: 2, title: "GTK 4"))
        }
        do {
            try storage.removeItem(Post(id: 42, title: ""))
        } catch {
            print(error)                      // "Failed to find Post(id: 42, title: \"\") in MemoryStorage"
        }

        var layout = FlatLayout(storage: storage)  // the flat rows a GtkListView shows
        print(layout.rows)                    // [header 0, item [0, 0], item [0, 1], item [0, 2], header 1]
        storage.addItem(Post(id: 4, title: "New"), toSection: 1)
        // in storageDidPerformUpdate(_:):
        // let changes = layout.apply(update)  // [5+1]: emit items-changed(5, 0, 1)
        // Article: end
        let changes = layout.apply(StorageUpdate([.insertItems(section: 1, items: 0..<1)]))
        #expect(changes.description == "[5+1]")
        #expect(layout.rows.map(\.description) == ["header 0", "item [0, 0]", "item [0, 1]", "item [0, 2]", "header 1", "item [1, 0]"])
        #expect(printer.log == [
            "StorageUpdate(insert section 0; insert section 1; insert header of section 0; insert header of section 1)",
            "StorageUpdate(insert items 0..<2 in section 0)",
            "StorageUpdate(insert items 0 in section 1)",
            "StorageUpdate(move item [1, 0] to [0, 0]; update item [0, 2])",
            "StorageUpdate(insert items 0 in section 1)",
        ])
        #expect((storage.item(at: IndexPath(item: 2, section: 0)) as? Post)?.title == "GTK 4")
        #expect(MemoryStorageError.itemNotFound(itemDescription: "Post(id: 42, title: \"\")").description
                == "Failed to find Post(id: 42, title: \"\") in MemoryStorage")
    }

    @Test("The article shows the code between the markers")
    func articleShowsTheCode() throws {
        let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try #require(test.range(of: "// Article: begin\n"))
        let end = try #require(test.range(of: "        // Article: end", range: begin.upperBound..<test.endIndex))
        let code = test[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.dropFirst(8) }.joined(separator: "\n")
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: repository.appendingPathComponent(Self.article), encoding: .utf8)
        #expect(article.contains("\n" + code + "```\n"), "\(Self.article) shows the code of \(#fileID) between its markers")
    }
}
