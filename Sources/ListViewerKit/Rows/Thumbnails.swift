import CGtk
import ListViewManager
import Foundation

/// Small pictures of image files for the grid, made off the main thread (most recently
/// asked first, so the images on screen come before those scrolled past; those prefetched,
/// about to be shown, after them, nearest first) and kept for the most recent few hundred
/// files.
@MainActor
package final class Thumbnails {
    package static let shared = Thumbnails()

    /// The longest side of a thumbnail, in pixels.
    nonisolated static let size = 96
    /// How many thumbnails are kept.
    private let capacity = 300
    /// Textures by path, and the order they were used.
    private var textures: [String: ObjectReference<OpaquePointer>] = [:]
    private var recent: [String] = []
    /// Paths being made, with who waits for them (no one yet for a path prefetched).
    private var waiting: [String: [(OpaquePointer) -> Void]] = [:]
    /// Files GdkPixbuf could not read (not read again).
    private var unreadable: Set<String> = []
    private let queue = RequestQueue()

    /// Calls `deliver` with `path`'s thumbnail: at once when it is known, else once made
    /// (never when the file is not an image GdkPixbuf can read).
    func thumbnail(of path: String, _ deliver: @escaping (OpaquePointer) -> Void) {
        guard !unreadable.contains(path) else { return }
        if let texture = textures[path] {
            touch(path)
            deliver(texture.pointer)
            return
        }
        if waiting[path] != nil {
            waiting[path]!.append(deliver)
            queue.bringForward(path)  // prefetched, and now shown
            return
        }
        waiting[path] = [deliver]
        request(path)
    }

    /// Starts making `path`'s thumbnail before it is shown (its tile is about to be
    /// scrolled to), after those shown.
    func prefetch(_ path: String) {
        guard !unreadable.contains(path), textures[path] == nil, waiting[path] == nil else { return }
        waiting[path] = []
        request(path, ahead: true)
    }

    /// Does not make `path`'s thumbnail after all if it was prefetched, no tile waits for it,
    /// and it is not being made yet.
    func cancelPrefetch(_ path: String) {
        guard waiting[path]?.isEmpty == true, queue.withdraw(path) else { return }
        waiting[path] = nil
    }

    /// Whether `path`'s thumbnail is made (and kept).
    package func isMade(_ path: String) -> Bool { textures[path] != nil }

    private func request(_ path: String, ahead: Bool = false) {
        queue.push(path, ahead: ahead) { [weak self] result in
            Task { @MainActor in self?.receive(result, for: path) }
        }
    }

    private func receive(_ result: RequestQueue.Result, for path: String) {
        let pixbuf: Pixbuf
        switch result {
        case .dropped:
            // Dropped unread (scrolled past long ago); asked for again meanwhile, it is
            // asked for anew.
            if waiting[path]?.isEmpty == false { request(path) } else { waiting[path] = nil }
            return
        case .unreadable:
            waiting[path] = nil
            unreadable.insert(path)
            return
        case .made(let made):
            pixbuf = made
        }
        let waiters = waiting.removeValue(forKey: path) ?? []
        let pixbufReference = ObjectReference(adopting: pixbuf.pointer)  // made on the loading thread, for this one use
        let texture = gdk_texture_new_for_pixbuf(pixbufReference.pointer)!
        textures[path] = ObjectReference(adopting: texture)
        touch(path)
        while recent.count > capacity {
            let oldest = recent.removeFirst()
            textures[oldest] = nil
        }
        for deliver in waiters { deliver(texture) }
    }

    private func touch(_ path: String) {
        if let index = recent.lastIndex(of: path) { recent.remove(at: index) }
        recent.append(path)
    }
}

/// A GdkPixbuf made on the loading thread and handed, with its one reference, to the main thread.
struct Pixbuf: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The paths waiting to be read, one at a time on a thread of their own: those of tiles
/// shown first, newest first; then those prefetched, in the order they were asked for.
///
/// Its state is behind an `NSLock` (a pthread mutex), not Synchronization's `Mutex`: once the
/// grid prefetched, the main thread and the reading thread contended for the queue, and
/// ThreadSanitizer reported their accesses under a `Mutex` as a race (it does not see the
/// order a contended `Mutex` puts between them); it sees a pthread mutex's.
final class RequestQueue: @unchecked Sendable {
    /// What became of a request.
    enum Result: Sendable {
        case made(Pixbuf)
        case unreadable
        /// Dropped unread: too many newer requests came after it.
        case dropped
    }

    private struct State {
        /// Asked for by tiles shown (read from the end).
        var pending: [(path: String, done: @Sendable (Result) -> Void)] = []
        /// Prefetched (read from the start).
        var ahead: [(path: String, done: @Sendable (Result) -> Void)] = []
        var running = false
    }

    private let lock = NSLock()
    /// Only in `withState`.
    private var state = State()
    /// Beyond this many waiting paths of tiles shown, the oldest are dropped unread (scrolled
    /// past long ago); beyond this many prefetched, the newest (the farthest ahead).
    private let limit = 200

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Asks for `path`, for a tile shown, or `ahead` of it being shown.
    func push(_ path: String, ahead: Bool = false, done: @escaping @Sendable (Result) -> Void) {
        let (start, dropped) = withState { state -> (Bool, (@Sendable (Result) -> Void)?) in
            let dropped: (@Sendable (Result) -> Void)?
            if ahead {
                state.ahead.append((path, done))
                dropped = state.ahead.count > limit ? state.ahead.removeLast().done : nil
            } else {
                state.pending.append((path, done))
                dropped = state.pending.count > limit ? state.pending.removeFirst().done : nil
            }
            defer { state.running = true }
            return (!state.running, dropped)
        }
        dropped?(.dropped)
        if start { Thread.detachNewThread { [self] in run() } }
    }

    /// Moves `path`, prefetched and still waiting, among those of tiles shown (the newest).
    func bringForward(_ path: String) {
        withState { state in
            guard let index = state.ahead.firstIndex(where: { $0.path == path }) else { return }
            state.pending.append(state.ahead.remove(at: index))
        }
    }

    /// Takes `path`, prefetched, out of the queue if it is still waiting; whether it was.
    func withdraw(_ path: String) -> Bool {
        withState { state in
            guard let index = state.ahead.firstIndex(where: { $0.path == path }) else { return false }
            state.ahead.remove(at: index)
            return true
        }
    }

    private func run() {
        while let request = withState({ state -> (path: String, done: @Sendable (Result) -> Void)? in
            if let next = state.pending.popLast() { return next }
            guard !state.ahead.isEmpty else {
                state.running = false
                return nil
            }
            return state.ahead.removeFirst()
        }) {
            let pixbuf = gdk_pixbuf_new_from_file_at_scale(request.path, Int32(Thumbnails.size), Int32(Thumbnails.size), 1, nil)
            request.done(pixbuf.map { .made(Pixbuf(pointer: $0)) } ?? .unreadable)
        }
    }
}
