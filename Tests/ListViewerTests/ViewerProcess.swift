import Foundation
import TestSupport

/// The real `list-viewer` binary, run as a user would: arguments of any bytes (a file
/// name need not be UTF-8), and killed when it outlives `timeout` (a viewer that never
/// finishes loading is a failure, not a hung test run).
enum ViewerProcess {
    static var binary: String {
        ChildProcess.built("list-viewer")
    }

    /// Runs the viewer with `arguments`, in this process's environment with `environment`
    /// added.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> ChildProcess {
        try ChildProcess.run(binary, arguments, environment: environment, timeout: timeout)
    }

    /// Runs the viewer with `arguments` given as bytes.
    static func run(raw arguments: [[UInt8]], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> ChildProcess {
        try ChildProcess.run(binary, raw: arguments, environment: environment, timeout: timeout)
    }
}
