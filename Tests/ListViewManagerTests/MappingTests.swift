import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

class Animal {
    let name: String
    init(name: String) { self.name = name }
}

final class Dog: Animal {}

final class AnimalRow: ListRow, ModelTransfer {
    let name = Label()
    required init() { super.init(); append(name) }
    func update(with model: Animal) { name.text = "\(type(of: model)) \(model.name)" }
}

/// A row for an optional model type: models are stored unwrapped, and still match.
final class MaybePostRow: ListRow, ModelTransfer {
    let title = Label()
    required init() { super.init(); append(title) }
    func update(with model: Post?) { title.text = model?.title ?? "none" }
}

/// Which row type shows a model: subclasses, optionals, and the fallback after unregistering.
final class MappingTests: XCTestCase {
    func testSubclassesAndOptionalModelTypesFindTheirMapping() { onMain {
        let harness = GtkHarness { manager in
            manager.register(AnimalRow.self)
            manager.register(MaybePostRow.self)
            manager.memoryStorage.addItems([Dog(name: "Rex"), Animal(name: "Generic")] as [Animal])
            manager.memoryStorage.addItem(Post(id: 1, title: "optional") as Post?)
        }
        let rows = harness.boundRowsByPosition
        XCTAssertEqual((rows[0] as? AnimalRow)?.name.text, "Dog Rex")
        XCTAssertEqual((rows[1] as? AnimalRow)?.name.text, "Animal Generic")
        XCTAssertEqual((rows[2] as? MaybePostRow)?.title.text, "optional")
        harness.close()
    } }

    func testUnregisteringARowTypeShowsTheFallbackAgain() { onMain {
        var anomalies: [ListViewManagerAnomaly.Kind] = []
        let harness = GtkHarness { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0.kind) }
            manager.register(PostRow.self)
            manager.memoryStorage.addItem(Post(id: 1, title: "a"))
        }
        XCTAssertTrue(harness.boundRowsByPosition[0] is PostRow)
        harness.manager.unregister(PostRow.self)
        XCTAssertTrue(harness.boundRowsByPosition[0] is MissingMappingRow)
        XCTAssertEqual(anomalies, [.noItemMappingFound])
        harness.close()
    } }
}
