import CGtk
import ListViewManager
import Foundation
import Synchronization

/// Small pictures of image files for the grid, made off the main thread (most recently
/// asked first, so the images on screen come before those scrolled past) and kept for
/// the most recent few hundred files.
@MainActor
final class Thumbnails {
    static let shared = Thumbnails()

    /// The longest side of a thumbnail, in pixels.
    nonisolated static let size = 96
    /// How many thumbnails are kept.
    private let capacity = 300
    /// Textures by path, and the order they were used.
    private var textures: [String: ObjectReference<OpaquePointer>] = [:]
    private var recent: [String] = []
    /// Paths being made, with who waits for them.
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
            return
        }
        waiting[path] = [deliver]
        request(path)
    }

    private func request(_ path: String) {
        queue.push(path) { [weak self] result in
            Task { @MainActor in self?.receive(result, for: path) }
        }
    }

    private func receive(_ result: RequestQueue.Result, for path: String) {
        let pixbuf: Pixbuf
        switch result {
        case .dropped:
            // Dropped unread (scrolled past long ago); asked for again meanwhile, it is
            // asked for anew.
            if waiting[path]?.isEmpty == false { request(path) }
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

/// The paths waiting to be read, newest first, read one at a time on a thread of their own.
final class RequestQueue: Sendable {
    /// What became of a request.
    enum Result: Sendable {
        case made(Pixbuf)
        case unreadable
        /// Dropped unread: too many newer requests came after it.
        case dropped
    }

    private struct State {
        var pending: [(path: String, done: @Sendable (Result) -> Void)] = []
        var running = false
    }

    private let state = Mutex(State())
    /// Beyond this many waiting paths, the oldest are dropped unread (scrolled past long ago).
    private let limit = 200

    func push(_ path: String, done: @escaping @Sendable (Result) -> Void) {
        let (start, dropped) = state.withLock { state -> (Bool, (@Sendable (Result) -> Void)?) in
            state.pending.append((path, done))
            let dropped = state.pending.count > limit ? state.pending.removeFirst().done : nil
            defer { state.running = true }
            return (!state.running, dropped)
        }
        dropped?(.dropped)
        if start { Thread.detachNewThread { [self] in run() } }
    }

    private func run() {
        while let request = state.withLock({ state -> (path: String, done: @Sendable (Result) -> Void)? in
            guard let next = state.pending.popLast() else {
                state.running = false
                return nil
            }
            return next
        }) {
            let pixbuf = gdk_pixbuf_new_from_file_at_scale(request.path, Int32(Thumbnails.size), Int32(Thumbnails.size), 1, nil)
            request.done(pixbuf.map { .made(Pixbuf(pointer: $0)) } ?? .unreadable)
        }
    }
}
