import Foundation

extension PostgresAddress {
    /// Reads `url` as libpq reads a URI: `postgres://` or `postgresql://`, then
    /// `user@host:port/database?name=value&…`, each part percent-decoded; an IPv6 address
    /// goes in brackets (`[::1]`); a host that starts with `/` is the folder of the server's
    /// Unix socket. The parameters `host`, `port`, `user` and `dbname` replace those parts,
    /// and `sslmode` (`disable`, `allow`, `prefer`, `require`; or `ssl=true`) says whether to
    /// encrypt. The user defaults to `defaultUser` (the login name), the database to the user,
    /// the port to 5432 and the host to the socket in `/var/run/postgresql`, as with `psql`.
    ///
    /// - Throws: `PostgresStorageError.badAddress`, naming the part that is wrong, for a URL
    ///   with a password (give it in `PGPASSWORD` or `~/.pgpass`), a port that is not a number
    ///   from 1 to 65535, a host list, an unknown parameter, and any URL libpq would refuse.
    ///   The message shows the URL without its password or raw control characters.
    public init(url: String, defaultUser: String = ProcessInfo.processInfo.userName) throws(PostgresStorageError) {
        let parts = try PostgresURL(url)
        var (host, port, user, database, sslMode) = (parts.host, parts.port, parts.user, parts.database, SSLMode.prefer)
        for (name, value) in parts.parameters {
            switch (name, value) {
            case ("host", _): host = value
            case ("port", _): port = value
            case ("user", _): user = value
            case ("dbname", _): database = value
            case ("sslmode", "disable"): sslMode = .disable
            case ("sslmode", "allow"), ("sslmode", "prefer"): sslMode = .prefer
            case ("sslmode", "require"), ("ssl", "true"): sslMode = .require
            case ("sslmode", "verify-ca"), ("sslmode", "verify-full"):
                throw .badAddress(parts.shown, reason: tr("sslmode=%@ is not supported: the server's certificate is not checked (require encrypts without checking it)", value))
            case ("sslmode", _), ("ssl", _):
                throw .badAddress(parts.shown, reason: tr("%@=%@ is not one of disable, allow, prefer and require", name, PostgresURL.visible(value)))
            default:
                throw .badAddress(parts.shown, reason: tr("the parameter %@ is not supported (host, port, user, dbname and sslmode are)", PostgresURL.visible(name)))
            }
        }
        let portNumber = try Self.port(port, in: parts.shown)
        self.user = user.flatMap { $0.isEmpty ? nil : $0 } ?? defaultUser
        self.database = database.flatMap { $0.isEmpty ? nil : $0 } ?? self.user
        self.sslMode = sslMode
        switch host {
        case let directory? where directory.hasPrefix("/"):
            endpoint = .unixSocket(directory: directory, port: portNumber)
            // The kernel's limit on a socket's path (sun_path, with its closing NUL).
            let longest = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
            guard unixSocketPath!.utf8.count <= longest else {
                throw .badAddress(parts.shown, reason: tr("the socket %@ is too long: a socket's path has at most %ld bytes",
                                                          PostgresURL.visible(unixSocketPath!), longest))
            }
        case let name?:
            // The longest name DNS carries (253 characters, dots included).
            guard name.count <= 253 else {
                throw .badAddress(parts.shown, reason: tr("the host name is %ld characters long; a host name has at most 253", name.count))
            }
            endpoint = .tcp(host: name, port: portNumber)
        case nil:
            endpoint = .unixSocket(directory: "/var/run/postgresql", port: portNumber)
        }
    }

    /// The port written `written` (5432 when none is), or the error saying why it is none.
    private static func port(_ written: String?, in shown: String) throws(PostgresStorageError) -> Int {
        guard let written else { return 5432 }
        guard !written.isEmpty, written.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw .badAddress(shown, reason: tr("the port '%@' is not a number", PostgresURL.visible(written)))
        }
        guard let port = Int(written), (1...65535).contains(port) else {
            throw .badAddress(shown, reason: tr("the port %@ is out of range (1 to 65535)", written))
        }
        return port
    }
}
