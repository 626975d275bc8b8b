import Foundation
import ListViewManager
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
    /// The view to start in.
    public var viewMode: ViewMode = .list
    /// The direction to lay the window out in, when not the language's.
    public var direction: TextDirection?
    /// Whether to install the table's change log before showing it (`--install-change-log`).
    public var installChangeLog = false
    /// What the command line asked to be printed instead of opening a window (the help,
    /// `--version`, a shell's completion script): printed, with exit status 0.
    public var printedText: String?

    /// Options as given.
    public init(source: ViewerSource = .sample, screenshot: String? = nil, viewMode: ViewMode = .list, printedText: String? = nil) {
        self.source = source
        self.screenshot = screenshot
        self.viewMode = viewMode
        self.printedText = printedText
    }

    /// The help text (`--help`).
    public static var usage: String { ViewerCommandLine.helpMessage(columns: 100) }

    /// The command line's short form, shown after a usage error.
    static var shortUsage: String {
        tr("Usage: %@", ViewerCommandLine.usageString()) + "\n  " + tr("See 'list-viewer --help' for more information.")
    }

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
    /// - Throws: `Problem` for an unknown option, a missing or wrong value, a second path,
    ///   a path that does not exist or names neither a file nor a folder (a FIFO, a device),
    ///   a file whose path is not UTF-8, or `--table` or `--section-by` without a database.
    public static func parse(_ arguments: [String]) throws -> ViewerOptions {
        try parse(raw: arguments.map { Array($0.utf8) })
    }

    /// `parse(_:)` for arguments as the program received them (`CommandLine.unsafeArgv`):
    /// the path keeps its exact bytes, so a folder whose name is not UTF-8 opens.
    public static func parse(raw rawArguments: [[UInt8]]) throws -> ViewerOptions {
        let arguments = rawArguments.map(DirectoryReader.text)
        let line: ViewerCommandLine
        do {
            line = try ViewerCommandLine.parse(arguments)
        } catch {
            // Help, the version and completion scripts come as errors with status 0.
            guard ViewerCommandLine.exitCode(for: error).isSuccess else {
                let message = ViewerCommandLine.message(for: error)
                throw Problem(description: message.prefix(1).lowercased() + message.dropFirst())
            }
            return ViewerOptions(printedText: ViewerCommandLine.fullMessage(for: error, columns: 100))
        }
        var options = ViewerOptions(screenshot: line.screenshot, viewMode: line.view)
        options.direction = line.direction
        options.installChangeLog = line.installChangeLog
        if let path = line.path {
            // The argument read as the path, with its own bytes (one of the same text, as an
            // option's value, differs from it only where both are not UTF-8).
            let raw = zip(rawArguments, arguments).first { $0.1 == path }?.0 ?? Array(path.utf8)
            options.source = try source(at: raw, named: path,
                                        table: line.table, sectionBy: line.sectionBy)
        }
        if line.table != nil || line.sectionBy != nil || line.installChangeLog, !options.source.isDatabase {
            let option = line.table != nil ? "--table" : line.sectionBy != nil ? "--section-by" : "--install-change-log"
            throw Problem(description: line.path.map { tr("%@ applies to a database, and %@ is not one", option, $0) }
                                       ?? tr("%@ needs an SQLite database's path or a postgres:// URL", option))
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
            throw Problem(description: tr("%@: a file whose path is not UTF-8 cannot be opened; rename it", path), isUsageError: false)
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
