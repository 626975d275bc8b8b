import Foundation
@testable import PostgresStorage
import XCTest

/// `postgres://` URLs read as libpq reads them, and each one that cannot be used refused with
/// a message naming what is wrong, without the password or raw control characters.
final class AddressTests: XCTestCase {
    /// The message of reading `url`, or nil when it reads.
    private func message(_ url: String) -> String? {
        do {
            _ = try PostgresAddress(url: url, defaultUser: "me")
            return nil
        } catch {
            return error.localizedDescription
        }
    }

    func testAnIPv6AddressGoesInBrackets() throws {
        let address = try PostgresAddress(url: "postgres://u@[::1]:5432/db")
        XCTAssertEqual(address, PostgresAddress(endpoint: .tcp(host: "::1", port: 5432), user: "u", database: "db"))
        XCTAssertEqual(address.description, "postgres://u@[::1]:5432/db")
        XCTAssertEqual(try PostgresAddress(url: "postgresql://[fe80::1%25eth0]/db", defaultUser: "me").endpoint,
                       .tcp(host: "fe80::1%eth0", port: 5432), "a zone, percent-encoded as RFC 6874 says")
        XCTAssertEqual(message("postgres://u@[::1/db"), "cannot use postgres://u@[::1/db: the [ of an IPv6 address is not closed by ]")
        XCTAssertEqual(message("postgres://u@[]/db"), "cannot use postgres://u@[]/db: the brackets [] hold no IPv6 address")
        XCTAssertEqual(message("postgres://u@[db.example]/db"), "cannot use postgres://u@[db.example]/db: [db.example] is not an IPv6 address")
        XCTAssertEqual(message("postgres://u@[::1]x/db"), """
            cannot use postgres://u@[::1]x/db: the IPv6 address [::1] is followed by x, where only a port (:5432), \
            a database (/name) or parameters (?name=value) may come
            """)
    }

    func testPortsAreNumbersFrom1To65535() throws {
        XCTAssertEqual(message("postgres://localhost:abc/db"), "cannot use postgres://localhost:abc/db: the port 'abc' is not a number")
        XCTAssertEqual(message("postgres://localhost/db?port=abc"), "cannot use postgres://localhost/db?port=abc: the port 'abc' is not a number")
        XCTAssertEqual(message("postgres://localhost:-1/db"), "cannot use postgres://localhost:-1/db: the port '-1' is not a number")
        XCTAssertEqual(message("postgres://db.example:99999/books"), "cannot use postgres://db.example:99999/books: the port 99999 is out of range (1 to 65535)")
        XCTAssertEqual(message("postgres://db.example:0/books"), "cannot use postgres://db.example:0/books: the port 0 is out of range (1 to 65535)")
        XCTAssertEqual(message("postgres://db.example:99999999999999999999999/books"),
                       "cannot use postgres://db.example:99999999999999999999999/books: the port 99999999999999999999999 is out of range (1 to 65535)")
        XCTAssertEqual(try PostgresAddress(url: "postgres://db.example:6543/books?port=6544").port, 6544, "a parameter replaces the part")
        XCTAssertEqual(try PostgresAddress(url: "postgres://db.example:/books").port, 5432, "an empty port is the default, as for libpq")
    }

    func testHostsAreRefusedWhenNoServerCouldBeThere() throws {
        let long = String(repeating: "h", count: 4_000)
        let refused = try XCTUnwrap(message("postgres://u@\(long)/db"))
        XCTAssertTrue(refused.hasSuffix(": the host name is 4000 characters long; a host name has at most 253"), refused)
        XCTAssertTrue(refused.hasPrefix("cannot use postgres://u@hhh"), refused)
        XCTAssertLessThan(refused.count, 300, "the URL is shown shortened: \(refused)")
        XCTAssertEqual(message("postgres://u@localhost/db?host="), "cannot use postgres://u@localhost/db?host=: the parameter 'host=' has no value")
        XCTAssertEqual(message("postgres://u@localhost/db?host"), "cannot use postgres://u@localhost/db?host: the parameter 'host' has no value")
        XCTAssertEqual(message("postgres://a,b/db"), "cannot use postgres://a,b/db: a list of hosts (a,b) is not supported; give one host")
        let folder = "/" + String(repeating: "f", count: 120)
        XCTAssertEqual(message("postgres:///db?host=\(folder)"), """
            cannot use postgres:///db?host=\(folder): the socket \(folder)/.s.PGSQL.5432 is too long: a socket's path has at most 107 bytes
            """)
        XCTAssertEqual(try PostgresAddress(url: "postgres://u@db.example/db?host=%2Frun%2Fpostgresql").endpoint,
                       .unixSocket(directory: "/run/postgresql", port: 5432))
    }

