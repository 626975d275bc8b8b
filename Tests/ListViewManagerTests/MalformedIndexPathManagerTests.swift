import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

/// The manager refuses index paths of another shape than [section, item] as it refuses
/// paths out of range: no trap, nothing selected, scrolled or moved, and a move is an anomaly.
final class MalformedIndexPathManagerTests: XCTestCase {
    func testEveryIndexPathTakingCallRefusesThem() { onMain {
        var anomalies: [ListViewManagerAnomaly] = []
        let harness = GtkHarness(selectionMode: .multiple) { manager in
            manager.register(PostRow.self)
            manager.anomalyHandler.anomalyAction = { anomalies.append($0) }
            manager.memoryStorage.addItems([Post(id: 1, title: "a"), Post(id: 2, title: "b")])
        }
        let manager = harness.manager!
        let good = IndexPath(item: 0, section: 0)
        for path in [IndexPath(), IndexPath(index: 0), IndexPath(indexes: [0, 0, 0])] {
            XCTAssertFalse(manager.select(path), "\(path)")
            XCTAssertFalse(manager.deselect(path))
            XCTAssertFalse(manager.isSelected(path))
            XCTAssertFalse(manager.scrollTo(path))
            XCTAssertNil(manager.row(at: path))
            XCTAssertNil(manager.position(of: path))
            XCTAssertFalse(manager.moveItem(at: path, to: good))
            XCTAssertFalse(manager.moveItem(at: good, to: path))
        }
        harness.waitForFrames()
        XCTAssertEqual(manager.selectedIndexPaths, [])
        XCTAssertEqual(manager.memoryStorage.items(inSection: 0)?.compactMap { ($0 as? Post)?.id }, [1, 2])
        XCTAssertEqual(anomalies.map(\.kind), Array(repeating: .invalidMove, count: 6))
        XCTAssertTrue(anomalies.allSatisfy { !$0.description.isEmpty && !$0.debugDescription.isEmpty })
        harness.close()
    } }
}
