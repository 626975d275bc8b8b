import CGtk
import Foundation
import ListViewManager
import ListViewerKit
import ModelStorage
import PostgresStorage
import PostgresTestSupport
import XCTest

/// The viewer on a real PostgreSQL server of its own (`initdb` in a temporary folder),
/// written to by `psql` meanwhile, and stopped and started again under it.
final class ServerTableTests: XCTestCase {
    private var server: PostgresTestServer!
    private static let environment = ["PGPASSWORD": PostgresTestServer.ownerPassword, "PGPASSFILE": "/nonexistent"]

    override func setUpWithError() throws {
        guard PostgresTestServer.isInstalled else {
            throw PostgresTestServer.ServerError(description: "no PostgreSQL server programs: run meson-helpers/install-dependencies.sh")
        }
        server = try PostgresTestServer()
        // 30 books in three genres, and the trigger that tells the viewer of each commit.
        try server.psql("""
            CREATE TABLE book (id bigint PRIMARY KEY, pages int, title text NOT NULL, genre text);
            INSERT INTO book SELECT i, 100 + i, 'book ' || lpad(i::text, 2, '0'), 'g' || (i % 3) FROM generate_series(1, 30) i;
            """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
    }

    override func tearDown() {
        server?.stop()
    }

    @MainActor
    private static func open(_ server: PostgresTestServer, table: String? = "book", sectionBy: String? = "genre") -> ViewerWindow {
        let viewer = ViewerWindow(application: ViewerTestApplication.shared)
        viewer.present()
        viewer.openServerTable(server.address(), table: table, sectionBy: sectionBy, environment: environment)
        ViewerTestLoop.wait("the first rows") { viewer.isLoaded }
        return viewer
    }

    /// The title and subtitle shown by the row of the book `id` on screen, if it is.
    @MainActor
    private static func shownTexts(_ viewer: ViewerWindow, id: Int64) -> (title: String, subtitle: String)? {
        guard let storage = viewer.serverTable?.storage else { return nil }
        for section in 0..<storage.numberOfSections() {
            for item in 0..<storage.numberOfItems(inSection: section) where storage.key(at: IndexPath(item: item, section: section)) == id {
                guard let row = viewer.manager.row(at: IndexPath(item: item, section: section)) as? DatabaseRecordRow,
                      gtk_widget_get_mapped(row.rootWidget) != 0 else { return nil }
                return (row.title.text, row.subtitle.text)
            }
        }
        return nil
    }

    func testATableIsShownInSectionsAndFollowsCommitsFromAnotherProgram() throws {
        let server = try XCTUnwrap(server)
        try MainActor.assumeIsolated {
            let viewer = Self.open(server)
            XCTAssertEqual(viewer.titleText, "postgres — book")
            XCTAssertEqual(viewer.countText, "30 rows")
            XCTAssertEqual(viewer.manager.storage.headerModel(forSection: 0) as? String, "genre: g0")
            ViewerTestLoop.wait("the first rows' records") { viewer.recordTitles.first?.prefix(3) == ["book 03", "book 06", "book 09"] }
            // The title is the first text column; the summary leaves out the key and the genre
            // (the header says it).
            ViewerTestLoop.wait("book 03 on screen") { Self.shownTexts(viewer, id: 3) != nil }
            XCTAssertEqual(Self.shownTexts(viewer, id: 3)?.title, "book 03")
            XCTAssertEqual(Self.shownTexts(viewer, id: 3)?.subtitle, "pages: 103")
            ViewerTestLoop.wait("the trigger found") { viewer.serverTable?.storage.state == .live }

            // Another program commits: a new book at the top of g0, and book 03 renamed.
            try server.psql("BEGIN; INSERT INTO book VALUES (31, 131, 'a new book', 'g0'); UPDATE book SET title = 'book 03, Ann''s 100% copy' WHERE id = 3; COMMIT;")
            ViewerTestLoop.wait("the commit, shown") {
                viewer.countText == "31 rows" && Self.shownTexts(viewer, id: 3)?.title == "book 03, Ann's 100% copy" && Self.shownTexts(viewer, id: 31) != nil
            }
            XCTAssertNil(viewer.problem)

            // The search is SQL: bound values (a quote and a % are text), any column, any case.
            viewer.searchEntry.text = "ANN'S 100%"
            ViewerTestLoop.wait("the search") { viewer.countText == "1 matching row" }
            viewer.searchEntry.text = "%"
            ViewerTestLoop.wait("the search for a %") { viewer.countText == "1 matching row" }
            ViewerTestLoop.close(viewer)
            // The window's connections go with it: none is left but psql's own.
            ViewerTestLoop.wait("the connections closed") {
                (try? server.psql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")) == "0"
            }
        }
    }

    func testTheBannerSaysReconnectingWhileTheServerIsDownAndTheRowsStay() throws {
        let server = try XCTUnwrap(server)
        try MainActor.assumeIsolated {
            let viewer = Self.open(server)
            ViewerTestLoop.wait("the trigger found") { viewer.serverTable?.storage.state == .live }
            try server.halt()
            ViewerTestLoop.wait("the banner") { viewer.problem?.hasPrefix("Reconnecting…") == true }
            XCTAssertEqual(viewer.countText, "30 rows", "the rows stay")
            ViewerTestLoop.wait("the rows still shown") { Self.shownTexts(viewer, id: 3)?.title == "book 03" }

            try server.start()
            try server.psql("DELETE FROM book WHERE id = 6")
            ViewerTestLoop.wait("the banner gone and the commit shown") { viewer.problem == nil && viewer.countText == "29 rows" }
            XCTAssertEqual(viewer.recordTitles.first?.prefix(2), ["book 03", "book 09"], "caught up: book 06 went")
            ViewerTestLoop.close(viewer)
        }
    }

    func testTheTitlesTooltipSaysHowTheRowsFollowTheServer() throws {
        let server = try XCTUnwrap(server)
        try server.psql("CREATE TABLE shelf (id bigint PRIMARY KEY, name text NOT NULL); INSERT INTO shelf VALUES (1, 'top')")
        try MainActor.assumeIsolated {
            let viewer = Self.open(server)
            ViewerTestLoop.wait("told of each commit") { viewer.titleTooltip?.hasSuffix("\neach commit is told at once (LISTEN)") == true }
            XCTAssertEqual(viewer.titleTooltip?.hasPrefix(server.address().description), true)
            ViewerTestLoop.close(viewer)

            // A table without the trigger is polled; installing it is seen at the next poll.
            let shelves = Self.open(server, table: "shelf", sectionBy: nil)
            ViewerTestLoop.wait("polled") { shelves.titleTooltip?.hasSuffix("\ntable shelf has no change trigger: changes are looked for every 2 s") == true }
            try server.psql(PostgresChangeLog.installSQL(table: "shelf", key: "id").joined(separator: ";\n"))
            ViewerTestLoop.wait("told of each commit") { shelves.titleTooltip?.hasSuffix("\neach commit is told at once (LISTEN)") == true }
            ViewerTestLoop.close(shelves)
        }
    }

    func testTheSearchAndTheRowsFollowAColumnRenamedAndATableMadeAgain() throws {
        let server = try XCTUnwrap(server)
        try MainActor.assumeIsolated {
            let viewer = Self.open(server)
            ViewerTestLoop.wait("the trigger found") { viewer.serverTable?.storage.state == .live }
            try server.psql("ALTER TABLE book RENAME COLUMN title TO name")
            viewer.searchEntry.text = "book 03"
            ViewerTestLoop.wait("the search, with no message") { viewer.countText == "1 matching row" && viewer.problem == nil }
            ViewerTestLoop.wait("book 03 on screen") { Self.shownTexts(viewer, id: 3)?.title == "book 03" }
            viewer.setViewMode(.table)
            XCTAssertEqual(viewer.tableManager.columns.map(\.title), ["#", "id", "pages", "name", "genre"])

            // Made again with other columns (and the trigger): the search in force looks in them.
            try server.psql("""
                DROP TABLE book; CREATE TABLE book (id bigint PRIMARY KEY, label text, genre text);
                INSERT INTO book VALUES (1, 'an atlas', 'g0'), (2, 'book 03 again', 'g1');
                """ + PostgresChangeLog.installSQL(table: "book", key: "id").joined(separator: ";\n"))
            viewer.searchEntry.text = "again"
            ViewerTestLoop.wait("the search in the new table") { viewer.countText == "1 matching row" && viewer.recordTitles == [["book 03 again"]] }
            XCTAssertNil(viewer.problem)
            ViewerTestLoop.close(viewer)
        }
    }

    func testProblemsAreMessagesInTheBanner() throws {
        let server = try XCTUnwrap(server)
        try MainActor.assumeIsolated {
            // A table without a key, and one whose integer id may repeat.
            try server.psql("CREATE TABLE note (body text); CREATE TABLE tally (id int, body text)")
            let unknown = Self.open(server, table: "nope")
            XCTAssertEqual(unknown.problem, "database postgres has no table nope; tables: book, note, tally")
            ViewerTestLoop.close(unknown)
            let several = Self.open(server, table: nil)
            XCTAssertEqual(several.problem, "database postgres has several tables, and none was named; tables: book, note, tally")
            ViewerTestLoop.close(several)
            let keyless = Self.open(server, table: "note", sectionBy: nil)
            XCTAssertEqual(keyless.problem, "table note has no integer key (a primary key, or a unique column never NULL), which the viewer follows its rows by")
            ViewerTestLoop.close(keyless)
            let repeating = Self.open(server, table: "tally", sectionBy: nil)
            XCTAssertEqual(repeating.problem, "table tally has no integer key (a primary key, or a unique column never NULL), which the viewer follows its rows by")
            ViewerTestLoop.close(repeating)
            let column = Self.open(server, sectionBy: "colour")
            XCTAssertEqual(column.problem, "table book has no column colour; columns: id, pages, title, genre")
            ViewerTestLoop.close(column)
        }
    }

    func testTheViewerBinaryShowsAServerTableAndExitsWithAStatusForAWrongOne() throws {
        let url = server.address().description
        let shot = server.folder.appendingPathComponent("shot.png").path
        var result = try ViewerProcess.run([url, "--table", "book", "--section-by", "genre", "--screenshot", shot], environment: Self.environment)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(FileManager.default.fileExists(atPath: shot))
        result = try ViewerProcess.run([url, "--table", "nope"], environment: Self.environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("list-viewer: database postgres has no table nope; tables: book"), result.errors)
    }

    /// `--install-change-log` on a table without the trigger installs the log and the
    /// trigger: the next commit is logged.
    func testTheViewerBinaryInstallsTheChangeLogOnAsking() throws {
        try server.psql("CREATE TABLE shelf (id bigint PRIMARY KEY, name text NOT NULL); INSERT INTO shelf VALUES (1, 'top')")
        defer { _ = try? server.psql("DROP TABLE shelf") }
        let shot = server.folder.appendingPathComponent("shelf.png").path
        let result = try ViewerProcess.run([server.address().description, "--table", "shelf", "--install-change-log", "--screenshot", shot],
                                           environment: Self.environment)
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'shelf'::regclass AND NOT tgisinternal"), "2",
                       "a trigger for rows and one for TRUNCATE")
    }
}

/// The command line's PostgreSQL addresses (no server needed).
final class ServerOptionsTests: XCTestCase {
    func testTheCommandLineTakesAPostgresURLAndRefusesAPasswordInIt() throws {
        let options = try ViewerOptions.parse(["postgres://ann@db.example:5433/library", "--table", "book", "--section-by", "genre"])
        XCTAssertEqual(options.source, .server(address: PostgresAddress(endpoint: .tcp(host: "db.example", port: 5433), user: "ann", database: "library"),
                                               table: "book", sectionBy: "genre"))
        XCTAssertThrowsError(try ViewerOptions.parse(["postgresql://ann:secret@db.example/library"])) { error in
            let problem = error as? ViewerOptions.Problem
            XCTAssertEqual(problem?.isUsageError, false)
            XCTAssertFalse(problem?.description.contains("secret") ?? true, "the password is not repeated")
        }
    }
}
