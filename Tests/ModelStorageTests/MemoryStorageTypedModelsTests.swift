import Foundation
@testable import ModelStorage
import TestSupport
import Testing

@Suite("MemoryStorage: models kept in chunks of their own type")
struct MemoryStorageTypedModelsTests {
    let fixture = StorageFixture()
    var storage: MemoryStorage { fixture.storage }

    /// The element type of each chunk of `section`, by name.
    func chunkTypes(_ section: Int) -> [String] {
        storage.sections[section].models.chunkElementTypes.map { String(describing: $0) }
    }

    /// The items of `section` as articles.
    func articlesIn(_ section: Int) -> [Article] {
        (storage.items(inSection: section) ?? []).map { $0 as! Article }
    }

    /// The items of `section` as hashable values.
    func valuesIn(_ section: Int) -> [AnyHashable] {
        (storage.items(inSection: section) ?? []).map { $0 as! AnyHashable }
    }

    @Test("Large struct models added, set, inserted or given in a section come back as they were, from chunks of their type")
    func largeStructsRoundTrip() throws {
        storage.addItems(articles(0, count: 3000))
        storage.addItem(Article(3000))
        storage.setItems(articles(10_000, count: 2500), forSection: 1)
        storage.insertSection(SectionModel(items: articles(20_000, count: 5)), atIndex: 2)
        try storage.insertItems([Article(-1), Article(-2)], to: [ip(0, 0), ip(1, 2500)])
        #expect(articlesIn(0) == [Article(-1)] + articles(0, count: 3001))
        #expect(articlesIn(1) == articles(10_000, count: 2500) + [Article(-2)])
        #expect(articlesIn(2) == articles(20_000, count: 5))
        #expect(storage.sections[0].models.chunkCounts == [1024, 1025, 953])
        #expect(chunkTypes(0) == ["Article", "Article", "Article"])
        #expect(chunkTypes(1) == ["Article", "Article"])
        #expect(chunkTypes(2) == ["Article"])
        #expect(storage.indexPath(forItem: Article(10_005)) == ip(1, 5))
        storage.setItemsForAllSections([articles(0, count: 3), articles(3, count: 4)])
        #expect(articlesIn(0) == articles(0, count: 3))
        #expect(articlesIn(1) == articles(3, count: 4))
        #expect(chunkTypes(1) == ["Article"])
        #expect(storage.item(at: ip(1, 3)) as? Article == Article(6))
    }

    @Test("Models of another type inserted, replacing or added among typed ones keep every item in order")
    func mixingTypes() throws {
        storage.addItems(articles(0, count: 3000))
        storage.reloadItem(Article(20, title: "new title"))
        #expect(chunkTypes(0) == ["Article", "Article"])
        try storage.insertItem("note", to: ip(0, 2500))
        #expect(chunkTypes(0) == ["Article", "Any"])
        try storage.replaceItem(Article(10), with: 10)
        #expect(chunkTypes(0) == ["Any", "Any"])
        storage.addItem(true)
        var expected: [AnyHashable] = articles(0, count: 3000)
        expected[20] = Article(20, title: "new title")
        expected.insert("note", at: 2500)
        expected[10] = 10
        expected.append(true)
        #expect(valuesIn(0) == expected)
        #expect((storage.item(at: ip(0, 20)) as? Article)?.title == "new title")
        #expect(storage.indexPath(forItem: "note") == ip(0, 2500))
        #expect(storage.indexPath(forItem: 10) == ip(0, 10))
    }

