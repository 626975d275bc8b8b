import Foundation
import TestSupport
import PostgresStorage

/// A private PostgreSQL server for a test: a cluster made by `initdb` in a temporary
/// folder, started by `pg_ctl` on 127.0.0.1 and ::1 (where the machine has IPv6) with a free
/// port and on a Unix socket in that folder, stopped and removed by `stop()`. It touches no other server. As root (CI), its
/// programs run as the `postgres` user, since PostgreSQL refuses to run as root.
/// (`psql` may run on any thread; the test's thread starts and stops the server.)
public final class PostgresTestServer: @unchecked Sendable {
    /// The cluster's superuser and its password.
    public static let owner = "owner"
    public static let ownerPassword = "owner's secret: with a colon"

    /// The folder of the cluster's files, its socket and its log.
    public let folder: URL
    /// The TCP port it listens on (127.0.0.1, and ::1).
    public let port: Int
    private var data: URL { folder.appendingPathComponent("data") }
    /// The folder holding the server's Unix socket.
    public var socketFolder: String { folder.appendingPathComponent("socket").path }
    private var isRunning = false

    /// Where to reach the server over TCP as `user`, in `database`.
    public func address(user: String = owner, database: String = "postgres") -> PostgresAddress {
        PostgresAddress(endpoint: .tcp(host: "127.0.0.1", port: port), user: user, database: database)
    }

    /// Makes and starts a new cluster.
    public init() throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pg-\(UUID().uuidString.prefix(8))")
        port = try Self.freePort()
        try FileManager.default.createDirectory(atPath: socketFolder, withIntermediateDirectories: true)
        let passwordFile = folder.appendingPathComponent("owner-password")
        try Self.ownerPassword.write(to: passwordFile, atomically: true, encoding: .utf8)
        if getuid() == 0 { try Self.run("/bin/chown", ["-R", "postgres:postgres", folder.path]) }
        try runAsServer("initdb", ["-D", data.path, "-U", Self.owner, "--pwfile", passwordFile.path, "--auth", "scram-sha-256",
                                   "-E", "UTF8", "--no-sync", "--no-instructions"])
        try start()
    }

    /// Makes and starts a streaming replica of `primary` (a hot standby: it serves reads),
    /// copied by `pg_basebackup -R` over the primary's TCP port as its owner.
    public init(replicaOf primary: PostgresTestServer) throws {
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pg-replica-\(UUID().uuidString.prefix(8))")
        port = try Self.freePort()
        try FileManager.default.createDirectory(atPath: socketFolder, withIntermediateDirectories: true)
        if getuid() == 0 { try Self.run("/bin/chown", ["-R", "postgres:postgres", folder.path]) }
        try Self.runAsServerUser(Self.binary("pg_basebackup"), ["-D", data.path, "-R", "-X", "stream", "--checkpoint=fast", "--no-sync", "-h", "127.0.0.1",
                                                               "-p", String(primary.port), "-U", Self.owner],
                                 environment: ["PGPASSWORD": Self.ownerPassword])
        try start()
    }

    /// Makes the (replica) server a primary, and waits until it takes writes.
    public func promote() throws {
        try runAsServer("pg_ctl", ["-D", data.path, "-w", "promote"])
    }

    /// Starts the (stopped) server.
    public func start() throws {
        try runAsServer("pg_ctl", ["-D", data.path, "-l", folder.appendingPathComponent("log").path, "-w", "-o",
                                   "-c listen_addresses=127.0.0.1,::1 -p \(port) -k \(socketFolder) -c fsync=off", "start"])
        isRunning = true
    }

    /// Stops the server, which keeps its files (`start` starts it again).
    public func halt() throws {
        guard isRunning else { return }
        try runAsServer("pg_ctl", ["-D", data.path, "-m", "fast", "-w", "stop"])
        isRunning = false
    }

    /// Stops the server and removes its files.
    public func stop() {
        try? halt()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `sql` through `psql` as the owner (a second process, as another program would).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run(Self.binary("psql"), ["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port),
                                           "-U", Self.owner, "-d", database, "-c", sql],
                     environment: ["PGPASSWORD": Self.ownerPassword])
    }

    /// Runs `pgbench` with `arguments` against the server's `postgres` database as the
    /// owner, and waits for it; returns what it wrote.
    @discardableResult
    public func pgbench(_ arguments: [String]) throws -> String {
        try Self.run(Self.binary("pgbench"), arguments + ["-h", "127.0.0.1", "-p", String(port), "-U", Self.owner, "postgres"],
                     environment: ["PGPASSWORD": Self.ownerPassword])
    }

    private func runAsServer(_ program: String, _ arguments: [String]) throws {
        try Self.runAsServerUser(Self.binary(program), arguments)
    }

    /// Runs `path` with `arguments` and waits for it, as the `postgres` user when root
    /// (servers refuse to run as root).
    @discardableResult
    static func runAsServerUser(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        if getuid() == 0 {
            try run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments, environment: environment)
        } else {
            try run(path, arguments, environment: environment)
        }
    }

    /// The newest installed PostgreSQL's `program` (Debian keeps them out of PATH).
    public static func binary(_ program: String) -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let newest = versions.compactMap(Int.init).max()
        return newest.map { "/usr/lib/postgresql/\($0)/bin/\(program)" } ?? program
    }

    /// Whether PostgreSQL's server programs are installed.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binary("initdb")) }

    /// Runs `path` with `arguments` and waits for it; returns what it wrote, or throws
    /// with it when it fails. Spawned directly (posix_spawn, waitpid): Foundation's
    /// `Process` waits until every process holding its hidden descriptor is gone, and the
    /// server `pg_ctl` starts inherits it.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let outputPath = NSTemporaryDirectory() + "pg-output-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let fullEnvironment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }.map { "\($0)=\($1)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = fullEnvironment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = withShellLikeSpawnAttributes { posix_spawn(&pid, path, &actions, $0, argv, envp) }
        guard spawned == 0 else { throw ServerError(description: "\(path) cannot be run: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        // Exited (the low 7 bits 0) with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw ServerError(description: "\((path as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// A TCP port nobody listens on now: one the kernel gives a socket bound to port 0.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError(description: "no socket for a free port") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw ServerError(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Why the server could not be made, started or used.
    public struct ServerError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }
}
