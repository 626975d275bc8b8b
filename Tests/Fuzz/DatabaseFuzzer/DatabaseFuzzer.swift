import Foundation
import GRDB
import ModelStorage
import ListViewerKit
import SQLiteStorage
import TestSupport

/// The SQLite fuzz target: the viewer's database path (the header check, opening read-only,
/// reading the schema, the table's rows in their sections, a search, each row's summary)
/// on a file made from the input. An even first byte makes a valid database from the rest:
/// one or two tables whose names, column names and values are drawn from the input (quotes,
/// NULs, non-UTF-8 bytes, numbers, NULLs, blobs up to a megabyte). An odd one writes the
/// SQLite header followed by the input's bytes, a file SQLite reads as corrupt or nearly so.
/// Opening either throws a `DatabaseProblem` with a message or shows the rows; it never
/// traps.
enum DatabaseFuzzer {
    static let folder: String = {
        let folder = NSTemporaryDirectory() + "list-viewer-database-fuzzer-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()

    static func run(_ input: [UInt8]) {
        let bytes = FuzzBytes(input)
        let mode = bytes.byte()
        let path = folder + "/fuzz.sqlite"
        try? FileManager.default.removeItem(atPath: path)
        let names: [String]
        if mode & 1 == 0 {
            names = makeDatabase(at: path, from: bytes)
        } else {
            _ = FileManager.default.createFile(atPath: path, contents: Data("SQLite format 3\0".utf8 + bytes.bytes(1 << 20)))
            names = [text(bytes)]
        }
        // The table and the section column: the database's own names, or drawn ones.
        let table = mode & 2 == 0 ? nil : names.first
        let sectionBy = mode & 4 == 0 ? nil : names.dropFirst().first
        MainActor.assumeIsolated { show(path, table: table, sectionBy: sectionBy, search: text(bytes)) }
    }

    /// Opens the table as the viewer does and reads every row of every section, then
    /// again with the search: every read ends in rows or a message, within seconds.
    @MainActor
    private static func show(_ path: String, table: String?, sectionBy: String?, search: String) {
        do {
            let live = try LiveTable(path: path, table: table, sectionBy: sectionBy)
            defer { live.stopObserving() }
            var failed = false
            live.onError = { message in
                guard !message.isEmpty else { fatalError("an empty message") }
                failed = true
            }
            readAll(live) { failed }
            live.setSearch(search)
            readAll(live) { failed }
        } catch let problem as DatabaseProblem {
            guard !problem.description.isEmpty else { fatalError("an empty message") }
        } catch {
            fatalError("not a DatabaseProblem: \(error)")
        }
    }

    /// Waits for the storage's next read of the rows' places, then asks for every row and
    /// waits for their records, unless a read fails.
    @MainActor
    private static func readAll(_ live: LiveTable, failed: () -> Bool) {
        let storage = live.storage
        let loads = storage.loadCount
        wait { storage.loadCount > loads || failed() }
        guard !failed() else { return }
        var indexPaths: [IndexPath] = []
        for section in 0..<storage.numberOfSections() {
            _ = storage.headerModel(forSection: section)
            for item in 0..<storage.numberOfItems(inSection: section) {
                let indexPath = IndexPath(item: item, section: section)
                guard storage.item(at: indexPath) is PagedRow<DatabaseRecord> else {
                    fatalError("row \(item) of section \(section) is not a paged record")
                }
                indexPaths.append(indexPath)
            }
        }
        wait { indexPaths.allSatisfy { storage.record(at: $0) != nil } || failed() }
        for indexPath in indexPaths { _ = storage.record(at: indexPath)?.summary() }
    }

    /// Runs the main run loop (where the storage applies what it reads) until `condition`.
    @MainActor
    private static func wait(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { fatalError("the storage neither read the table nor failed in 10 s") }
            RunLoop.main.run(until: Date().addingTimeInterval(0.001))
        }
    }

    /// A database of one or two tables drawn from `bytes`; returns the first table's name
    /// and its column names.
    private static func makeDatabase(at path: String, from bytes: FuzzBytes) -> [String] {
        var names: [String] = []
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                for _ in 0..<(1 + Int(bytes.byte() % 2)) {
                    let table = text(bytes)
                    let columns = (0..<(1 + Int(bytes.byte() % 6))).map { _ in text(bytes) }
                    if names.isEmpty { names = [table] + columns }
                    let definition = columns.map { $0.quotedDatabaseIdentifier + " " + ["", "TEXT", "INTEGER", "REAL", "BLOB"][Int(bytes.byte() % 5)] }
                    try db.execute(sql: "CREATE TABLE \(table.quotedDatabaseIdentifier) (\(definition.joined(separator: ", ")))")
                    let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                    let insert = "INSERT INTO \(table.quotedDatabaseIdentifier) VALUES (\(placeholders))"
                    for _ in 0..<Int(bytes.byte() % 40) {
                        try db.execute(sql: insert, arguments: StatementArguments(columns.map { _ in value(bytes) }))
                    }
                }
            }
            try queue.close()
        } catch {
            // Names SQLite refuses (two columns of one name, say): the file is whatever was
            // written, which the viewer must handle too.
        }
        return names
    }

    /// Up to 24 bytes of the input as text, invalid UTF-8 repaired as SQLite's callers see it.
    private static func text(_ bytes: FuzzBytes) -> String {
        String(decoding: bytes.bytes(Int(bytes.byte() % 25)), as: UTF8.self)
    }

    private static func value(_ bytes: FuzzBytes) -> DatabaseValue {
        switch bytes.byte() % 6 {
        case 0: return .null
        case 1: return Int64(bitPattern: bytes.next()).databaseValue
        case 2: return Double(bitPattern: bytes.next()).databaseValue
        case 3: return Data(bytes.bytes(Int(bytes.byte()))).databaseValue
        case 4: return Data(repeating: bytes.byte(), count: Int(bytes.byte()) << 12).databaseValue
        default: return text(bytes).databaseValue
        }
    }
}
