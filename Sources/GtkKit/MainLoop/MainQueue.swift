import CGtk
import CGtkShims
import Foundation

/// Swift concurrency on the GLib main loop.
///
/// On Linux, `@MainActor` jobs and `DispatchQueue.main` blocks run only when something
/// drains libdispatch's main queue, and while GLib owns the main thread nothing does: a
/// `Task { @MainActor in … }` silently never runs. `MainQueue.attachToGLib()` adds a GLib
/// source that watches the main queue's eventfd and drains the queue when it signals (an
/// idle app wakes for nothing). `Application` calls it for you.
public enum MainQueue {
    /// Attaches the main-queue source to GLib's default main context (once; later calls do
    /// nothing). Call it on the main thread before the main loop runs.
    @MainActor
    public static func attachToGLib() {
        _ = cgtk_shims_attach_main_queue_source()
    }
}
