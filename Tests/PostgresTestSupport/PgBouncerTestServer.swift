import Foundation
import PostgresStorage

/// A private PgBouncer for a test, in front of a `PostgresTestServer`: its own folder,
/// configuration and TCP port on 127.0.0.1, pooling by transaction (the mode that lets a
/// few server sessions serve many clients, and in which a session's state, `LISTEN`
/// included, is not kept between transactions). It authenticates the owner by SCRAM and
/// logs in to the server as the owner. `stop()` ends it and removes its folder; `restart()`
/// ends it (closing every client's connection) and starts it again on the same port.
public final class PgBouncerTestServer: @unchecked Sendable {
    /// The program, where Debian's `pgbouncer` package puts it.
    public static let program = "/usr/sbin/pgbouncer"
    /// Whether PgBouncer is installed.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: program) }

    /// The TCP port it listens on (127.0.0.1).
    public let port: Int
    /// The most server sessions it opens to the database.
    public let poolSize: Int
    private let folder: URL
    private var configuration: String { folder.appendingPathComponent("pgbouncer.ini").path }
    private var pidFile: String { folder.appendingPathComponent("pgbouncer.pid").path }

    /// Where to reach the server's `postgres` database through PgBouncer, as the owner.
    public func address() -> PostgresAddress {
        PostgresAddress(endpoint: .tcp(host: "127.0.0.1", port: port), user: PostgresTestServer.owner, database: "postgres")
    }

    /// Starts a PgBouncer in front of `server`'s `postgres` database, with at most
    /// `poolSize` server sessions and `maximumClients` client connections.
    public init(for server: PostgresTestServer, poolSize: Int = 20, maximumClients: Int = 200) throws {
        guard Self.isInstalled else {
            throw PostgresTestServer.ServerError(description: "no PgBouncer: run meson-helpers/install-dependencies.sh")
        }
        self.poolSize = poolSize
        folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pgbouncer-\(UUID().uuidString.prefix(8))")
        port = try PostgresTestServer.freePort()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A user list entry is two quoted words; a quote inside one is doubled.
        func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        try "\(quoted(PostgresTestServer.owner)) \(quoted(PostgresTestServer.ownerPassword))\n"
            .write(to: folder.appendingPathComponent("users.txt"), atomically: true, encoding: .utf8)
        try """
            [databases]
            postgres = host=127.0.0.1 port=\(server.port) dbname=postgres
            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(port)
            unix_socket_dir =
            auth_type = scram-sha-256
            auth_file = \(folder.appendingPathComponent("users.txt").path)
            pool_mode = transaction
            default_pool_size = \(poolSize)
            max_client_conn = \(maximumClients)
            logfile = \(folder.appendingPathComponent("pgbouncer.log").path)
            pidfile = \(pidFile)
            """.write(toFile: configuration, atomically: true, encoding: .utf8)
        if getuid() == 0 { try PostgresTestServer.run("/bin/chown", ["-R", "postgres:postgres", folder.path]) }
        try start()
    }

    /// Starts PgBouncer (in the background: it returns once PgBouncer listens).
    public func start() throws {
        // With as many open files as it may have (a socket a client): the user's default
        // of 1,024 holds 1,000 clients at most.
        try PostgresTestServer.runAsServerUser("/bin/sh", ["-c", "ulimit -n \"$(ulimit -Hn)\" && exec \"$0\" -d \"$1\"", Self.program, configuration])
        // Daemonized: listening once its pid file is written.
        let deadline = Date().addingTimeInterval(10)
        while pid == nil, Date() < deadline { usleep(10_000) }
        guard pid != nil else { throw PostgresTestServer.ServerError(description: "PgBouncer did not start: \(log)") }
    }

    /// Ends PgBouncer at once, as a crash would (every client's connection closed), and
    /// waits until it is gone. (Its own shutdown signals differ between versions: from 1.23,
    /// SIGTERM waits for every client to leave.)
    public func halt() {
        guard let pid else { return }
        kill(pid, SIGKILL)
        let deadline = Date().addingTimeInterval(10)
        while kill(pid, 0) == 0, Date() < deadline { usleep(10_000) }
        try? FileManager.default.removeItem(atPath: pidFile)
    }

    /// Ends PgBouncer and starts it again on the same port.
    public func restart() throws {
        halt()
        try start()
    }

    /// Ends PgBouncer and removes its folder.
    public func stop() {
        halt()
        try? FileManager.default.removeItem(at: folder)
    }

    /// PgBouncer's process, while its pid file says one runs.
    private var pid: pid_t? {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), kill(pid, 0) == 0 else { return nil }
        return pid
    }

    /// What PgBouncer logged.
    public var log: String { (try? String(contentsOf: folder.appendingPathComponent("pgbouncer.log"), encoding: .utf8)) ?? "" }
}
