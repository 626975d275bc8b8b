import CGtk
import Foundation
import ListViewManager
import XCTest

/// The one registered application the viewer tests open windows in (GApplication exports
/// itself on D-Bus once per id and process, and windows need a registered application).
@MainActor
enum ViewerTestApplication {
    static let shared: Application = {
        XCTAssertNotEqual(gtk_init_check(), 0, "run the tests under xvfb-run")
        MainQueue.attachToGLib()
        let application = Application(id: "io.github.listviewmanager.ListViewerTests", allowsMultipleInstances: true)
        var error: UnsafeMutablePointer<GError>?
        let registered = g_application_register(UnsafeMutableRawPointer(application.gtkApplication).assumingMemoryBound(to: GApplication.self), nil, &error)
        XCTAssertNotEqual(registered, 0, error.map { String(cString: $0.pointee.message) } ?? "")
        return application
    }()
}
