import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a directory could not be listed.
public struct DirectoryError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "Cannot open \(path): \(reason)" }
}

/// Lists directories off the main thread, in batches.
public enum DirectoryReader {
    /// Opens `path` for listing, or says why it cannot.
    public static func check(_ path: String) -> DirectoryError? {
        var info = stat()
        guard stat(path, &info) == 0 else { return DirectoryError(path: path, reason: errnoDescription()) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return DirectoryError(path: path, reason: "not a folder") }
        guard let directory = opendir(path) else { return DirectoryError(path: path, reason: errnoDescription()) }
        closedir(directory)
        return nil
    }

    /// Reads the entries of `path` synchronously, in batches of `batchSize` handed to
    /// `batch`. Entries whose details cannot be read are `.unreadable`, with the reason;
    /// symbolic links are followed for their kind but never walked, so loops are harmless.
    /// - Throws: `DirectoryError` when the directory itself cannot be listed.
    public static func read(_ path: String, batchSize: Int = 2000, batch: ([DirectoryEntry]) -> Void) throws {
        guard let directory = opendir(path) else { throw DirectoryError(path: path, reason: errnoDescription()) }
        defer { closedir(directory) }
        var entries: [DirectoryEntry] = []
        entries.reserveCapacity(batchSize)
        while let record = readdir(directory) {
            let name = withUnsafeBytes(of: record.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            entries.append(entry(named: name, in: path))
            if entries.count == batchSize {
                batch(entries)
                entries.removeAll(keepingCapacity: true)
            }
        }
        if !entries.isEmpty { batch(entries) }
    }

    /// The entry `name` of the directory `parent`.
    static func entry(named name: String, in parent: String) -> DirectoryEntry {
        let path = parent.hasSuffix("/") ? parent + name : parent + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return DirectoryEntry(name: name, path: path, kind: .unreadable, problem: errnoDescription())
        }
        var linkTarget: String?
        if (info.st_mode & S_IFMT) == S_IFLNK {
            linkTarget = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            var target = stat()
            guard stat(path, &target) == 0 else {
                let reason = errno == ELOOP ? "symbolic link loop" : "broken symbolic link (\(errnoDescription()))"
                return DirectoryEntry(name: name, path: path, kind: .unreadable, linkTarget: linkTarget, problem: reason)
            }
            info = target
        }
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            let readable = access(path, R_OK | X_OK) == 0
            return DirectoryEntry(name: name, path: path, kind: readable ? .folder : .unreadable, modified: modified,
                                  linkTarget: linkTarget, problem: readable ? nil : "folder not readable")
        case S_IFREG:
            return DirectoryEntry(name: name, path: path, kind: EntryKind.ofFile(named: name), size: Int64(info.st_size),
                                  modified: modified, linkTarget: linkTarget)
        default:
            return DirectoryEntry(name: name, path: path, kind: .other, modified: modified, linkTarget: linkTarget)
        }
    }

    private static func errnoDescription() -> String {
        String(cString: strerror(errno))
    }
}
