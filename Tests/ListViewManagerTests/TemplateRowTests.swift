import CGtk
import Foundation
@testable import ListViewManager
import XCTest
import GtkTestSupport

final class PhotoTemplateRow: TemplateRow, ModelTransfer {
    lazy var caption: Label = outlet("caption")
    lazy var icon: Image = outlet("icon")
    func update(with model: any Media) { caption.text = model.caption }
}

final class EmptyTemplateRow: TemplateRow, ModelTransfer {
    func update(with model: Int) {}
}

final class BrokenTemplateRow: TemplateRow, ModelTransfer {
    func update(with model: String) {}
}

final class MissingTemplateRow: TemplateRow, ModelTransfer {
    lazy var title: Label = outlet("title")
    func update(with model: Double) { title.text = "\(model)" }
}

final class PostCardRow: TemplateRow, ModelTransfer {
    lazy var title: Label = outlet("title")
    lazy var subtitle: Label = outlet("subtitle")
    func update(with model: Post) {
        title.text = model.title
        subtitle.text = "post \(model.id)"
    }
}

final class ClashingTemplateRow: TemplateRow, ModelTransfer {
    func update(with model: Float) {}
}

final class TemplateRowTests: XCTestCase {
    func testACompositeTemplateBecomesAWidgetClassTheRowShows() throws { try onMain {
        let harness = GtkHarness { manager in
            manager.register(PostCardRow.self, bundle: .module)
            manager.memoryStorage.addItems([Post(id: 1, title: "Harbour"), Post(id: 2, title: "Hills")])
        }
        let rows = harness.boundRowsByPosition
        let card = try XCTUnwrap(rows[1] as? PostCardRow)
        XCTAssertEqual(card.title.text, "Hills")
        XCTAssertEqual(card.subtitle.text, "post 2")
        // The outlets are the template's children, inside an instance of the template's class.
        let instance = try XCTUnwrap(gtk_widget_get_parent(card.title.gtkWidget))
        XCTAssertEqual(String(cString: g_type_name_from_instance(UnsafeMutablePointer(OpaquePointer(instance)))), "ListTestsPostCard")
        XCTAssertEqual(gtk_widget_get_parent(card.subtitle.gtkWidget), instance)
        XCTAssertNotEqual(gtk_widget_has_css_class(card.subtitle.gtkWidget, "dim-label"), 0)
        harness.close()

        // A second list uses the class registered by the first.
        let again = GtkHarness { manager in
            manager.register(PostCardRow.self, bundle: .module)
            manager.memoryStorage.addItems([Post(id: 3, title: "Sea")])
        }
        XCTAssertEqual((again.boundRowsByPosition[0] as? PostCardRow)?.title.text, "Sea")
        again.close()
    } }

    func testACompositeTemplateWhoseClassNameIsTakenIsReported() { onMain {
        var anomalies: [String] = []
        let harness = GtkHarness { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0.debugDescription) }
            manager.register(ClashingTemplateRow.self, bundle: .module)
            manager.memoryStorage.addItems([Float(1)])
        }
        XCTAssertEqual(anomalies.count, 1)
        XCTAssertTrue(anomalies.first?.contains("a type named GtkLabel exists already") ?? false, anomalies.first ?? "")
        harness.close()
    } }

    func testARowIsBuiltFromItsUITemplateWithOutlets() { onMain {
        let harness = GtkHarness { manager in
            manager.register(PhotoTemplateRow.self, bundle: .module)
            manager.register(PostRow.self)
            manager.memoryStorage.addItems([Photo(caption: "Harbour"), Photo(caption: "Hills")] as [any Media])
            manager.memoryStorage.addItem(Post(id: 1, title: "Not a photo"))
        }
        let rows = harness.boundRowsByPosition
        let photo = rows[1] as? PhotoTemplateRow
        XCTAssertEqual(photo?.caption.text, "Hills")
        XCTAssertEqual(photo?.icon.iconName, "image-x-generic-symbolic")
        // The outlet is the widget from the template, shown inside the row.
        XCTAssertNotNil(photo.flatMap { gtk_widget_get_parent($0.caption.gtkWidget) })
        XCTAssertTrue(rows[2] is PostRow)
        harness.close()
    } }

    func testMissingEmptyOrBrokenTemplatesAndOutletsAreAnomalies() { onMain {
        var anomalies: [ListViewManagerAnomaly] = []
        let harness = GtkHarness { manager in
            manager.anomalyHandler.anomalyAction = { anomalies.append($0) }
            manager.register(EmptyTemplateRow.self, bundle: .module)
            manager.register(BrokenTemplateRow.self, bundle: .module)
            manager.register(MissingTemplateRow.self, bundle: .module)
            manager.memoryStorage.addItems([1, "two", 3.5] as [Any])
        }
        XCTAssertEqual(anomalies.map(\.description), [
            "ListViewManagerAnomaly.emptyTemplate(EmptyTemplateRow.ui)",
            "ListViewManagerAnomaly.brokenTemplate(BrokenTemplateRow.ui)",
            "ListViewManagerAnomaly.templateNotFound(MissingTemplateRow.ui)",
            "ListViewManagerAnomaly.missingOutlet(title, MissingTemplateRow.ui)",
        ])
        XCTAssertEqual((harness.boundRowsByPosition[2] as? MissingTemplateRow)?.title.text, "3.5", "a stand-in outlet works, unseen")
        XCTAssertEqual(harness.manager.numberOfRows, 3)
        harness.close()
    } }
}
