import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tells when a program writes a database's files (the file, its `-wal` or its `-journal`,
/// the journal's deletion being a commit in SQLite's default journal mode), through Linux's
/// inotify on their folder, so that a storage looks for a commit at once instead of at its
/// next poll. A look is cheap (`PRAGMA data_version`), so a write that is
/// not a commit costs little; the poll stays, for the file systems inotify does not see
/// (a network file system written by another machine).
final class FileWatch: @unchecked Sendable {
    private let source: DispatchSourceRead

    /// Watches the files of the database at `path`, calling `changed` on `queue` after each
    /// burst of writes; nil where inotify is missing or refuses (too many watches).
    init?(path: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) {
        #if os(Linux)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, folder, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_DELETE)) >= 0 else {
            close(descriptor)
            return nil
        }
        let watched = [name, name + "-wal", name + "-journal"]
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            // Every event waiting, then one look for all of them.
            var written = false
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                    let start = offset + MemoryLayout<inotify_event>.size
                    let bytes = buffer[start..<min(start + length, count)].prefix { $0 != 0 }
                    if watched.contains(String(decoding: bytes, as: UTF8.self)) { written = true }
                    offset = start + length
                }
            }
            if written { changed() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        #else
        return nil
        #endif
    }

    deinit {
        source.cancel()
    }

    /// Stops watching.
    func cancel() {
        source.cancel()
    }
}
