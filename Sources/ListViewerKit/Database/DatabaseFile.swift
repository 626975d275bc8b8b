import Foundation
import GRDB
import SQLiteStorage
#if canImport(Glibc)
import Glibc
#endif

/// An SQLite database file, recognised by its header and opened read-only (written only when
/// asked to install a table's change log).
public enum DatabaseFile {
    /// The first 16 bytes of every SQLite 3 database file.
    static let header = Array("SQLite format 3\0".utf8)

    /// Whether the file at `path` is a regular file starting with the SQLite header,
    /// whatever its extension. Only a regular file is opened (opening a FIFO would wait
    /// for a writer, or release one; opening a device can act on it), without blocking,
    /// and only if it is still the file looked at.
    public static func isSQLite(_ path: String) -> Bool {
        var looked = stat()
        guard stat(path, &looked) == 0, (looked.st_mode & S_IFMT) == S_IFREG else { return false }
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_dev == looked.st_dev, info.st_ino == looked.st_ino else { return false }
        var start = [UInt8](repeating: 0, count: header.count)
        return read(descriptor, &start, start.count) == header.count && start == header
    }

    /// The viewer's connections to a file: read-only unless told, and waiting for other
    /// programs' commits rather than failing.
    private static func configuration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.label = "list-viewer"
        configuration.busyMode = .timeout(2)
        return configuration
    }

    /// Throws unless the file at `path` (named `fileName`) is an SQLite database: a
    /// `DatabaseProblem` saying it is not one, or cannot be read.
    private static func checkIsSQLite(_ path: String, named fileName: String) throws {
        guard !isSQLite(path) else { return }
        throw DatabaseProblem(FileManager.default.isReadableFile(atPath: path) ? tr("%@ is not an SQLite database", fileName)
                                                                               : tr("Cannot read %@", path))
    }

    /// Installs the change log (`SQLiteChangeLog`: triggers, and a table beside `table`) on
    /// the table `table` of the database at `path` (its only table when nil), in one
    /// transaction, so that the viewer, and any program following the table with
    /// `PagedQueryStorage`, reads each commit from it instead of reading every rowid. Done
    /// again, it changes nothing (a column added since is logged from then on).
    /// - Throws: `DatabaseProblem` when the file is not a database, has no such table,
    ///   cannot be written, or its table has no rowid.
    public static func installChangeLog(_ path: String, table: String?) throws {
        let fileName = (path as NSString).lastPathComponent
        try checkIsSQLite(path, named: fileName)
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration(readonly: false))
            defer { try? database.close() }
            try database.write { db in
                let query = try TableQuery.inspect(db, fileName: fileName, table: table, sectionBy: nil)
                guard !query.table.hasPrefix(SQLiteChangeLog.logTable(for: "")) else {
                    throw DatabaseProblem(tr("table %@ is a change log: install the log on the table it logs", query.table))
                }
                try SQLiteChangeLog.install(on: query.table, rowID: query.rowIDName, in: db)
            }
        } catch let problem as DatabaseProblem {
            throw problem
        } catch let error as DatabaseError {
            throw DatabaseProblem(tr("Cannot install the change log in %@: %@", fileName, error.message ?? "\(error.resultCode)"))
        } catch {
            throw DatabaseProblem(tr("Cannot install the change log in %@: %@", fileName, error.localizedDescription))
        }
    }

    /// Opens the database at `path` read-only (the viewer never writes, nor changes the
    /// journal mode) and reads the schema of the table to show.
    /// - Throws: `DatabaseProblem` when the file is not a database, cannot be read, or
    ///   has no such table or column (see `TableQuery.inspect`).
    public static func open(_ path: String, table: String?, sectionBy: String?) throws -> (DatabaseQueue, TableQuery) {
        let fileName = (path as NSString).lastPathComponent
        try checkIsSQLite(path, named: fileName)
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration(readonly: true))
            let query = try database.read { db in
                try TableQuery.inspect(db, fileName: fileName, table: table, sectionBy: sectionBy)
            }
            return (database, query)
        } catch let problem as DatabaseProblem {
            throw problem
        } catch let error as DatabaseError {
            throw DatabaseProblem(tr("Cannot open %@: %@", fileName, error.message ?? "\(error.resultCode)"))
        }
    }
}
