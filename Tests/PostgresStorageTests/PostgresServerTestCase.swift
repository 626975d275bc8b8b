import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport
import TestSupport
import XCTest

/// A test case with a private PostgreSQL server of its own, started before each test and
/// stopped after it.
class PostgresServerTestCase: XCTestCase {
    var server: PostgresTestServer!
    /// The owner's password, and no password file.
    let ownerEnvironment = ["PGPASSWORD": PostgresTestServer.ownerPassword, "PGPASSFILE": "/nonexistent"]

    override func setUpWithError() throws {
        guard PostgresTestServer.isInstalled else {
            throw PostgresTestServer.ServerError(description: "no PostgreSQL server programs: run meson-helpers/install-dependencies.sh")
        }
        server = try PostgresTestServer()
    }

    override func tearDown() {
        server?.stop()
    }

    /// Runs the main queue until `condition` holds (`seconds` at most).
    func wait(_ what: String, seconds: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line, until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting for \(what)", file: file, line: line) }
            RunLoop.main.run(until: Date().addingTimeInterval(0.005))
        }
    }
}

extension XCTestCase {
    /// The result of `body`, waited for on the test's thread (20 s at most).
    func blocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
        let outcome = Outcome<Value>()
        Task {
            do { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
        }
        let deadline = Date().addingTimeInterval(20)
        while outcome.value == nil, Date() < deadline { usleep(2000) }
        guard let result = outcome.value else { throw PostgresTestServer.ServerError(description: "timed out") }
        return try result.get()
    }
}

/// A result set on one thread and read on another.
private final class Outcome<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, Error>?
    var value: Result<Value, Error>? { lock.withLock { result } }
    func set(_ value: Result<Value, Error>) { lock.withLock { result = value } }
}

extension UpdateRecorder {
    /// The errors the storage reported (`onError`, appended to `errors`), as PostgreSQL's.
    var storageErrors: [PostgresStorageError] { errors.compactMap { $0 as? PostgresStorageError } }
}
