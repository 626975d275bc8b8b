import CGtk
import Foundation
import GtkTestSupport
import ListViewManager
import ListViewerKit
import ModelStorage
import XCTest

/// The one registered application the viewer tests open windows in (GApplication exports
/// itself on D-Bus once per id and process, and windows need a registered application).
@MainActor
enum ViewerTestApplication {
    static let shared: Application = {
        openTestDisplay()
        MainQueue.attachToGLib()
        let application = Application(id: "io.github.listviewmanager.ListViewerTests", allowsMultipleInstances: true)
        var error: UnsafeMutablePointer<GError>?
        let registered = g_application_register(UnsafeMutableRawPointer(application.gtkApplication).assumingMemoryBound(to: GApplication.self), nil, &error)
        XCTAssertNotEqual(registered, 0, error.map { String(cString: $0.pointee.message) } ?? "")
        return application
    }()
}

/// Main-loop helpers the viewer tests share.
@MainActor
enum ViewerTestLoop {
    /// Runs the main loop until `condition` holds (or fails after 10 seconds).
    static func wait(_ message: String, until condition: () -> Bool) {
        if !MainLoopPump.run(until: condition, timeout: 10) { XCTFail("timed out waiting for \(message)") }
    }

    /// Runs the main loop until `widget` has painted `count` more frames.
    static func waitForFrames(of widget: UnsafeMutablePointer<GtkWidget>, _ count: Int = 3) {
        var painted = false
        Screenshot.afterPaintedFrames(of: widget, count) { painted = true }
        wait("\(count) frames") { painted }
    }

    /// Closes the viewer (stopping any folder still being read) and lets GTK finish.
    static func close(_ viewer: ViewerWindow) {
        viewer.close()
        MainLoopPump.drain(rounds: 20)
    }
}

extension ViewerWindow {
    /// The titles of the database records in the active list's storage, section by section
    /// ("…" for a row whose page is being read).
    var recordTitles: [[String]] {
        let storage = activeManager.storage
        return (0..<storage.numberOfSections()).map { section in
            (0..<storage.numberOfItems(inSection: section)).compactMap {
                (storage.item(at: IndexPath(item: $0, section: section)) as? PagedRow<DatabaseRecord>).map { $0.record?.title ?? "…" }
            }
        }
    }
}
