import Foundation
import ModelStorage
import VisibleText

/// What went wrong between a PostgreSQL storage and its server, in words a user can act on.
public enum PostgresStorageError: Error, Equatable, Sendable {
    /// The address cannot be used.
    case badAddress(String, reason: String)
    /// No server answers at the address (not started, wrong host or port).
    case serverUnreachable(PostgresAddress, reason: String)
    /// The server refused the password, or asked for one and none was given.
    case authenticationFailed(PostgresAddress, reason: String)
    /// The database does not exist.
    case unknownDatabase(PostgresAddress)
    /// The query names a table (or view) the database does not have.
    case unknownTable(String)
    /// The query names a column the table does not have.
    case unknownColumn(String)
    /// The role may not read what the query reads.
    case permissionDenied(String)
    /// Any other error the server reported, with its SQLSTATE code.
    case server(message: String, sqlState: String)
    /// The connection was lost.
    case connectionLost(reason: String)
}

extension PostgresStorageError {
    /// The storage was closed while it read or connected.
    static var closed: PostgresStorageError { .connectionLost(reason: tr("the storage was closed")) }

    /// Whether the server could not be reached or the connection was lost (connecting
    /// again may help), rather than a refusal or a wrong query (it would not).
    public var isConnectionProblem: Bool {
        switch self {
        case .serverUnreachable, .connectionLost: true
        default: false
        }
    }
}

/// The value of `body`, or its error as a `PostgresStorageError`.
func mappingErrors<Value>(isolation: isolated (any Actor)? = #isolation,
                          _ body: () async throws -> Value) async throws(PostgresStorageError) -> Value {
    do {
        return try await body()
    } catch {
        throw PostgresStorageError(error)
    }
}

extension PostgresStorageError: LocalizedError {
    /// The message, with any control character in it (from a name or the server) visible.
    public var errorDescription: String? {
        message.withVisibleControlCharacters
    }

    private var message: String {
        switch self {
        case .badAddress(let address, let reason):
            return tr("cannot use %@: %@", address, reason)
        case .serverUnreachable(let address, let reason):
            return tr("no PostgreSQL server answers at %@ (%@)", address.description, reason)
        case .authenticationFailed(let address, let reason):
            return tr("the server at %@ did not accept the password for %@ (%@); give it in PGPASSWORD or ~/.pgpass", address.description, address.user, reason)
        case .unknownDatabase(let address):
            return tr("the server has no database %@", address.database)
        case .unknownTable(let message), .unknownColumn(let message), .permissionDenied(let message):
            return message
        case .server(let message, let sqlState):
            return "\(message) (SQLSTATE \(sqlState))"
        case .connectionLost(let reason):
            return tr("the connection to the server was lost (%@)", reason)
        }
    }
}
