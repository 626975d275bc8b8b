import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a path given to the viewer names, found with `stat(2)` before anything is
/// opened: opening a FIFO to look inside would wait for a writer, and a device is not
/// something to show.
public enum PathKind: Equatable, Sendable {
    /// A folder (or a symbolic link to one).
    case folder
    /// A regular file (or a symbolic link to one): a catalog or a database.
    case file

    /// The kind of what the file system path `raw` (any bytes) names, following symbolic
    /// links.
    /// - Throws: `PathProblem` for a path that does not exist, a symbolic link loop, a
    ///   FIFO, a socket or a device; its description is the message for the user.
    public static func of(raw: [UInt8]) throws -> PathKind {
        let path = DirectoryReader.text(raw)
        var info = stat()
        // errno read where stat set it, before anything else can change it.
        let failure = DirectoryReader.withCString(raw) { stat($0, &info) == 0 ? 0 : errno }
        guard failure == 0 else {
            switch failure {
            case ENOENT, ENOTDIR: throw PathProblem(tr("%@: no such file or folder", path))
            case ELOOP: throw PathProblem(tr("%@: symbolic link loop", path))
            default: throw PathProblem("\(path): \(String(cString: strerror(failure)))")
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        case S_IFIFO: throw PathProblem(tr("%@ is a FIFO, not a file or folder", path))
        case S_IFCHR: throw PathProblem(tr("%@ is a character device, not a file or folder", path))
        case S_IFBLK: throw PathProblem(tr("%@ is a block device, not a file or folder", path))
        case S_IFSOCK: throw PathProblem(tr("%@ is a socket, not a file or folder", path))
        default: throw PathProblem(tr("%@ is not a file or folder", path))
        }
    }
}

/// Why a path cannot be shown; the description is the message for the user.
public struct PathProblem: Error, Equatable, CustomStringConvertible {
    /// The message for the user.
    public let description: String

    /// A problem described by `message`.
    public init(_ message: String) {
        description = message
    }
}
