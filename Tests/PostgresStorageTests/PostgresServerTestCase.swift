import Foundation
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
}
