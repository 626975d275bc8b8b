import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program a test runs to its end, and what it printed: the package's own executables
/// (`list-viewer`, `list-benchmarks`, the fuzz targets, `OffThreadChange`) and system tools
/// (msgfmt, sqlite3, xdotool).
///
/// The test spawns and reaps the program itself (`posix_spawn`, `wait4`), rather than
/// through Foundation's `Process`, whose reaping left stopped programs as zombies under
/// AddressSanitizer (and the test waiting for ever); and it kills a program that outlives
/// its time, so a program that never ends is a failure, not a hung run.
public struct ChildProcess: Sendable {
    /// The exit status, or 128 plus the signal that ended it (-1 if something else in the
    /// test process reaped it first, which nothing does today).
    public let status: Int32
    /// What it wrote to standard output.
    public let output: String
    /// What it wrote to standard error.
    public let errors: String
    /// Whether it was killed for running past its time.
    public let timedOut: Bool
    /// Its peak resident memory, in kB (its own, not its children's).
    public let peakKilobytes: Int
    /// The processor time it used, user and system, in seconds: unlike the time it took,
    /// the same on a loaded machine.
    public let cpuSeconds: Double

    /// Runs `program` (a path) with `arguments`, in `directory` (else the test's), in this
    /// process's environment with `environment` added, to its end or for `timeout` seconds.
    public static func run(_ program: String, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String] = [:], timeout: TimeInterval = 600) throws -> ChildProcess {
        try run(program, raw: arguments.map { Array($0.utf8) }, in: directory, environment: environment, timeout: timeout)
    }

    /// Runs `program` with `arguments` given as bytes (a file name need not be UTF-8).
    /// Both outputs are read as they come, so a program printing more than a pipe holds
    /// (a completion script, a benchmark's lines) never waits for the test.
    public static func run(_ program: String, raw arguments: [[UInt8]], in directory: URL? = nil,
                           environment: [String: String] = [:], timeout: TimeInterval = 600) throws -> ChildProcess {
        let output = try PipeEnds(), errors = try PipeEnds()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
        if let directory {
            let changed = directory.path.withCString { addChangeOfDirectory(&actions, $0) }
            guard changed == 0 else { throw POSIXError(POSIXErrorCode(rawValue: changed) ?? .EINVAL) }
        }
        let argv = ([Array(program.utf8)] + arguments).map { bytes in strdup(bytes.map { CChar(bitPattern: $0) } + [0]) }
        let envp = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }.map { strdup("\($0)=\($1)") }
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { arguments in
            (envp + [nil]).withUnsafeBufferPointer { environment in
                withShellLikeSpawnAttributes { attributes in
                    posix_spawn(&pid, program, &actions, attributes, UnsafeMutablePointer(mutating: arguments.baseAddress!),
                                UnsafeMutablePointer(mutating: environment.baseAddress!))
                }
            }
        }
        close(output.write)
        close(errors.write)
        defer {
            close(output.read)
            close(errors.read)
        }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        return collect(pid: pid, output: output.read, errors: errors.read, deadline: Date().addingTimeInterval(timeout))
    }

    /// Runs the `sqlite3` shell on the database at `path` with `commands` (dot-commands and
    /// SQL, in order), as another program writing to it: it waits up to 10 s for a lock a
    /// reader holds (`.timeout`), as a well-behaved writer does, rather than failing at once
    /// with "database is locked" while a storage reads a file in rollback-journal mode.
    public static func sqlite3(_ path: String, _ commands: String...) throws -> ChildProcess {
        let shell = "/usr/bin/sqlite3"
        guard FileManager.default.isExecutableFile(atPath: shell) else {
            throw POSIXError(.ENOENT, userInfo: [NSLocalizedDescriptionKey: "no sqlite3 command: run meson-helpers/install-dependencies.sh"])
        }
        return try run(shell, [path, ".timeout 10000"] + commands)
    }

    /// The path of the package's executable `name`, built beside the running test binary.
    public static func built(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Reads both outputs until each ends and reaps the program, killing it at `deadline`.
    /// Once the program has ended, its outputs are read for 5 s more at most: a process it
    /// started may outlive it holding them open (the Swift runtime's `swift-backtrace` of a
    /// program that crashed under AddressSanitizer waited for ever for the program gone).
    private static func collect(pid: pid_t, output: Int32, errors: Int32, deadline: Date) -> ChildProcess {
        var printed = [UInt8](), complained = [UInt8]()
        var open: [Int32] = [output, errors]
        var status: Int32 = 0, usage = rusage(), ended = false, reaped = false, timedOut = false
        var outputsDeadline = deadline
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !ended || !open.isEmpty {
            var ready = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&ready, nfds_t(ready.count), 20) > 0 {
                for descriptor in ready where descriptor.revents != 0 {
                    let count = read(descriptor.fd, &buffer, buffer.count)
                    if count > 0, descriptor.fd == output {
                        printed.append(contentsOf: buffer[..<count])
                    } else if count > 0 {
                        complained.append(contentsOf: buffer[..<count])
                    } else if count == 0 || errno != EINTR {
                        open.removeAll { $0 == descriptor.fd }
                    }
                }
            }
            if !ended {
                let waited = wait4(pid, &status, WNOHANG, &usage)
                if waited == pid || (waited == -1 && errno == ECHILD) {
                    ended = true
                    reaped = waited == pid
                    outputsDeadline = Date().addingTimeInterval(5)
                }
            }
            if !ended, !timedOut, Date() > deadline {
                timedOut = true
                kill(pid, SIGKILL)
            } else if ended, Date() > outputsDeadline {
                break
            }
        }
        let exitStatus = !reaped ? -1 : (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let seconds = [usage.ru_utime, usage.ru_stime].reduce(0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1_000_000 }
        return ChildProcess(status: exitStatus, output: String(decoding: printed, as: UTF8.self),
                            errors: String(decoding: complained, as: UTF8.self), timedOut: timedOut,
                            peakKilobytes: usage.ru_maxrss, cpuSeconds: seconds)
    }
}

/// The two ends of a pipe, closed in programs started (the spawned program gets copies as
/// its outputs): a program another test starts meanwhile does not hold them open.
private struct PipeEnds {
    let read: Int32
    let write: Int32

    init() throws {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        var ends: [Int32] = [0, 0]
        guard let pipe2 = glibcFunction("pipe2", as: Pipe2.self) else { throw POSIXError(.ENOSYS) }
        guard pipe2(&ends, O_CLOEXEC) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        (read, write) = (ends[0], ends[1])
    }
}

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later): the spawned program
/// starts in the folder given.
private func addChangeOfDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                  _ path: UnsafePointer<CChar>) -> Int32 {
    typealias AddChangeOfDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    return glibcFunction("posix_spawn_file_actions_addchdir_np", as: AddChangeOfDirectory.self)?(actions, path) ?? ENOSYS
}

/// A function of glibc's that Swift's Glibc module does not declare (GNU extensions).
private func glibcFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
    dlsym(nil, name).map { unsafeBitCast($0, to: type) }
}