    func testPercentEncodingIsDecodedAndNULIsRefused() throws {
        let address = try PostgresAddress(url: "postgres://ann%40home@db.example/my%20books%3F")
        XCTAssertEqual(address.user, "ann@home")
        XCTAssertEqual(address.database, "my books?")
        XCTAssertEqual(address.description, "postgres://ann%40home@db.example:5432/my books%3F")
        XCTAssertEqual(try PostgresAddress(url: address.description), address, "the description reads back as the address")

        XCTAssertEqual(message("postgres://a%00b@db.example/books"),
                       "cannot use postgres://a%00b@db.example/books: the user name holds %00, a NUL character, which PostgreSQL does not allow")
        XCTAssertEqual(message("postgres://db.example/bo%00oks"),
                       "cannot use postgres://db.example/bo%00oks: the database name holds %00, a NUL character, which PostgreSQL does not allow")
        XCTAssertEqual(message("postgres://db.example/books?user=%00"),
                       "cannot use postgres://db.example/books?user=%00: the parameter user holds %00, a NUL character, which PostgreSQL does not allow")
        XCTAssertEqual(message("postgres://db.example/bo%zzoks"), """
            cannot use postgres://db.example/bo%zzoks: the database name has '%zz', which is not a percent-encoded byte \
            (% and two hexadecimal digits)
            """)
        XCTAssertEqual(message("postgres://db.example/books%FF"),
                       "cannot use postgres://db.example/books%FF: the database name is not UTF-8 text once its percent-encoded bytes are decoded")
    }

    func testControlCharactersAreNeverPrintedRaw() throws {
        // A control character in a name (PostgreSQL allows them) is shown encoded in the URL.
        let address = try PostgresAddress(url: "postgres://a%1Bb@db.example/c%07d")
        XCTAssertEqual(address.user, "a\u{1B}b")
        XCTAssertEqual(address.description, "postgres://a%1Bb@db.example:5432/c%07d")
        XCTAssertEqual(try PostgresAddress(url: address.description), address)
        // Every message shows control characters as symbols, whatever puts them there.
        XCTAssertEqual(PostgresStorageError.unknownDatabase(address).localizedDescription, "the server has no database c␇d")
        XCTAssertEqual(PostgresStorageError.server(message: "relation \"a\u{1B}[2Jb\" does not exist", sqlState: "42P01").localizedDescription,
                       "relation \"a␛[2Jb\" does not exist (SQLSTATE 42P01)")
        // A raw one in the URL is shown percent-encoded.
        XCTAssertEqual(message("postgres://db.example:5\u{1B}[2J/books"), "cannot use postgres://db.example:5%1B[2J/books: the port '5%1B[2J' is not a number")
    }

    func testAPasswordIsRefusedAndNeverShown() throws {
        for url in ["postgres://ann:hunter2@db.example/books", "postgres://ann:hunter2@db.example/books?password=hunter2",
                    "postgres://ann@db.example/books?password=hunter2", "postgres://ann@db.example/books?pass%77ord=hunter2",
                    "postgres://ann:hun@ter2@db.example/books"] {
            let refused = try XCTUnwrap(message(url), url)
            XCTAssertFalse(refused.contains("hunter2") || refused.contains("hun"), refused)
            XCTAssertTrue(refused.hasPrefix("cannot use postgres://ann@db.example/books"), refused)
            XCTAssertTrue(refused.hasSuffix(": a password on the command line is seen by every user of this computer; give it in PGPASSWORD or ~/.pgpass"), refused)
        }
        // Nor when the rest of the URL is wrong.
        XCTAssertEqual(message("postgres://ann@[::1/books?password=hunter2"),
                       "cannot use postgres://ann@[::1/books: the [ of an IPv6 address is not closed by ]")
        XCTAssertEqual(message("postgres://ann@[::1/books?x=1&password=hunter2"),
                       "cannot use postgres://ann@[::1/books?x=1: the [ of an IPv6 address is not closed by ]")
        XCTAssertEqual(message("postgres://ann:@db.example/books"), nil, "an empty password is none, as for libpq")
    }

