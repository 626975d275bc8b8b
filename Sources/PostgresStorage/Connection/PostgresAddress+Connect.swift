import Foundation
import Logging
import PostgresNIO

extension PostgresAddress {
    /// The configuration PostgresNIO connects with: the password from `PGPASSWORD` or the
    /// password file, and over TCP, TLS as `sslMode` says (by default whenever the server
    /// offers it, libpq's `sslmode=prefer`).
    func configuration(password: String?) throws(PostgresStorageError) -> PostgresConnection.Configuration {
        switch endpoint {
        case .unixSocket:
            return PostgresConnection.Configuration(unixSocketPath: unixSocketPath!, username: user, password: password, database: database)
        case .tcp(let host, let port) where sslMode == .disable:
            return PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
        case .tcp(let host, let port):
            let context: NIOSSLContext
            do {
                var tls = TLSConfiguration.makeClientConfiguration()
                // As libpq's `prefer` and `require`: without checking the server's certificate.
                tls.certificateVerification = .none
                context = try NIOSSLContext(configuration: tls)
            } catch {
                throw .badAddress(description, reason: tr("TLS cannot be set up: %@", "\(error)"))
            }
            return PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database,
                                                    tls: sslMode == .require ? .require(context) : .prefer(context))
        }
    }

    /// Connects to the server, with a message a user can act on when it cannot. PostgresNIO
    /// logs to `logger` (by default, nowhere).
    public func connect(environment: [String: String] = ProcessInfo.processInfo.environment,
                        logger: Logger? = nil) async throws(PostgresStorageError) -> PostgresConnection {
        let configuration = try configuration(password: password(environment: environment))
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger ?? .silent)
        } catch {
            throw PostgresStorageError(error, connectingTo: self)
        }
    }
}

extension PostgresStorageError {
    /// `error`, thrown by PostgresNIO while connecting to `address` or querying through it,
    /// in the user's words.
    init(_ error: any Error, connectingTo address: PostgresAddress? = nil) {
        if let known = error as? PostgresStorageError {
            self = known
            return
        }
        guard let error = error as? PSQLError else {
            self = .connectionLost(reason: String(describing: error))
            return
        }
        let message = error.serverInfo?[.message] ?? ""
        let sqlState = error.serverInfo?[.sqlState] ?? ""
        switch (error.code, sqlState) {
        case (.server, "28P01"), (.server, "28000"):
            self = address.map { .authenticationFailed($0, reason: message) } ?? .server(message: message, sqlState: sqlState)
        case (.authMechanismRequiresPassword, _):
            self = address.map { .authenticationFailed($0, reason: tr("the server asks for a password and none was given")) }
                ?? .connectionLost(reason: tr("the server asks for a password"))
        case (.server, "3D000"):
            self = address.map { .unknownDatabase($0) } ?? .server(message: message, sqlState: sqlState)
        case (.server, "42P01"):
            self = .unknownTable(message)
        case (.server, "42703"):
            self = .unknownColumn(message)
        case (.server, "42501"):
            self = .permissionDenied(message)
        case (.server, let state) where state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53"):
            // Connection exceptions; the server shutting down, crashed or starting up; and
            // out of resources (too many connections, out of memory): trying again may help.
            self = .connectionLost(reason: message)
        case (.server, _):
            self = .server(message: message, sqlState: sqlState)
        case (.serverClosedConnection, _) where address != nil, (.uncleanShutdown, _) where address != nil,
             (.connectionError, _) where address != nil && Self.wasReset(error.underlying):
            // While connecting, nothing was connected to lose: something accepted the
            // connection and closed it (not a PostgreSQL server, or one that refuses us). A
            // close with our first message still unread reaches us as a reset as often as not.
            self = .serverUnreachable(address!, reason: tr("the server closed the connection before it answered"))
        case (.connectionError, _):
            let reason = error.underlying.map { String(describing: $0) } ?? tr("connection failed")
            self = address.map { .serverUnreachable($0, reason: reason) } ?? .connectionLost(reason: reason)
        default:
            self = .connectionLost(reason: String(describing: error.code))
        }
    }
}

extension PostgresStorageError {
    /// Whether `error` is the other end resetting the connection (`ECONNRESET`).
    private static func wasReset(_ error: (any Error)?) -> Bool {
        (error as? IOError)?.errnoCode == ECONNRESET
    }
}

extension Logger {
    /// A logger that writes nothing: what the storage gives PostgresNIO unless told otherwise,
    /// so that an app's output holds only what it logs itself.
    static let silent = Logger(label: "PostgresStorage", factory: { _ in SwiftLogNoOpLogHandler() })
}
