import Foundation

/// Where a PostgreSQL database is and who connects to it, as a `postgres://` URL gives it:
/// `postgres://user@host:port/database`, `postgres://user@[::1]:port/database` (an IPv6
/// address), or `postgres://user@/database?host=/run/postgresql` for the server's Unix socket
/// in that folder (see ``init(url:defaultUser:)``).
///
/// A URL never carries the password: it would be seen on the command line and in logs. The
/// password comes from `PGPASSWORD` or from the password file (`~/.pgpass`, or the file
/// `PGPASSFILE` names), as with `psql` (see ``PasswordFile``).
public struct PostgresAddress: Sendable, Hashable {
    /// How the server is reached.
    public enum Endpoint: Sendable, Hashable {
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
    /// Whether the connection is encrypted (over TCP; a Unix socket never is).
    public var sslMode: SSLMode

    /// Whether a connection over TCP is encrypted, as libpq's `sslmode` says. The server's
    /// certificate is not checked (libpq's `verify-ca` and `verify-full` are not supported).
    public enum SSLMode: String, Sendable, Hashable {
        /// Never encrypted.
        case disable
        /// Encrypted when the server can encrypt (libpq's `prefer`, and its `allow`).
        case prefer
        /// Always encrypted: a server that cannot encrypt is not used.
        case require
    }

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

    /// The database `database` on the server at `endpoint`, connected to as `user`, encrypted
    /// as `sslMode` says.
    public init(endpoint: Endpoint, user: String, database: String, sslMode: SSLMode = .prefer) {
        self.endpoint = endpoint
        self.user = user
        self.database = database
        self.sslMode = sslMode
    }
}

extension PostgresAddress: CustomStringConvertible {
    /// The address as a URL that reads back as this address (it never holds a password).
    public var description: String {
        let user = PostgresURL.encodedPart(user, reserved: "@:/?"), database = PostgresURL.encodedPart(database, reserved: "?")
        switch endpoint {
        case .tcp(let host, let port):
            let shownHost = host.contains(":") ? "[\(PostgresURL.encodedPart(host, reserved: "[]/?"))]"
                                               : PostgresURL.encodedPart(host, reserved: "@:/?,[]")
            let encryption = sslMode == .prefer ? "" : "?sslmode=\(sslMode.rawValue)"
            return "postgres://\(user)@\(shownHost):\(port)/\(database)\(encryption)"
        case .unixSocket(let directory, let port):
            return "postgres://\(user)@/\(database)?host=\(PostgresURL.encodedPart(directory, reserved: "&="))&port=\(port)"
        }
    }
}
