import CGtk
import Foundation
import GRDB
import GtkTestSupport
import ListViewManager
import ListViewerKit
import ModelStorage
import SQLiteStorage
import Synchronization
import XCTest

/// The rows' reader held up inside SQLite (an SQL function that waits until the test lets
/// it go), to show that the main thread never waits for it.
final class ReaderGate: Sendable {
    private let state = Mutex((heldUp: false, open: false))
    private let opened = DispatchSemaphore(value: 0)

    /// Whether a read is held up now.
    var isHoldingUp: Bool { state.withLock { $0.heldUp } }

    /// Called by the reader: waits until `open()` (the first time; later reads pass).
    func pass() {
        let wait = state.withLock { state -> Bool in
            guard !state.open, !state.heldUp else { return false }
            state.heldUp = true
            return true
        }
        guard wait else { return }
        opened.wait()
        state.withLock { $0.heldUp = false }
    }

    /// Lets the held-up read go on, and every later one.
    func open() {
        let wasHeld = state.withLock { state -> Bool in
            state.open = true
            return state.heldUp
        }
        if wasHeld { opened.signal() }
    }
}

final class HeldUpReaderTests: XCTestCase {
    func testTheWindowDrawsScrollsAndSearchesWhileAPageReadIsHeldUp() throws {
        let folder = NSTemporaryDirectory() + "HeldUpReaderTests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rows.sqlite"
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                CREATE TABLE t (name TEXT NOT NULL);
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000)
                INSERT INTO t SELECT 'row ' || x FROM n;
                """)
        }
        let gate = ReaderGate()
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction("held_up", argumentCount: 0, pure: false) { _ in gate.pass(); return 1 })
        }
        let database = try DatabasePool(path: path, configuration: configuration)
        onMain {
            // A page is the table's columns and the gate's: the first page read waits at the gate.
            let storage = PagedQueryStorage<DatabaseRecord>(database: database, query: PagedQuery(table: "t", columns: "name, held_up() AS gate"))
            let harness = GtkHarness { manager in manager.register(DatabaseRecordRow.self) }
            defer { gate.open() }
            harness.manager.storage = storage
            harness.wait(until: { storage.isLoaded && gate.isHoldingUp }, "the rows' places, then a page read held up")

            // While the reader is held up: frames are drawn, the list scrolls to its end (more
            // pages asked for), a search reads the rows' places again (another connection).
            harness.waitForFrames(10)
            harness.manager.scrollTo(IndexPath(item: 99_999, section: 0))
            harness.waitForFrames(5)
            XCTAssertNotNil(harness.manager.row(at: IndexPath(item: 99_999, section: 0)), "the last row is shown, as a placeholder")
            storage.setQuery(PagedQuery(table: "t", columns: "name, held_up() AS gate", filter: "name LIKE '%999%'"))
            harness.wait(until: { storage.numberOfItems(inSection: 0) == 280 }, "the search's rows")
            XCTAssertTrue(gate.isHoldingUp, "the page read was held up throughout")
            XCTAssertEqual(storage.pagesRead, 0)

            gate.open()
            harness.wait(until: { (harness.boundRowsByPosition.values.first as? DatabaseRecordRow) != nil && storage.pagesRead > 0 },
                         "the pages, once the reader goes on")
            harness.close()
            storage.stopObserving()
        }
    }
}
