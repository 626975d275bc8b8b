import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The real `list-viewer` binary, run as a user would: arguments of any bytes (a file
/// name need not be UTF-8), its standard error collected, and killed when it outlives
/// `timeout` (a viewer that never finishes loading is a failure, not a hung test run).
enum ViewerProcess {
    /// How a run ended.
    struct Result {
        /// The exit status (128 + the signal when killed).
        var status: Int32
        /// What it wrote to standard error.
        var errors: String
        /// Whether it was killed for running past the timeout.
        var timedOut: Bool
        /// Its peak resident memory, in kB (its own, not its children's).
        var peakKilobytes: Int
        /// The processor time it used, user and system, in seconds: unlike the time it
        /// took, the same on a loaded machine.
        var cpuSeconds: Double
    }

    static var binary: String {
        ChildProcess.built("list-viewer")
    }

    /// Runs the viewer with `arguments`, in this process's environment with `environment`
    /// added.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> Result {
        try run(raw: arguments.map { Array($0.utf8) }, environment: environment, timeout: timeout)
    }

    /// Runs the viewer with `arguments` given as bytes.
    static func run(raw arguments: [[UInt8]], environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> Result {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let argv = ([Array(binary.utf8)] + arguments).map { bytes in strdup(bytes.map { CChar(bitPattern: $0) } + [0]) }
        let envp = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }.map { strdup("\($0)=\($1)") }
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer in
            (envp + [nil]).withUnsafeBufferPointer { environment in
                posix_spawn(&pid, binary, &actions, nil, UnsafeMutablePointer(mutating: buffer.baseAddress!),
                            UnsafeMutablePointer(mutating: environment.baseAddress!))
            }
        }
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT)
        }
        let reader = FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true)
        let collected = Collected()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            collected.set(reader.readDataToEndOfFile())
            done.signal()
        }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var timedOut = false
        var usage = rusage()
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            if Date() > deadline, !timedOut {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(20_000)
        }
        done.wait()
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exitStatus, errors: String(decoding: collected.data, as: UTF8.self), timedOut: timedOut,
                      peakKilobytes: usage.ru_maxrss,
                      cpuSeconds: [usage.ru_utime, usage.ru_stime].reduce(0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1_000_000 })
    }
}

/// Standard error as read on another thread.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    var data: Data { lock.withLock { stored } }
    func set(_ data: Data) { lock.withLock { stored = data } }
}
