import Foundation
import ListViewerKit
import XCTest

/// The app id is written once for the build and install (Resources/app-id): the viewer's
/// GApplication must register under the same id, or the desktop shows it without its entry,
/// name and icon.
final class ApplicationIDTests: XCTestCase {
    func testTheViewerRegistersUnderTheIdItsDesktopEntryIsInstalledAs() throws {
        let resources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().appendingPathComponent("../../Resources").standardizedFileURL
        let written = try String(contentsOf: resources.appendingPathComponent("app-id"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(written, MainActor.assumeIsolated { ViewerApp.applicationID })
        for file in ["\(written).desktop", "\(written).metainfo.xml", "\(written).svg"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: resources.appendingPathComponent(file).path), "Resources/\(file)")
        }
    }
}
