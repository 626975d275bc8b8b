import Foundation
import Synchronization

/// A program a test runs to its end, and what it printed: the package's own executables
/// (`list-viewer`, `list-benchmarks`, the fuzz targets) and system tools (msgfmt, sqlite3,
/// xdotool).
public struct ChildProcess: Sendable {
    /// The exit status.
    public let status: Int32
    /// What it wrote to standard output.
    public let output: String
    /// What it wrote to standard error.
    public let errors: String

    /// Runs `program` with `arguments` (in `directory`, else the test's) to its end.
    /// Both outputs are read as they come, so a program printing more than a pipe holds
    /// (a completion script, a benchmark's lines) never waits for the test.
    public static func run(_ program: String, _ arguments: [String], in directory: URL? = nil) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let complained = Mutex(Data()), reading = DispatchGroup(), errorHandle = errors.fileHandleForReading
        DispatchQueue.global().async(group: reading) { complained.withLock { $0 = errorHandle.readDataToEndOfFile() } }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        reading.wait()
        return ChildProcess(status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
                            errors: String(decoding: complained.withLock { $0 }, as: UTF8.self))
    }

    /// The path of the package's executable `name`, built beside the running test binary.
    public static func built(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name).path
    }
}
