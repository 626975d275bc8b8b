import CGtk
import CGtkTestShims
import XCTest

/// Opens GTK's display for this test process, and fails the test when there is none.
///
/// Every test opens it here: this first lets through, as not fatal (printed), the messages
/// GTK logs about its own bookkeeping, which no caller can cause or prevent
/// (`cgtk_shims_open_test_display` names them: a popover's frame on GTK 4.24's X11 backend,
/// and GTK's count of the presses a widget is under); every other warning or critical stays
/// fatal under `G_DEBUG=fatal-warnings`.
/// - Returns: whether the display is open.
@MainActor
@discardableResult
public func openTestDisplay(file: StaticString = #filePath, line: UInt = #line) -> Bool {
    let opened = cgtk_shims_open_test_display() != 0
    if !opened { XCTFail("GTK could not open a display: run the tests under xvfb-run", file: file, line: line) }
    return opened
}
