import Foundation
import PostgresStorage

/// What `list-viewer` was asked to show.
public enum ViewerSource: Equatable, Sendable {
    /// The bundled sample catalog.
    case sample
    /// A catalog file.
    case catalog(path: String)
    /// A folder, by its file system path (any bytes: a folder's name need not be UTF-8).
    case directory(raw: [UInt8])
    /// A table of an SQLite database (the database's only table when `table` is nil),
    /// in sections by the values of the column `sectionBy` when given.
    case database(path: String, table: String?, sectionBy: String?)
    /// A table of a PostgreSQL database (the current schema's only table when `table` is
    /// nil), in sections by the values of the column `sectionBy` when given.
    case server(address: PostgresAddress, table: String?, sectionBy: String?)
}

/// The command line of `list-viewer`.
public struct ViewerOptions: Equatable, Sendable {
    /// What to show.
    public var source: ViewerSource = .sample
    /// Where to write a screenshot once the content is loaded (then exit).
    public var screenshot: String?
    /// Whether to print the usage and exit.
    public var showsHelp = false
    /// The view to start in.
    public var viewMode: ViewMode = .list

    /// Options as given.
    public init(source: ViewerSource = .sample, screenshot: String? = nil, showsHelp: Bool = false, viewMode: ViewMode = .list) {
        self.source = source
        self.screenshot = screenshot
        self.showsHelp = showsHelp
        self.viewMode = viewMode
    }

    /// The help text.
    public static let usage = """
    Usage: list-viewer [PATH | URL] [--table T [--section-by C]] [--view list|grid|table] [--screenshot FILE.png]

      (no PATH)               show the bundled sample catalog
      PATH to a folder        browse it, grouped by kind; activate a folder to open it
      PATH to a .json file    show a catalog in the sample's format
      PATH to an SQLite file  show a table's rows, following the database as it changes
      postgres://USER@HOST/DB show a PostgreSQL table's rows, following the server live
                              (the password comes from PGPASSWORD or ~/.pgpass)
      --table T               the table to show (needed when the database has several)
      --section-by C          group the rows by the values of column C
      --view list|grid|table  start in this view (the header bar's buttons switch views)
      --screenshot FILE.png   write a picture of the window once loaded, then exit
      --help                  show this text
    """

    /// Why a command line was refused.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        /// The message for the user.
        public let description: String
        /// Whether the command line itself is wrong (the usage is shown, exit status 2),
        /// rather than what it names (exit status 1).
        public var isUsageError = true
    }

    /// Parses the arguments after the program name.
    /// A file starting with the SQLite header is a database, whatever its extension; its
    /// table and columns are checked when it is opened, not here.
    /// - Throws: `Problem` for an unknown option, a missing value, a second path, a path
    ///   that does not exist or names neither a file nor a folder (a FIFO, a device), a
    ///   file whose path is not UTF-8, or `--table` or `--section-by` without a database.
    public static func parse(_ arguments: [String]) throws -> ViewerOptions {
        try parse(raw: arguments.map { Array($0.utf8) })
    }

    /// `parse(_:)` for arguments as the program received them (`CommandLine.unsafeArgv`):
    /// the path keeps its exact bytes, so a folder whose name is not UTF-8 opens.
    public static func parse(raw rawArguments: [[UInt8]]) throws -> ViewerOptions {
        let arguments = rawArguments.map(DirectoryReader.text)
        var options = ViewerOptions()
        var path: String?
        var rawPath: [UInt8] = []
        var table: String?
        var sectionBy: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h":
                options.showsHelp = true
            case "--screenshot":
                guard index + 1 < arguments.count else { throw Problem(description: "--screenshot needs a file name") }
                options.screenshot = arguments[index + 1]
                index += 1
            case "--view":
                guard index + 1 < arguments.count, let mode = ViewMode(rawValue: arguments[index + 1]) else {
                    throw Problem(description: "--view needs list, grid or table")
                }
                options.viewMode = mode
                index += 1
            case "--table", "--section-by":
                guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") else {
                    throw Problem(description: "\(argument) needs a name")
                }
                if argument == "--table" { table = arguments[index + 1] } else { sectionBy = arguments[index + 1] }
                index += 1
            default:
                if argument.hasPrefix("-") { throw Problem(description: "unknown option \(argument)") }
                if path != nil { throw Problem(description: "only one path can be shown, got \(path!) and \(argument)") }
                path = argument
                rawPath = rawArguments[index]
            }
            index += 1
        }
        if let path, !options.showsHelp {
            options.source = try source(at: rawPath, named: path, table: table, sectionBy: sectionBy)
        }
        if table != nil || sectionBy != nil, !options.showsHelp, !options.source.isDatabase {
            let option = table != nil ? "--table" : "--section-by"
            throw Problem(description: path.map { "\(option) applies to a database, and \($0) is not one" }
                                       ?? "\(option) needs an SQLite database's path or a postgres:// URL")
        }
        return options
    }
}

extension ViewerOptions {
    /// What the path `raw` (shown as `path`) is: a folder, a database or a catalog.
    private static func source(at raw: [UInt8], named path: String, table: String?, sectionBy: String?) throws -> ViewerSource {
        if let scheme = path.split(separator: ":", maxSplits: 1).first?.lowercased(), scheme == "postgres" || scheme == "postgresql",
           path.dropFirst(scheme.count).hasPrefix("://") {
            do {
                return .server(address: try PostgresAddress(url: path), table: table, sectionBy: sectionBy)
            } catch {
                throw Problem(description: error.localizedDescription, isUsageError: false)
            }
        }
        let kind: PathKind
        do {
            kind = try PathKind.of(raw: raw)
        } catch let problem as PathProblem {
            throw Problem(description: problem.description, isUsageError: false)
        }
        if kind == .folder { return .directory(raw: raw) }
        // Files are opened by name as text (SQLite's and Foundation's calls take one).
        guard Array(path.utf8) == raw else {
            throw Problem(description: "\(path): a file whose path is not UTF-8 cannot be opened; rename it", isUsageError: false)
        }
        return DatabaseFile.isSQLite(path) ? .database(path: path, table: table, sectionBy: sectionBy) : .catalog(path: path)
    }
}

extension ViewerSource {
    /// The folder at `path`.
    public static func directory(path: String) -> ViewerSource {
        .directory(raw: Array(path.utf8))
    }

    /// Whether this is a database's table (SQLite or PostgreSQL).
    var isDatabase: Bool {
        switch self {
        case .database, .server: true
        default: false
        }
    }
}
