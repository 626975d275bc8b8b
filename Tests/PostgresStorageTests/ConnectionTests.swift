import Foundation
import PostgresNIO
@testable import PostgresStorage
import PostgresTestSupport
import XCTest

/// Addresses, passwords and the messages a user sees when a connection cannot be made,
/// against a real private PostgreSQL server.
final class ConnectionTests: PostgresServerTestCase {
    func testAConnectionWithThePasswordFromPGPASSWORDQueriesTheServer() async throws {
        let connection = try await server.address().connect(environment: ownerEnvironment)
        let rows = try await connection.query("SELECT 40 + \(2)", logger: Logger(label: "test"))
        var values: [Int] = []
        for try await value in rows.decode(Int.self) { values.append(value) }
        XCTAssertEqual(values, [42])
        try await connection.close()
    }

    /// The server listens on ::1 too (PostgresTestServer): a URL with the IPv6 address in
    /// brackets reaches it.
    func testAnIPv6AddressInBracketsConnects() async throws {
        let address = try PostgresAddress(url: "postgres://owner@[::1]:\(server.port)/postgres")
        XCTAssertEqual(address.endpoint, .tcp(host: "::1", port: server.port))
        let connection = try await address.connect(environment: ownerEnvironment)
        let rows = try await connection.query("SELECT inet_client_addr()::text", logger: Logger(label: "test"))
        var clients: [String] = []
        for try await client in rows.decode(String.self) { clients.append(client) }
        XCTAssertEqual(clients, ["::1/128"], "connected over IPv6")
        try await connection.close()
    }

    func testThePasswordFileGivesThePasswordOverTheUnixSocket() async throws {
        let file = server.folder.appendingPathComponent("pgpass")
        // An escaped colon in the password, a comment, a line for another database first.
        let escaped = PostgresTestServer.ownerPassword.replacingOccurrences(of: ":", with: "\\:")
        try "# test\nlocalhost:*:other:owner:wrong\nlocalhost:\(server.port):postgres:owner:\(escaped)\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let address = try PostgresAddress(url: "postgres://owner@/postgres?host=\(server.socketFolder)&port=\(server.port)")
        XCTAssertEqual(address.unixSocketPath, "\(server.socketFolder)/.s.PGSQL.\(server.port)")
        let connection = try await address.connect(environment: ["PGPASSFILE": file.path])
        try await connection.query("SELECT 1", logger: Logger(label: "test"))
        try await connection.close()

        // Readable by others, the file is not used, and says why.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let open = PasswordFile.current(environment: ["PGPASSFILE": file.path])
        XCTAssertNil(open.password(for: address))
        XCTAssertEqual(open.warning, "password file \(file.path) has group or world access; permissions should be u=rw (0600) or less")
    }

    func testAWrongPasswordAndNoPasswordAreClearMessages() async throws {
        let address = server.address()
        await assertThrows(try await address.connect(environment: ["PGPASSWORD": "guess", "PGPASSFILE": "/nonexistent"])) { error in
            guard case .authenticationFailed = error else { return XCTFail("\(error)") }
            XCTAssertEqual(error.localizedDescription, """
                the server at \(address) did not accept the password for owner (password authentication failed for user "owner"); \
                give it in PGPASSWORD or ~/.pgpass
                """)
        }
        await assertThrows(try await address.connect(environment: ["PGPASSFILE": "/nonexistent"])) { error in
            XCTAssertEqual(error, .authenticationFailed(address, reason: "the server asks for a password and none was given"))
        }
    }

