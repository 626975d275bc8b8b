import Foundation
import ModelStorage
import PostgresStorage
import PostgresTestSupport
import TestSupport

/// A row of the PostgreSQL scenarios' table.
struct ServerBook: PostgresRecordDecodable {
    var id: Int64
    var title: String
    var genre: String

    init(key: Int64, columns: [String], values: [String?]) {
        id = key
        title = values.first.flatMap { $0 } ?? ""
        genre = values.count > 1 ? values[1] ?? "" : ""
    }
}

/// `PostgresQueryStorage` on tables of N rows on a private server the scenario starts
/// (`initdb` in a temporary folder, the tests' `PostgresTestServer`), beside the SQLite
/// paged figures (`PagedScenarios`, the same books): opening to a first screen of records,
/// with and without 100 sections, and a row inserted by `psql` arriving through the
/// change trigger; then the release `list-viewer` opening the same table to a screenshot,
/// against a table of 2 rows (under a display only). The commit-to-screen latency is
/// `--gtk-one postgres_latency N` (`PostgresLatencyScenario`).
/// `--scenario postgres --sizes 1000000,10000000`.
enum PostgresScenarios {
    static func run(sizes: [Int], only prefix: String) -> [Measurement] {
        guard !prefix.isEmpty, "postgres".hasPrefix(prefix) || prefix.hasPrefix("postgres") else { return [] }
        let server: PostgresTestServer
        do {
            server = try PostgresTestServer()
        } catch {
            writeToStandardError("list-benchmarks: no PostgreSQL server for the postgres scenarios: \(error)")
            return []
        }
        defer { server.stop() }
        setenv("PGPASSWORD", PostgresTestServer.ownerPassword, 1)
        var results: [Measurement] = []
        for size in sizes {
            do {
                try makeTable(on: server, rows: size)
                // `--scenario postgres_open`: the two openings alone; `postgres_viewer`: the viewer's.
                func wanted(_ name: String) -> Bool { name.hasPrefix(prefix) || prefix.hasPrefix(name) }
                if wanted("postgres_open") {
                    results.append(try open(server, rows: size, name: "postgres_open", query: PostgresListQuery(table: "book", columns: ["title", "genre"])))
                    results.append(try open(server, rows: size, name: "postgres_open_sections",
                                            query: PostgresListQuery(table: "book", columns: ["title", "genre"], sectionBy: "genre")))
                }
                if wanted("postgres_viewer"), let viewer = viewerOpen(server, rows: size) {
                    results += viewer
                }
            } catch {
                writeToStandardError("list-benchmarks: the postgres scenarios at \(size) rows failed: \(error)")
            }
        }
        return results
    }

    /// A table `book` of `rows` rows (id, title, author, genre of 100, year, pages: the
    /// SQLite scenarios' books), indexed by genre, with the change trigger, made by the
    /// server itself; and a table `two` of 2 such rows.
    static func makeTable(on server: PostgresTestServer, rows: Int) throws {
        let columns = "id bigint PRIMARY KEY, title text NOT NULL, author text NOT NULL, genre text NOT NULL, year int, pages int"
        func books(_ count: Int) -> String {
            """
            SELECT x, 'Title ' || (x * 7919 % \(count)), 'Author ' || (x % 5000), 'Genre ' || lpad((x % 100)::text, 2, '0'),
                1900 + x % 120, 100 + x % 900 FROM generate_series(1::bigint, \(count)) x
            """
        }
        try server.psql("""
            SET client_min_messages = warning; DROP TABLE IF EXISTS book; DROP TABLE IF EXISTS two;
            CREATE TABLE book (\(columns)); INSERT INTO book \(books(rows));
            CREATE INDEX book_genre ON book (genre, id);
            CREATE TABLE two (\(columns)); INSERT INTO two \(books(2));
            """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
        // On its own: VACUUM runs outside a transaction (psql runs one command's statements in one).
        try server.psql("VACUUM ANALYZE book")
    }

    /// Opens a storage of `query` and waits for its first screen (30 rows) of records;
    /// then inserts a row through `psql` and waits for the update.
    private static func open(_ server: PostgresTestServer, rows: Int, name: String, query: PostgresListQuery) throws -> Measurement {
        try PagedScenarios.measureOpening(name, rows: rows) {
            PostgresQueryStorage<ServerBook>(address: server.address(), query: query)
        } ready: { storage in
            storage.state == .live  // told by the trigger
        } write: { storage in
            try server.psql("INSERT INTO book VALUES (0, 'Title 0', 'Author 0', 'Genre 00', 2000, 100)")
            return {
                storage.stopObserving()
                try server.psql("DELETE FROM book WHERE id = 0")
            }
        }
    }

    /// The release `list-viewer` showing the table, with and without sections, from
    /// process start to picture written, against the table of 2 rows: time and peak
    /// memory, each the best of three runs. Needs a display.
    private static func viewerOpen(_ server: PostgresTestServer, rows: Int) -> [Measurement]? {
        let url = server.address().description
        return PagedScenarios.viewerFigures(rows: rows, folder: server.folder, small: [url, "--table", "two"],
                                            plain: [url, "--table", "book"], sectioned: [url, "--table", "book", "--section-by", "genre"],
                                            names: ("postgres_viewer_open", "postgres_viewer_open_sections"))
    }
}
