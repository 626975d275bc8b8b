import Foundation
import ModelStorage
import TestSupport
import Testing

/// Index paths of another shape than [section, item] (no index, one, three) are refused as
/// paths out of range are: reported, thrown where the operation throws, and nothing changes.
/// Reading `section` or `item` of such a path traps, so nothing may read it unchecked.
@Suite("Malformed index paths")
struct MalformedIndexPathTests {
    static let paths = [IndexPath(), IndexPath(index: 0), IndexPath(indexes: [0, 0, 0])]

    @Test("Storage operations refuse them, report them and change nothing", arguments: paths)
    func storageRefuses(_ path: IndexPath) {
        let fixture = StorageFixture()
        let storage = fixture.storage
        storage.addItems([1, 2, 3], toSection: 0)
        _ = fixture.delivered

        #expect(throws: MemoryStorageError.self) { try storage.insertItem(9, to: path) }
        #expect(throws: MemoryStorageError.self) { try storage.insertItems([9, 10], to: [ip(0, 0), path]) }
        #expect(throws: MemoryStorageError.self) { try storage.insertItems([9, 10], at: path) }
        storage.moveItem(at: path, to: ip(0, 0))
        storage.moveItem(at: ip(0, 0), to: path)
        storage.removeItems(at: [path])
        storage.removeItems(at: [ip(0, 1), path])
        #expect(storage.item(at: path) == nil)

        #expect(fixture.delivered.isEmpty)
        #expect(storage.items(inSection: 0) as? [Int] == [1, 2, 3])
        #expect(fixture.anomalies.map(\.kind) == [.insertionIndexPathTooBig, .insertionIndexPathTooBig, .insertionIndexPathTooBig, .moveItemFailedItemNotFound,
                                                   .moveItemFailedInvalidIndexPaths, .removeItemFailedIndexPathNotFound,
                                                   .removeItemFailedIndexPathNotFound])
        // Their messages name the path as it is.
        #expect(fixture.anomalies.allSatisfy { $0.description.contains(path.shortDescription) && $0.debugDescription.contains(path.shortDescription) })
        #expect(String(describing: MemoryStorageError.insertionIndexPathTooBig(path, countOfElementsInSection: 3)).contains(path.shortDescription))
    }

    @Test("Silenced, they still change nothing")
    func silenced() {
        let fixture = StorageFixture()
        fixture.storage.anomalyHandler.silence(.insertionIndexPathTooBig)
        #expect(throws: MemoryStorageError.self) { try fixture.storage.insertItem(9, to: IndexPath()) }
        #expect(fixture.storage.numberOfSections() == 0)
    }

    @Test("A layout has no row for them", arguments: paths)
    func layout(_ path: IndexPath) {
        let storage = MemoryStorage()
        storage.addItems([1, 2], toSection: 0)
        let layout = FlatLayout(storage: storage, options: FlatLayoutOptions())
        #expect(layout.position(of: .item(path)) == nil)
        #expect(path.shortDescription == "[" + path.map(String.init).joined(separator: ", ") + "]")
    }
}
