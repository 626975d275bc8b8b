import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport
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

/// What a storage told its delegate.
final class Recorder: StorageUpdating {
    var updates: [StorageUpdate] = []
    var reloads = 0
    var errors: [PostgresStorageError] = []

    func storageDidPerformUpdate(_ update: StorageUpdate) { updates.append(update) }
    func storageNeedsReloading() { reloads += 1 }
}
