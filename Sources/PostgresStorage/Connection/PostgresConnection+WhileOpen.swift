import Foundation
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
        let race = Race<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, Error>) in
                race.begin(continuation)
                race.attach(Task { [self] in
                    do {
                        race.end(with: .success(try await body(self)))
                    } catch {
                        race.end(with: .failure(error))
                    }
                })
                closeFuture.whenComplete { _ in
                    race.end(with: .failure(PostgresStorageError.connectionLost(reason: tr("the server closed the connection"))))
                }
            }
        } onCancel: {
            race.cancel()
        }
    }
}

/// The first of a body's result and a connection's closing: resumes its continuation once,
/// and cancels the body's task then (or when the caller is cancelled).
private final class Race<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Error>?
    private var work: Task<Void, Never>?
    /// Whether the race has ended, or its caller was cancelled: the body's task is not needed.
    private var over = false

    func begin(_ continuation: CheckedContinuation<Value, Error>) {
        lock.withLock { self.continuation = continuation }
    }

    /// The body's task.
    func attach(_ work: Task<Void, Never>) {
        let needed = lock.withLock {
            self.work = work
            return !over
        }
        if !needed { work.cancel() }
    }

    func end(with result: Result<Value, Error>) {
        let (continuation, work) = lock.withLock {
            defer { (self.continuation, over) = (nil, true) }
            return (self.continuation, self.work)
        }
        work?.cancel()
        continuation?.resume(with: result)
    }

    func cancel() {
        let work = lock.withLock {
            over = true
            return self.work
        }
        work?.cancel()
    }
}
