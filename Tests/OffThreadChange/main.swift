import Foundation
import ModelStorage

// Changes a MemoryStorage whose delegate was attached on the main thread from a thread of
// its own (named "loader"), as an app loading models in the background would by mistake:
// `OffThreadChange <operation> [--detached]` calls the storage's `<operation>` there, then
// `removeAllItems()`. With `--detached` the delegate is taken off first. Prints each update
// the delegate is told of, with the thread it came on, and the storage's items at the end.

/// Prints each update it is told of.
final class UpdatePrinter: StorageUpdating {
    func storageDidPerformUpdate(_ update: StorageUpdate) {
        say("update on \(Thread.isMainThread ? "main" : "loader"): \(update.changes)")
    }

    func storageNeedsReloading() {
        say("reload on \(Thread.isMainThread ? "main" : "loader")")
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// An item of a snapshot.
struct Number: Identifiable, Equatable {
    let id: Int
}

/// The storage and the operation, handed to the loader thread as no app should: the storage
/// is not `Sendable`.
final class Handover: @unchecked Sendable {
    let storage: MemoryStorage
    let operation: (MemoryStorage) throws -> Void
    init(_ storage: MemoryStorage, _ operation: @escaping (MemoryStorage) throws -> Void) {
        self.storage = storage
        self.operation = operation
    }
}

/// Every operation that changes a storage, by name.
let operations: [String: (MemoryStorage) throws -> Void] = [
    "addItem": { $0.addItem(4) },
    "addItems": { $0.addItems([4, 5]) },
    "insertItem": { try $0.insertItem(4, to: IndexPath(item: 0, section: 0)) },
    "insertItems(_:at:)": { try $0.insertItems([4, 5], at: IndexPath(item: 0, section: 0)) },
    "insertItems(_:to:)": { try $0.insertItems([4], to: [IndexPath(item: 0, section: 0)]) },
    "replaceItem": { try $0.replaceItem(1, with: 4) },
    "reloadItem": { $0.reloadItem(1) },
    "removeItem": { try $0.removeItem(1) },
    "removeItems(_:)": { $0.removeItems([1, 2]) },
    "removeItems(at:)": { $0.removeItems(at: [IndexPath(item: 0, section: 0)]) },
    "removeItems(fromSection:)": { $0.removeItems(fromSection: 0) },
    "removeAllItems": { $0.removeAllItems() },
    "moveItem": { $0.moveItem(at: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 0)) },
    "moveItemWithoutAnimation": { $0.moveItemWithoutAnimation(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 2, section: 0)) },
    "insertSection": { $0.insertSection(SectionModel(items: [4]), atIndex: 0) },
    "deleteSections": { $0.deleteSections(IndexSet(integer: 0)) },
    "moveSection": { $0.moveSection(0, toSection: 0) },
    "setSection": { $0.setSection(SectionModel(items: [4]), forSection: 0) },
    "setItems": { $0.setItems([4, 5]) },
    "setItemsForAllSections": { $0.setItemsForAllSections([[4], [5]]) },
    "setSectionHeaderModels": { $0.setSectionHeaderModels(["numbers"]) },
    "setSectionFooterModels": { $0.setSectionFooterModels(["3 numbers"]) },
    "setSectionHeaderModel": { $0.setSectionHeaderModel("numbers", forSection: 0) },
    "setSectionFooterModel": { $0.setSectionFooterModel("3 numbers", forSection: 0) },
    "apply": { $0.apply(ListSnapshot(items: [Number(id: 1)], section: 0)) },
    "sortItems": { $0.sortItems { ($0 as! Int) > ($1 as! Int) } },
    "reorderItems": { $0.reorderItems { _, items in Array(items.indices.reversed()) } },
    "performUpdates": { storage in storage.performUpdates { storage.addItem(4) } },
    "updateWithoutAnimations": { storage in storage.updateWithoutAnimations { storage.addItem(4) } },
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let operation = operations[name] else {
    FileHandle.standardError.write(Data("usage: OffThreadChange <\(operations.keys.sorted().joined(separator: "|"))> [--detached]\n".utf8))
    exit(2)
}

let storage = MemoryStorage()
storage.addItems([1, 2, 3])
let printer = UpdatePrinter()
storage.delegate = printer
if arguments.contains("--detached") { storage.delegate = nil }

let handover = Handover(storage, operation)
let done = DispatchSemaphore(value: 0)
let loader = Thread {
    try? "loader".write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)  // its name
    say("calling \(name)")
    do { try handover.operation(handover.storage) } catch { say("threw \(error)") }
    say("then removeAllItems")
    handover.storage.removeAllItems()
    say("returned")
    done.signal()
}
loader.start()
done.wait()
say("items: \(storage.items(inSection: 0) ?? [])")
withExtendedLifetime(printer) {}