    func testQueryParametersAreLibpqs() throws {
        let address = try PostgresAddress(url: "postgresql:///?host=db.example&port=6543&user=ann&dbname=books&sslmode=require", defaultUser: "me")
        XCTAssertEqual(address, PostgresAddress(endpoint: .tcp(host: "db.example", port: 6543), user: "ann", database: "books", sslMode: .require))
        XCTAssertEqual(address.description, "postgres://ann@db.example:6543/books?sslmode=require")
        XCTAssertEqual(try PostgresAddress(url: address.description), address)
        XCTAssertEqual(try PostgresAddress(url: "postgres://h/d?sslmode=disable").sslMode, .disable)
        XCTAssertEqual(try PostgresAddress(url: "postgres://h/d?sslmode=allow").sslMode, .prefer)
        XCTAssertEqual(try PostgresAddress(url: "postgres://h/d?ssl=true").sslMode, .require)
        XCTAssertEqual(message("postgres://h/d?sslmode=verify-full"), """
            cannot use postgres://h/d?sslmode=verify-full: sslmode=verify-full is not supported: the server's certificate is not checked \
            (require encrypts without checking it)
            """)
        XCTAssertEqual(message("postgres://h/d?sslmode=always"), "cannot use postgres://h/d?sslmode=always: sslmode=always is not one of disable, allow, prefer and require")
        XCTAssertEqual(message("postgres://h/d?application_name=x"),
                       "cannot use postgres://h/d?application_name=x: the parameter application_name is not supported (host, port, user, dbname and sslmode are)")
        XCTAssertEqual(message("postgres://h/d?host=a=b"),
                       "cannot use postgres://h/d?host=a=b: the parameter 'host=a=b' has more than one =; write = in a value as %3D")
        XCTAssertEqual(message("mysql://db.example/books"), "cannot use mysql://db.example/books: it is not a postgres:// URL")
        XCTAssertEqual(message("localhost:5432"), "cannot use localhost:5432: it is not a postgres:// URL")
    }

    /// Something that accepts the connection and closes it without a word (not a PostgreSQL
    /// server) is not "a connection lost": nothing was connected. Whether it read our first
    /// message (the connection ends) or left it unread (the connection is reset), the
    /// message is the same.
    func testAServerThatClosesBeforeAnsweringSaysSo() async throws {
        for readsFirst in [true, false] {
            let listener = try ClosingListener(readsFirst: readsFirst)
            defer { listener.stop() }
            let address = PostgresAddress(endpoint: .tcp(host: "127.0.0.1", port: listener.port), user: "ann", database: "books")
            do {
                _ = try await address.connect(environment: ["PGPASSWORD": "x", "PGPASSFILE": "/nonexistent"])
                XCTFail("connected")
            } catch {
                XCTAssertEqual(error, .serverUnreachable(address, reason: "the server closed the connection before it answered"), "reads first: \(readsFirst)")
                XCTAssertEqual(error.localizedDescription, """
                    no PostgreSQL server answers at postgres://ann@127.0.0.1:\(listener.port)/books \
                    (the server closed the connection before it answered)
                    """)
            }
            XCTAssertGreaterThan(listener.accepted, 0, "the listener was reached")
        }
    }
}

/// A TCP socket on 127.0.0.1 that accepts each connection, waits for the client's first
/// bytes, and closes it: having read them (`readsFirst`: the client sees the connection end)
/// or not (the client's system resets the connection).
private final class ClosingListener: @unchecked Sendable {
    let port: Int
    private let descriptor: Int32
    private let lock = NSLock()
    private var count = 0

    /// How many connections it has accepted.
    var accepted: Int { lock.withLock { count } }

    init(readsFirst: Bool) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 && listen(descriptor, 8) == 0
            }
        }
        guard descriptor >= 0, listening else { throw POSIXError(.EADDRNOTAVAIL) }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                lock.withLock { count += 1 }
                var waiting = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                _ = poll(&waiting, 1, 5000)
                if readsFirst {
                    var bytes = [UInt8](repeating: 0, count: 4096)
                    _ = recv(connection, &bytes, bytes.count, Int32(MSG_DONTWAIT))
                }
                close(connection)
            }
        }
        // Not kept: the thread holds the listener until `stop` ends its loop, and a
        // listener holding its thread would keep both for ever.
        thread.start()
    }

    /// Stops accepting (the thread's `accept` returns once the socket is shut down).
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
