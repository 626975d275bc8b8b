import Foundation
import ModelStorage
import TestSupport
import Testing

/// A storage with a delegate attached on the main thread, changed from another thread
/// (`OffThreadChange`, a program of its own, as the process stops): the first change stops
/// the process with a message naming the call and the thread, before anything changed.
@Suite("MemoryStorage: changes off the thread its delegate was attached on")
struct ThreadCheckTests {
    /// Every operation that changes a storage, as `OffThreadChange` names them, with the
    /// name the message gives.
    static let operations: [(argument: String, method: String)] = [
        ("addItem", "addItem(_:toSection:)"),
        ("addItems", "addItems(_:toSection:)"),
        ("insertItem", "insertItem(_:to:)"),
        ("insertItems(_:at:)", "insertItems(_:at:)"),
        ("insertItems(_:to:)", "insertItems(_:to:)"),
        ("replaceItem", "replaceItem(_:with:)"),
        ("reloadItem", "reloadItem(_:)"),
        ("removeItem", "removeItem(_:)"),
        ("removeItems(_:)", "removeItems(_:)"),
        ("removeItems(at:)", "removeItems(at:)"),
        ("removeItems(fromSection:)", "removeItems(fromSection:)"),
        ("removeAllItems", "removeAllItems()"),
        ("moveItem", "moveItem(at:to:)"),
        ("moveItemWithoutAnimation", "moveItemWithoutAnimation(from:to:)"),
        ("insertSection", "insertSection(_:atIndex:)"),
        ("deleteSections", "deleteSections(_:)"),
        ("moveSection", "moveSection(_:toSection:)"),
        ("setSection", "setSection(_:forSection:)"),
        ("setItems", "setItems(_:forSection:)"),
        ("setItemsForAllSections", "setItemsForAllSections(_:)"),
        ("setSectionHeaderModels", "setSectionHeaderModels(_:)"),
        ("setSectionFooterModels", "setSectionFooterModels(_:)"),
        ("setSectionHeaderModel", "setSectionHeaderModel(_:forSection:)"),
        ("setSectionFooterModel", "setSectionFooterModel(_:forSection:)"),
        ("apply", "apply(_:)"),
        ("sortItems", "sortItems(by:)"),
        ("reorderItems", "reorderItems(by:)"),
        ("performUpdates", "performUpdates(_:)"),
        ("updateWithoutAnimations", "updateWithoutAnimations(_:)"),
    ]

    /// Runs `OffThreadChange` without the Swift runtime's backtracer: the message is the
    /// runtime's own, and the backtracer of a program stopped under AddressSanitizer waits
    /// for it for ever.
    private static func run(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(ChildProcess.built("OffThreadChange"), arguments, environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    @Test("a change from another thread stops the process at once, naming the call, the thread and the main thread",
          arguments: operations)
    func changeFromAnotherThreadStops(operation: (argument: String, method: String)) throws {
        let child = try Self.run([operation.argument])
        #expect(child.status != 0, "the process stops: \(child.output)")
        #expect(child.errors.contains("MemoryStorage.\(operation.method) called on thread "), "\(child.errors)")
        #expect(child.errors.contains("(\"loader\")"), "the thread's name: \(child.errors)")
        #expect(child.errors.contains("this storage must be changed on the main thread: its delegate (UpdatePrinter) was attached there"),
                "\(child.errors)")
        // Stopped at the first call, before the delegate heard of any change.
        #expect(child.output == "calling \(operation.argument)\n")
    }

    @Test("a storage whose delegate was taken off can be changed on another thread")
    func detachedStorageIsFree() throws {
        let child = try Self.run(["addItems", "--detached"])
        #expect(child.status == 0, "\(child.errors)")
        #expect(child.errors.isEmpty)
        #expect(child.output == "calling addItems\nthen removeAllItems\nreturned\nitems: []\n")
    }
}
