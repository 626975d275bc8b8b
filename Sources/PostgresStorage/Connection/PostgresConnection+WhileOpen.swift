import Foundation
import Logging
import NIOCore
import PostgresNIO

extension PostgresConnection {
    /// The value of `body`, which uses this connection, or `connectionLost` as soon as the
    /// connection closes, whichever comes first.
    ///
    /// PostgresNIO (1.33) drops a statement written to a connection that has just closed
    /// without failing it: when the server ends a session that is idle in a transaction
    /// (`pg_terminate_backend`), the next statement sent on it, and anything awaiting it,
    /// waits forever. Every statement the storages send goes through here, so that a
    /// closed connection is always an error, never a silent wait. `body` runs in a task of
    /// its own, cancelled when the caller is and when the connection closes.
    func whileOpen<Value: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Value) async throws -> Value {
        let race = Race<Value>(connection: ObjectIdentifier(self))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Error>) in
                race.begin(continuation)
                ClosingWatch.shared.watch(race, on: self)
                race.attach(Task { [self] in
                    do {
                        race.end(with: .success(try await body(self)))
                    } catch {
                        race.end(with: .failure(error))
                    }
                })
            }
        } onCancel: {
            race.cancel()
        }
    }
}

extension PostgresConnection {
    /// Runs `query` and returns its rows; fails at once with `connectionLost` when the
    /// connection has closed.
    ///
    /// PostgresNIO (1.33) writes a statement to its channel without a promise: written to a
    /// closed channel, it is dropped, and the task awaiting it stays suspended for ever,
    /// holding all it captured (`whileOpen` frees its caller, not the task). Here the check
    /// and the write happen on the connection's event loop, in one turn, so that no
    /// statement is ever written to a closed connection.
    @discardableResult
    func send(_ query: PostgresQuery, logger: Logger = .silent) async throws -> PostgresQueryResult {
        try await ifOpen { self.query(query, logger: logger) }
    }

    /// Runs `query`, handing each row to `onRow` on the connection's event loop as it
    /// arrives (no row is held), with `send(_:)`'s check.
    @discardableResult
    func send(_ query: PostgresQuery, logger: Logger = .silent,
              onRow: @escaping @Sendable (PostgresRow) throws -> Void) async throws -> PostgresQueryMetadata {
        try await ifOpen { self.query(query, logger: logger, onRow) }
    }

    /// The result of `write` (which writes a statement), run on the event loop when the
    /// connection is open there, or `connectionLost`.
    private func ifOpen<Result: Sendable>(_ write: @escaping @Sendable () -> EventLoopFuture<Result>) async throws -> Result {
        try await eventLoop.flatSubmit { [self] in
            isClosed ? eventLoop.makeFailedFuture(Self.closedError) : write()
        }.get()
    }

    /// The error of a statement on a closed connection.
    fileprivate static var closedError: PostgresStorageError {
        .connectionLost(reason: tr("the server closed the connection"))
    }
}

/// What a connection's closing ends.
private protocol EndedByClosing: AnyObject, Sendable {
    func connectionClosed()
}

/// The races under way on each connection, ended together when it closes: one callback on
/// each connection's `closeFuture` (NIO keeps a future's callbacks until it completes, so
/// one a statement would pile up over a connection's life), and each race forgotten when
/// it ends.
private final class ClosingWatch: @unchecked Sendable {
    static let shared = ClosingWatch()
    private let lock = NSLock()
    private var races: [ObjectIdentifier: [ObjectIdentifier: any EndedByClosing]] = [:]

    /// Ends `race` when `connection` closes (at once when it has).
    func watch(_ race: some EndedByClosing, on connection: PostgresConnection) {
        let id = ObjectIdentifier(connection)
        let first = lock.withLock {
            let first = races[id] == nil
            races[id, default: [:]][ObjectIdentifier(race)] = race
            return first
        }
        if first {
            connection.closeFuture.whenComplete { _ in self.closed(id) }
        }
    }

    /// Forgets `race`, which has ended.
    func forget(_ race: some EndedByClosing, on connection: ObjectIdentifier) {
        lock.withLock { _ = races[connection]?.removeValue(forKey: ObjectIdentifier(race)) }
    }

    private func closed(_ connection: ObjectIdentifier) {
        let ended = lock.withLock { races.removeValue(forKey: connection) ?? [:] }
        ended.values.forEach { $0.connectionClosed() }
    }
}

/// The first of a body's result and a connection's closing: resumes its continuation once,
/// and cancels the body's task then (or when the caller is cancelled).
private final class Race<Value: Sendable>: EndedByClosing, @unchecked Sendable {
    private let lock = NSLock()
    private let connection: ObjectIdentifier
    private var continuation: CheckedContinuation<Value, Error>?
    private var work: Task<Void, Never>?
    /// Whether the race has ended, or its caller was cancelled: the body's task is not needed.
    private var over = false

    init(connection: ObjectIdentifier) {
        self.connection = connection
    }

    func begin(_ continuation: CheckedContinuation<Value, Error>) {
        lock.withLock { self.continuation = continuation }
    }

    /// The body's task.
    func attach(_ work: Task<Void, Never>) {
        let needed = lock.withLock {
            if !over { self.work = work }
            return !over
        }
        if !needed { work.cancel() }
    }

    func end(with result: Result<Value, Error>) {
        let (continuation, work) = lock.withLock {
            defer { (self.continuation, self.work, over) = (nil, nil, true) }
            return (self.continuation, self.work)
        }
        work?.cancel()
        ClosingWatch.shared.forget(self, on: connection)
        continuation?.resume(with: result)
    }

    func connectionClosed() {
        end(with: .failure(PostgresConnection.closedError))
    }

    func cancel() {
        let work = lock.withLock {
            over = true
            defer { self.work = nil }
            return self.work
        }
        work?.cancel()
    }
}