    @Test("A snapshot, and a section handed out, keep the models they saw while the storage changes")
    func snapshotsAreValues() throws {
        storage.addItems(articles(0, count: 3000))
        storage.addItems([1, 2, 3], toSection: 1)
        let snapshot = storage.snapshot()
        let section = try #require(storage.section(atIndex: 0))
        try storage.insertItem(Article(-1), to: ip(0, 5))
        try storage.insertItem("other", to: ip(0, 2000))
        storage.removeItems(at: (0..<100).map { ip(0, $0 * 20) })
        try storage.replaceItem(Article(2999), with: "last")
        storage.reloadItem(Article(1500, title: "changed"))
        storage.moveItem(at: ip(1, 0), to: ip(0, 0))
        storage.setItems(articles(5000, count: 3), forSection: 1)
        storage.addItems(articles(6000, count: 2100))
        #expect(snapshot.numberOfItems(inSection: 0) == 3000)
        #expect((0..<3000).map { snapshot.item(at: ip(0, $0)) as? Article } == articles(0, count: 3000))
        #expect((0..<3).map { snapshot.item(at: ip(1, $0)) as? Int } == [1, 2, 3])
        #expect(section.items.map { $0 as! Article } == articles(0, count: 3000))
        #expect(storage.numberOfItems(inSection: 0) == 5003)
    }

    @Test("Items moved between sections of different types arrive as themselves, in order")
    func movesAcrossTypes() {
        storage.addItems(articles(0, count: 5), toSection: 0)
        storage.addItems([10, 11, 12], toSection: 1)
        storage.addItems([String](), toSection: 2)
        storage.moveItem(at: ip(0, 1), to: ip(1, 1))
        #expect(chunkTypes(0) == ["Article"])
        #expect(chunkTypes(1) == ["Any"])
        storage.moveItem(at: ip(1, 0), to: ip(0, 4))
        storage.moveItem(at: ip(1, 0), to: ip(0, 1))
        #expect(valuesIn(0) == [Article(0), Article(1), Article(2), Article(3), Article(4), 10] as [AnyHashable])
        #expect(valuesIn(1) == [11, 12])
        storage.moveItem(at: ip(0, 2), to: ip(2, 0))
        storage.moveItem(at: ip(1, 1), to: ip(2, 1))
        storage.moveItem(at: ip(2, 0), to: ip(1, 0))
        #expect(valuesIn(0) == [Article(0), Article(1), Article(3), Article(4), 10] as [AnyHashable])
        #expect(valuesIn(1) == [Article(2), 11] as [AnyHashable])
        #expect(valuesIn(2) == [12])
        #expect(storage.indexPath(forItem: Article(2)) == ip(1, 0))
    }

    @Test("Heterogeneous arrays go into chunks of Any; removing many items across chunk boundaries keeps the rest in order")
    func heterogeneousModelsAndRemovals() throws {
        let mixed: [Any] = (0..<5000).map { (number: Int) -> Any in
            switch number % 3 {
            case 0: Article(number)
            case 1: number
            default: "\(number)"
            }
        }
        storage.addItems(mixed)
        #expect(chunkTypes(0) == ["Any", "Any", "Any"])
        storage.addItems(articles(10_000, count: 3000))
        #expect(storage.sections[0].models.chunkCounts == [2048, 2048, 2048, 1856])
        #expect(chunkTypes(0) == ["Any", "Any", "Any", "Article"])
        var expected = mixed.map { $0 as! AnyHashable } + articles(10_000, count: 3000).map(AnyHashable.init)
        // Every third item from 1000 on: across the boundaries of all four chunks.
        let doomed = stride(from: 1000, to: 7000, by: 3).map { ip(0, $0) }
        storage.removeItems(at: doomed)
        for indexPath in doomed.reversed() { expected.remove(at: indexPath.item) }
        #expect(valuesIn(0) == expected)
        #expect(chunkTypes(0) == ["Any", "Any", "Any", "Article"])
        // The whole first chunk: it goes.
        let firstChunk = storage.sections[0].models.chunkCounts[0]
        storage.removeItems(at: (0..<firstChunk).map { ip(0, $0) })
        expected.removeFirst(firstChunk)
        #expect(valuesIn(0) == expected)
        #expect(chunkTypes(0) == ["Any", "Any", "Article"])
        try storage.removeItem(Article(12_999))
        expected.removeLast()
        #expect(valuesIn(0) == expected)
    }
}
