import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a directory could not be listed.
public struct DirectoryError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// What could not be done: open the folder, or read it to its end.
    public var action = Action.open

    /// What a reader does with a folder.
    public enum Action: Sendable, Equatable {
        /// Open the folder.
        case open
        /// Read its entries to the end.
        case read
    }

    public var description: String {
        switch action {
        case .open: tr("Cannot open %@: %@", path, reason)
        case .read: tr("Cannot read %@: %@", path, reason)
        }
    }

    /// The folder at `path` went while its entries were read.
    static func removedWhileRead(_ path: String) -> DirectoryError {
        DirectoryError(path: path, reason: tr("the folder was removed while it was read"), action: .read)
    }
}

/// Lists directories off the main thread, in batches.
public enum DirectoryReader {
    /// Opens `path` for listing, or says why it cannot.
    public static func check(_ path: String) -> DirectoryError? {
        check(raw: Array(path.utf8))
    }

    /// Opens the folder at the file system path `raw` (any bytes), or says why it cannot.
    public static func check(raw: [UInt8]) -> DirectoryError? {
        let path = text(raw)
        return withCString(raw) { cPath in
            var info = stat()
            guard stat(cPath, &info) == 0 else { return DirectoryError(path: path, reason: errnoDescription()) }
            guard (info.st_mode & S_IFMT) == S_IFDIR else { return DirectoryError(path: path, reason: tr("not a folder")) }
            guard let directory = opendir(cPath) else { return DirectoryError(path: path, reason: errnoDescription()) }
            closedir(directory)
            return nil
        }
    }

    /// Reads the entries of `path` synchronously, in batches of `batchSize` handed to
    /// `batch`, until done or `isCancelled` says so (it is asked before each batch).
    /// Entries whose details cannot be read are `.unreadable`, with the reason; symbolic
    /// links are followed for their kind but never walked, so loops are harmless. Entries
    /// removed while the folder is read are left out.
    /// - Throws: `DirectoryError` when the directory cannot be listed, or reading it fails
    ///   (`removedWhileRead` when the folder itself went meanwhile: the batches handed
    ///   over are the entries read until then).
    public static func read(_ path: String, batchSize: Int = 2000, isCancelled: () -> Bool = { false }, batch: ([DirectoryEntry]) -> Void) throws {
        try read(raw: Array(path.utf8), batchSize: batchSize, isCancelled: isCancelled, batch: batch)
    }

    /// `read(_:batchSize:isCancelled:batch:)` for the file system path `raw` (any bytes).
    public static func read(raw parent: [UInt8], batchSize: Int = 2000, isCancelled: () -> Bool = { false }, batch: ([DirectoryEntry]) -> Void) throws {
        guard let directory = withCString(parent, { opendir($0) }) else {
            throw DirectoryError(path: text(parent), reason: errnoDescription())
        }
        defer { closedir(directory) }
        // Entries are looked up in the open folder (`*at` calls), not by path: a folder
        // renamed while it is read still gives its entries.
        let folder = dirfd(directory)
        var entries: [DirectoryEntry] = []
        entries.reserveCapacity(batchSize)
        while true {
            errno = 0
            guard let record = readdir(directory) else {
                // A removed folder ends as if read to the end (glibc's readdir takes its
                // ENOENT for the end): the check after the loop tells the two apart.
                if errno != 0 { throw DirectoryError(path: text(parent), reason: errnoDescription()) }
                break
            }
            let name = Self.name(of: record)
            if name == Array(".".utf8) || name == Array("..".utf8) { continue }
            guard let entry = entry(named: name, in: parent, folder: folder) else { continue }
            entries.append(entry)
            if entries.count == batchSize {
                if isCancelled() { return }
                batch(entries)
                entries.removeAll(keepingCapacity: true)
            }
        }
        if !entries.isEmpty, !isCancelled() { batch(entries) }
        // A folder removed has no links left: what was read is what it held as it went.
        var info = stat()
        if fstat(folder, &info) == 0, info.st_nlink == 0 { throw DirectoryError.removedWhileRead(text(parent)) }
    }

    /// The name of the directory entry `record` (file system bytes). glibc allocates a
    /// record only as long as its name (`d_reclen`), not the 256 bytes `d_name` is declared
    /// with, so the name is read up to its terminating zero, never as the whole array.
    static func name(of record: UnsafeMutablePointer<dirent>) -> [UInt8] {
        let start = UnsafeRawPointer(record).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
        return Array(UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self))))
    }

    /// The entry named `rawName` (file system bytes) of the open directory `folder`, whose
    /// path is `parent`, or nil when it was removed since the folder was listed.
    static func entry(named rawName: [UInt8], in parent: [UInt8], folder: Int32) -> DirectoryEntry? {
        let rawPath = parent.last == UInt8(ascii: "/") ? parent + rawName : parent + [UInt8(ascii: "/")] + rawName
        let name = text(rawName), path = text(rawPath)
        return withCString(rawName) { cName in
            entry(name: name, path: path, rawPath: rawPath, folder: folder, cName: cName)
        }
    }

    private static func entry(name: String, path: String, rawPath: [UInt8], folder: Int32, cName: UnsafePointer<CChar>) -> DirectoryEntry? {
        var info = stat()
        guard fstatat(folder, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            return DirectoryEntry(name: name, path: path, rawPath: rawPath, kind: .unreadable, problem: errnoDescription())
        }
        var linkTarget: String?
        if (info.st_mode & S_IFMT) == S_IFLNK {
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlinkat(folder, cName, &buffer, buffer.count - 1)
            linkTarget = length >= 0 ? text(buffer[0..<length].map { UInt8(bitPattern: $0) }) : "?"
            var target = stat()
            guard fstatat(folder, cName, &target, 0) == 0 else {
                let reason = errno == ELOOP ? tr("symbolic link loop") : tr("broken symbolic link (%@)", errnoDescription())
                return DirectoryEntry(name: name, path: path, rawPath: rawPath, kind: .unreadable, linkTarget: linkTarget, problem: reason)
            }
            info = target
        }
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            let readable = faccessat(folder, cName, R_OK | X_OK, 0) == 0
            return DirectoryEntry(name: name, path: path, rawPath: rawPath, kind: readable ? .folder : .unreadable, modified: modified,
                                  linkTarget: linkTarget, problem: readable ? nil : tr("folder not readable"))
        case S_IFREG:
            return DirectoryEntry(name: name, path: path, rawPath: rawPath, kind: EntryKind.ofFile(named: name), size: Int64(info.st_size),
                                  modified: modified, linkTarget: linkTarget)
        default:
            return DirectoryEntry(name: name, path: path, rawPath: rawPath, kind: .other, modified: modified, linkTarget: linkTarget)
        }
    }

    /// File system bytes as text ("�" for bytes that are not UTF-8).
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `body` with `bytes` as a NUL-terminated C string.
    static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func errnoDescription() -> String {
        String(cString: strerror(errno))
    }
}
