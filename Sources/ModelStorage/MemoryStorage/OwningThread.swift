import Foundation

/// The thread a storage belongs to while a delegate is attached: the one the delegate was
/// attached on (the main thread, for a manager's), which the delegate expects to be told
/// of each change on, at once.
struct OwningThread {
    private let thread: pthread_t
    private let isMain: Bool
    /// The type of the delegate attached, for the message.
    private let delegateType: AnyObject.Type

    /// The current thread, as the thread `delegate` is attached on.
    init(attaching delegate: AnyObject) {
        thread = pthread_self()
        isMain = Thread.isMainThread
        delegateType = type(of: delegate)
    }

    /// Whether the current thread is this one: a comparison of two words.
    @inline(__always)
    var isCurrent: Bool {
        pthread_equal(thread, pthread_self()) != 0
    }

    /// Why `operation` of `storage` must not run on the current thread.
    func violation(of operation: StaticString, on storage: String) -> String {
        let owner = isMain ? "the main thread" : "the thread its delegate was attached on"
        return "\(storage).\(operation) called on \(Self.describeCurrentThread()), but this storage must be changed on \(owner): "
            + "its delegate (\(delegateType)) was attached there and is told of each change at once. Nothing was changed."
    }

    /// "the main thread", or "thread 4242" (its id, as debuggers show it) with the thread's
    /// name, if it has one.
    private static func describeCurrentThread() -> String {
        if Thread.isMainThread { return "the main thread" }
        // Linux links /proc/thread-self to "<process id>/task/<thread id>"; "comm" is its name.
        let id = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")).map { ($0 as NSString).lastPathComponent }
        let given = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? ""
        // A thread no one named has the process's name (cut to 15 bytes, as thread names are).
        let unnamed = ["", String(ProcessInfo.processInfo.processName.utf8.prefix(15)) ?? ""]
        let name = unnamed.contains(given) ? "" : " (\"\(given)\")"
        return "thread \(id ?? "?")" + name
    }
}

extension MemoryStorage {
    /// Stops the process, saying why, when `operation` is called off the thread the storage
    /// belongs to while a delegate is attached: the delegate would be told of the change on
    /// a thread it does not expect (a manager's reaches GTK), while the storage may be
    /// changing on its own thread. Called first by every operation that changes the
    /// storage, so the message names the call made, before anything changed.
    @inline(__always) @usableFromInline
    func checkThread(_ operation: StaticString = #function) {
        guard let owningThread, !owningThread.isCurrent else { return }
        wrongThread(operation, owningThread)
    }

    @inline(never)
    private func wrongThread(_ operation: StaticString, _ owningThread: OwningThread) {
        // A delegate that went away (its manager dropped) leaves the storage free.
        guard delegate != nil else { return }
        fatalError(owningThread.violation(of: operation, on: "MemoryStorage"))
    }
}
