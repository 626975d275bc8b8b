import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tells when a program writes a database's files (the file, its `-wal` or its `-journal`,
/// the journal's deletion being a commit in SQLite's default journal mode), through Linux's
/// inotify on their folder, so that a storage looks for a commit at once instead of at its
/// next poll. A look is cheap (`PRAGMA data_version`), so a write that is not a commit costs
/// little; the poll stays, for the file systems inotify does not see (a network file system
/// written by another machine).
///
/// Every watch of the process shares one inotify instance (a user has 128 by default, for
/// all their programs) and one watch per folder.
final class FileWatch: @unchecked Sendable {
    private let inotify: Inotify
    private let token: Int

    /// Watches the files of the database at `path`, calling `changed` on `queue` after each
    /// burst of writes; nil where inotify is missing or refuses (too many watches).
    init?(path: String, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) {
        guard let inotify = Inotify.shared else { return nil }
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        guard let token = inotify.add(folder: url.deletingLastPathComponent().path, names: [name, name + "-wal", name + "-journal"],
                                      queue: queue, changed: changed) else { return nil }
        (self.inotify, self.token) = (inotify, token)
    }

    deinit {
        cancel()
    }

    /// Stops watching (again: nothing).
    func cancel() {
        inotify.remove(token)
    }
}

/// The process's inotify instance: its folders watched, each with the watches on files in
/// it, told on their queues.
private final class Inotify: @unchecked Sendable {
    /// The instance, made when first needed; nil where inotify is not.
    static let shared: Inotify? = Inotify()

    private struct Watch {
        let folder: Int32
        let names: Set<String>
        let queue: DispatchQueue
        let changed: @Sendable () -> Void
    }

    private let descriptor: Int32
    private let source: DispatchSourceRead
    private let lock = NSLock()
    // Guarded by `lock`.
    private var watches: [Int: Watch] = [:]
    private var nextToken = 0

    private init?() {
        #if os(Linux)
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "SQLiteStorage.inotify"))
        source.setEventHandler { [unowned self] in readEvents() }
        source.resume()
        #else
        return nil
        #endif
    }

    /// Watches `names` in `folder`; returns the watch's token, or nil when inotify refuses.
    func add(folder: String, names: Set<String>, queue: DispatchQueue, changed: @escaping @Sendable () -> Void) -> Int? {
        #if os(Linux)
        // Adding a folder watched already gives its watch again; under the lock, so that the
        // end of the folder's last other watch does not end it meanwhile.
        return lock.withLock {
            let folderWatch = inotify_add_watch(descriptor, folder, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_DELETE))
            guard folderWatch >= 0 else { return nil }
            nextToken += 1
            watches[nextToken] = Watch(folder: folderWatch, names: names, queue: queue, changed: changed)
            return nextToken
        }
        #else
        return nil
        #endif
    }

    /// Ends the watch of `token`, and the folder's when it was the folder's last.
    func remove(_ token: Int) {
        lock.withLock {
            guard let watch = watches.removeValue(forKey: token) else { return }
            #if os(Linux)
            if !watches.values.contains(where: { $0.folder == watch.folder }) { inotify_rm_watch(descriptor, watch.folder) }
            #endif
        }
    }

    /// Reads every event waiting, then tells each watch whose files were written, once.
    private func readEvents() {
        #if os(Linux)
        var written = Set<Int>()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let byFolder = Dictionary(grouping: lock.withLock { watches }, by: \.value.folder)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (folder, length) = buffer.withUnsafeBytes {
                    ($0.load(fromByteOffset: offset, as: Int32.self), Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let start = offset + MemoryLayout<inotify_event>.size
                let name = String(decoding: buffer[start..<min(start + length, count)].prefix { $0 != 0 }, as: UTF8.self)
                for (token, watch) in byFolder[folder] ?? [] where watch.names.contains(name) { written.insert(token) }
                offset = start + length
            }
        }
        for (token, watch) in byFolder.values.joined() where written.contains(token) { watch.queue.async(execute: watch.changed) }
        #endif
    }
}
