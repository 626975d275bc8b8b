import CGtk
import CGtkTestShims
import XCTest

/// Opens GTK's display for this test process, and fails the test when there is none.
///
/// Every test opens it here: on GTK 4.24 and later this first lets through, as not fatal,
/// the one message GTK's X11 backend logs about its own frame bookkeeping when a popover
/// shows on a display without a compositor (`cgtk_shims_open_test_display`); every other
/// warning or critical stays fatal under `G_DEBUG=fatal-warnings`.
/// - Returns: whether the display is open.
@MainActor
@discardableResult
public func openTestDisplay(file: StaticString = #filePath, line: UInt = #line) -> Bool {
    let opened = cgtk_shims_open_test_display() != 0
    if !opened { XCTFail("GTK could not open a display: run the tests under xvfb-run", file: file, line: line) }
    return opened
}