    func testAnUnknownDatabaseAndAStoppedServerAreClearMessages() async throws {
        let missing = server.address(database: "nowhere")
        await assertThrows(try await missing.connect(environment: ownerEnvironment)) { error in
            XCTAssertEqual(error, .unknownDatabase(missing))
            XCTAssertEqual(error.localizedDescription, "the server has no database nowhere")
        }
        try server.halt()
        await assertThrows(try await server.address().connect(environment: ownerEnvironment)) { error in
            guard case .serverUnreachable(let address, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(address, server.address())
            XCTAssertTrue(error.localizedDescription.hasPrefix("no PostgreSQL server answers at postgres://owner@127.0.0.1:\(server.port)/postgres"))
        }
    }

    func testAnUnknownTableAndAForbiddenTableAreClearMessages() async throws {
        try server.psql("""
            CREATE TABLE secret (id integer); CREATE ROLE reader LOGIN PASSWORD 'reader';
            """)
        let connection = try await server.address(user: "reader").connect(environment: ["PGPASSWORD": "reader", "PGPASSFILE": "/nonexistent"])
        let logger = Logger(label: "test")
        do {
            try await connection.query("SELECT * FROM missing", logger: logger)
            XCTFail("no error")
        } catch {
            XCTAssertEqual(PostgresStorageError(error), .unknownTable("relation \"missing\" does not exist"))
        }
        do {
            try await connection.query("SELECT * FROM secret", logger: logger)
            XCTFail("no error")
        } catch {
            XCTAssertEqual(PostgresStorageError(error), .permissionDenied("permission denied for table secret"))
        }
        try await connection.close()
    }

    func testAddressesAreReadAsPsqlReadsThemAndNeverHoldAPassword() throws {
        let tcp = try PostgresAddress(url: "postgres://ann@db.example:6543/books", defaultUser: "me")
        XCTAssertEqual(tcp, PostgresAddress(endpoint: .tcp(host: "db.example", port: 6543), user: "ann", database: "books"))
        XCTAssertEqual(tcp.description, "postgres://ann@db.example:6543/books")
        let defaults = try PostgresAddress(url: "postgresql://db.example", defaultUser: "me")
        XCTAssertEqual(defaults, PostgresAddress(endpoint: .tcp(host: "db.example", port: 5432), user: "me", database: "me"))
        let socket = try PostgresAddress(url: "postgres:///books", defaultUser: "me")
        XCTAssertEqual(socket.endpoint, .unixSocket(directory: "/var/run/postgresql", port: 5432))
        XCTAssertEqual(socket.passwordFileHost, "localhost")

        XCTAssertThrowsError(try PostgresAddress(url: "postgres://ann:hunter2@db.example/books")) { error in
            XCTAssertEqual((error as? PostgresStorageError)?.localizedDescription, """
                cannot use postgres://ann@db.example/books: a password on the command line is seen by every user of this computer; \
                give it in PGPASSWORD or ~/.pgpass
                """, "the message does not repeat the password")
        }
        XCTAssertThrowsError(try PostgresAddress(url: "mysql://db.example/books"))
        // An address that is no URL at all is not repeated with its password either.
        XCTAssertThrowsError(try PostgresAddress(url: "postgre://ann:hunter 2@db.example/books")) { error in
            XCTAssertEqual((error as? PostgresStorageError)?.localizedDescription,
                           "cannot use postgre://…@db.example/books: it is not a postgres:// URL")
        }
    }

    func testThePasswordFileMatchesLikeLibpq() {
        let file = PasswordFile(text: """
            # comment
            db.example:5432:books:ann:first
            *:*:books:ann:second
            db.example:*:*:*:any\\\\one
            too:few:fields
            """)
        let address = PostgresAddress(endpoint: .tcp(host: "db.example", port: 5432), user: "ann", database: "books")
        XCTAssertEqual(file.password(for: address), "first", "the first line that matches")
        XCTAssertEqual(file.password(for: PostgresAddress(endpoint: .tcp(host: "other", port: 5432), user: "ann", database: "books")), "second")
        XCTAssertEqual(file.password(for: PostgresAddress(endpoint: .tcp(host: "db.example", port: 1), user: "bob", database: "x")), "any\\one")
        XCTAssertNil(file.password(for: PostgresAddress(endpoint: .tcp(host: "too", port: 1), user: "fields", database: "few")))
        XCTAssertEqual(address.password(environment: ["PGPASSWORD": "from the environment"], file: file), "from the environment")
    }

    /// Runs `body`, which must throw a `PostgresStorageError`, and checks that error.
    private func assertThrows<T>(_ body: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
                                 _ check: (PostgresStorageError) -> Void) async {
        do {
            _ = try await body()
            XCTFail("no error", file: file, line: line)
        } catch let error as PostgresStorageError {
            check(error)
        } catch {
            XCTFail("not a PostgresStorageError: \(error)", file: file, line: line)
        }
    }
}
