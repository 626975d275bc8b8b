import Foundation
import GRDB

/// An SQLite database file, recognised by its header and opened read-only.
public enum DatabaseFile {
    /// The first 16 bytes of every SQLite 3 database file.
    static let header = Array("SQLite format 3\0".utf8)

    /// Whether the file at `path` starts with the SQLite header, whatever its extension.
    public static func isSQLite(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: header.count)) ?? Data()
        return Array(start) == header
    }

    /// Opens the database at `path` read-only (the viewer never writes, nor changes the
    /// journal mode) and reads the schema of the table to show.
    /// - Throws: `DatabaseProblem` when the file is not a database, cannot be read, or
    ///   has no such table or column (see `TableQuery.inspect`).
    public static func open(_ path: String, table: String?, sectionBy: String?) throws -> (DatabaseQueue, TableQuery) {
        let fileName = (path as NSString).lastPathComponent
        guard isSQLite(path) else {
            throw DatabaseProblem(FileManager.default.isReadableFile(atPath: path) ? "\(fileName) is not an SQLite database"
                                                                                   : "Cannot read \(path)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "list-viewer"
        // Other programs write to the file: wait for their commits rather than fail.
        configuration.busyMode = .timeout(2)
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            let query = try database.read { db in
                try TableQuery.inspect(db, fileName: fileName, table: table, sectionBy: sectionBy)
            }
            return (database, query)
        } catch let problem as DatabaseProblem {
            throw problem
        } catch let error as DatabaseError {
            throw DatabaseProblem("Cannot open \(fileName): \(error.message ?? "\(error.resultCode)")")
        }
    }
}
