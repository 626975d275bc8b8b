import CGtk
import Dispatch
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// A row that tells when it is freed.
final class TrackedRow: ListRow, ModelTransfer {
    nonisolated(unsafe) static var alive = 0
    let title = Label()
    required init() { super.init(); append(title); Self.alive += 1 }
    isolated deinit { Self.alive -= 1 }
    func update(with model: Post) { title.text = model.title }
}

final class LifetimeTests: XCTestCase {
    func testClosingTheWindowAndDroppingTheManagerFreesEverything() { onMain {
        weak var weakManager: ListViewManager?
        weak var weakStorage: MemoryStorage?
        weak var weakFactory: RowFactory?
        weak var weakBridge: ListModelBridge?
        var weakRows: [() -> AnyObject?] = []
        // GLib clears this location when the list model is finalised.
        let listModel = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        defer { listModel.deallocate() }
        TrackedRow.alive = 0
        do {
            let harness = GtkHarness { manager in
                manager.register(TrackedRow.self)
                manager.didSelect(TrackedRow.self) { row, _, _ in row.title.text = "selected" }
                manager.memoryStorage.setSectionHeaderModels(["Header"])
                manager.memoryStorage.addItems((0..<300).map { Post(id: $0, title: "\($0)") })
            }
            harness.selectRow(3)
            XCTAssertGreaterThan(TrackedRow.alive, 10)
            for row in harness.boundRowsByPosition.values {
                weak let weakRow = row
                weakRows.append { weakRow }
            }
            weakManager = harness.manager
            weakStorage = harness.manager.memoryStorage
            weakFactory = harness.manager.factory
            weakBridge = harness.manager.bridge
            listModel.pointee = UnsafeMutableRawPointer(harness.manager.bridge.model)
            g_object_add_weak_pointer(listModel.pointee!.assumingMemoryBound(to: GObject.self), listModel)
            harness.close()
            harness.manager = nil
        }
        let drained = GtkHarness.drainMainLoop()
        XCTAssertTrue(drained)
        XCTAssertNil(weakManager, "the manager is freed")
        XCTAssertNil(weakStorage, "the storage is freed")
        XCTAssertNil(weakFactory, "the factory is freed")
        XCTAssertNil(weakBridge, "the list model bridge is freed")
        XCTAssertNil(listModel.pointee, "the GObject list model is finalised")
        XCTAssertTrue(weakRows.allSatisfy { $0() == nil }, "every row is freed")
        XCTAssertEqual(TrackedRow.alive, 0, "no row object is left")
    } }

    func testMainActorTasksRunOnTheGLibMainLoop() { onMain {
        let harness = GtkHarness()
        var ranTask = false
        var ranBlock = false
        Task { @MainActor in ranTask = true }
        DispatchQueue.main.async { MainActor.assumeIsolated { ranBlock = true } }
        let iterations = MainLoopPump.run(until: { ranTask && ranBlock }, iterations: 10)
        XCTAssertTrue(ranTask, "Task { @MainActor } ran")
        XCTAssertTrue(ranBlock, "DispatchQueue.main.async ran")
        XCTAssertLessThanOrEqual(iterations, 3, "within a few main-loop iterations")
        harness.close()
    } }
}
