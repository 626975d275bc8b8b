import Foundation

/// Where a PostgreSQL database is and who connects to it, as a `postgres://` URL gives it:
/// `postgres://user@host:port/database`, or `postgres://user@/database?host=/run/postgresql`
/// for the server's Unix socket in that folder.
///
/// A URL never carries the password: it would be seen on the command line and in logs. The
/// password comes from `PGPASSWORD` or from the password file (`~/.pgpass`, or the file
/// `PGPASSFILE` names), as with `psql` (see ``PasswordFile``).
public struct PostgresAddress: Sendable, Equatable {
    /// How the server is reached.
    public enum Endpoint: Sendable, Equatable {
        /// A host name or address and a TCP port.
        case tcp(host: String, port: Int)
        /// The Unix socket `.s.PGSQL.<port>` in `directory`.
        case unixSocket(directory: String, port: Int)
    }

    /// How the server is reached.
    public var endpoint: Endpoint
    /// The role connected as.
    public var user: String
    /// The database connected to.
    public var database: String

    /// The server's port, whichever way it is reached.
    public var port: Int {
        switch endpoint {
        case .tcp(_, let port), .unixSocket(_, let port): return port
        }
    }

    /// The host as the password file names it: the host name, or `localhost` for a socket
    /// (as libpq matches it).
    public var passwordFileHost: String {
        switch endpoint {
        case .tcp(let host, _): return host
        case .unixSocket: return "localhost"
        }
    }

    /// The socket's path, for a server reached through its Unix socket.
    public var unixSocketPath: String? {
        guard case .unixSocket(let directory, let port) = endpoint else { return nil }
        return (directory as NSString).appendingPathComponent(".s.PGSQL.\(port)")
    }

    /// The database `database` on the server at `endpoint`, connected to as `user`.
    public init(endpoint: Endpoint, user: String, database: String) {
        self.endpoint = endpoint
        self.user = user
        self.database = database
    }

    /// Reads `url` (`postgres://` or `postgresql://`). The user defaults to `defaultUser`
    /// (the login name) and the database to the user, as with `psql`.
    public init(url: String, defaultUser: String = ProcessInfo.processInfo.userName) throws(PostgresStorageError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else {
            throw .badAddress(Self.withoutUserInfo(url), reason: tr("it is not a postgres:// URL"))
        }
        guard components.password == nil else {
            throw .badAddress(Self.withoutPassword(components),
                              reason: tr("a password on the command line is seen by every user of this computer; give it in PGPASSWORD or ~/.pgpass"))
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        var port = 5432
        if let given = components.port ?? query["port"].flatMap(Int.init) {
            guard (1...65535).contains(given) else { throw .badAddress(url, reason: tr("port %ld is out of range", given)) }
            port = given
        }
        let user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? defaultUser
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.isEmpty ? user : path
        guard !database.contains("/") else { throw .badAddress(url, reason: "\"\(database)\" is not a database name") }
        let host = query["host"] ?? components.host.flatMap { $0.isEmpty ? nil : $0 }
        switch host {
        case let directory? where directory.hasPrefix("/"):
            endpoint = .unixSocket(directory: directory, port: port)
        case let name?:
            endpoint = .tcp(host: name, port: port)
        case nil:
            endpoint = .unixSocket(directory: "/var/run/postgresql", port: port)
        }
        self.user = user
        self.database = database
    }

    /// `url` with what may hold a password (everything before the last `@` of its
    /// authority) left out: shown when it cannot be read as a URL.
    private static func withoutUserInfo(_ url: String) -> String {
        let start = url.range(of: "://")?.upperBound ?? url.startIndex
        let authorityEnd = url[start...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        guard let at = url[start..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<start]) + "…" + String(url[at...])
    }

    /// `components` as a string, with its password left out.
    private static func withoutPassword(_ components: URLComponents) -> String {
        var shown = components
        shown.password = nil
        return shown.string ?? tr("the address")
    }
}

extension PostgresAddress: CustomStringConvertible {
    /// The address as a URL (it never holds a password).
    public var description: String {
        switch endpoint {
        case .tcp(let host, let port):
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "postgres://\(user)@\(shownHost):\(port)/\(database)"
        case .unixSocket(let directory, let port):
            return "postgres://\(user)@/\(database)?host=\(directory)&port=\(port)"
        }
    }
}
