import CGtk
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
    /// Textures by path (one reference each, owned here), and the order they were used.
    private var textures: [String: OpaquePointer] = [:]
    private var recent: [String] = []
    /// Paths being made, with who waits for them.
    private var waiting: [String: [(OpaquePointer) -> Void]] = [:]
    private let queue = RequestQueue()

    /// Calls `deliver` with `path`'s thumbnail: at once when it is known, else once made
    /// (never when the file is not an image GdkPixbuf can read).
    func thumbnail(of path: String, _ deliver: @escaping (OpaquePointer) -> Void) {
        if let texture = textures[path] {
            touch(path)
            deliver(texture)
            return
        }
        if waiting[path] != nil {
            waiting[path]!.append(deliver)
            return
        }
        waiting[path] = [deliver]
        queue.push(path) { [weak self] pixbuf in
            Task { @MainActor in self?.receive(pixbuf, for: path) }
        }
    }

    private func receive(_ pixbuf: Pixbuf?, for path: String) {
        let waiters = waiting.removeValue(forKey: path) ?? []
        guard let pixbuf else { return }
        let texture = gdk_texture_new_for_pixbuf(pixbuf.pointer)!
        g_object_unref(UnsafeMutableRawPointer(pixbuf.pointer))
        textures[path] = texture
        touch(path)
        while recent.count > capacity {
            let oldest = recent.removeFirst()
            if let old = textures.removeValue(forKey: oldest) { g_object_unref(UnsafeMutableRawPointer(old)) }
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
    private struct State {
        var pending: [(path: String, done: @Sendable (Pixbuf?) -> Void)] = []
        var running = false
    }

    private let state = Mutex(State())
    /// Beyond this many waiting paths, the oldest are dropped unread (scrolled past long ago).
    private let limit = 200

    func push(_ path: String, done: @escaping @Sendable (Pixbuf?) -> Void) {
        let start = state.withLock { state -> Bool in
            state.pending.append((path, done))
            if state.pending.count > limit {
                let dropped = state.pending.removeFirst()
                dropped.done(nil)
            }
            defer { state.running = true }
            return !state.running
        }
        if start { Thread.detachNewThread { [self] in run() } }
    }

    private func run() {
        while let request = state.withLock({ state -> (path: String, done: @Sendable (Pixbuf?) -> Void)? in
            guard let next = state.pending.popLast() else {
                state.running = false
                return nil
            }
            return next
        }) {
            let pixbuf = gdk_pixbuf_new_from_file_at_scale(request.path, Int32(Thumbnails.size), Int32(Thumbnails.size), 1, nil)
            request.done(pixbuf.map(Pixbuf.init))
        }
    }
}
