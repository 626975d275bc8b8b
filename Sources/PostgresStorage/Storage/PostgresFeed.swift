import Foundation
import ModelStorage

/// One query followed on one server for every `PostgresQueryStorage` of the process that
/// shows it (`PostgresFeed.shared(for:)`): one session, one look in the log or `LISTEN`,
/// and one read of each commit, whose result every storage of the feed takes in turn. A
/// thousand lists of one table cost the server what one costs.
///
/// What a feed tells its storages (``Event``): how it follows the server, the errors it
/// meets, and each read of the rows' places with the changes from the read before, the
/// records of the changed rows that some storage holds, and the snapshot it was of. A
/// storage that joins late is given the places as they are (by reloading, or as the
/// changes from the rows it shows). Pages are each storage's own to read, on the feed's
/// connections for rows (`PostgresSession.readRows(_:lane:)`).
///
/// Everything it holds is touched on its `queue` only.
final class PostgresFeed<Record: PostgresRecordDecodable>: @unchecked Sendable {
    typealias State = PostgresQueryStorage<Record>.State
    typealias WakeUp = PostgresQueryStorage<Record>.WakeUp

    /// What a feed tells a storage, on the storage's schedule, in the order it happened.
    enum Event: Sendable {
        /// How the feed follows the server now.
        case state(State, wakeUp: WakeUp)
        /// An error met: following goes on (or `.state(.stopped)` follows).
        case error(PostgresStorageError)
        /// A read of the rows' places; when it read every key, the pages the storage holds
        /// are to be read again (their records may have changed without a trace).
        case read(KeyRead<Record, String?>, snapshot: PostgresSnapshot?)
        /// The first rows of the read under way (`KeyRead.firstRowsOnly`), before it reads
        /// every key: the read follows as an update with no change.
        case firstRows(KeyRead<Record, String?>)
        /// A drift check found the rows differing from the table (a read of every key follows).
        case driftRepaired
        /// The waits for places in the log (`waitForLSN`) that the reads told now reflect.
        case reflected(waits: [Int])
    }

    /// A storage of the feed, as the feed sees it from its queue.
    struct Subscriber: Sendable {
        /// The pages the storage holds, and their size.
        let heldPages: HeldPages
        let pageSize: Int
        /// Runs the storage's side of an event where the storage lives.
        let deliver: @Sendable (Event) -> Void
    }

    /// What makes two storages share a feed: the same server, query, records, and ways of
    /// following it.
    struct Key: Hashable, Sendable {
        let address: PostgresAddress
        let query: PostgresListQuery
        let environment: [String: String]
        let record: ObjectIdentifier
        let coalescingDelay: Duration
        let pollInterval: Duration
        let wakeUp: WakeUp
        let driftCheckInterval: Duration?
        let longestReconnectionWait: Duration
        let largestUpdate: Int
    }

    let key: Key
    let session: PostgresSession<Record>
    /// Where everything the feed holds is touched.
    let queue: DispatchQueue
    var query: PostgresListQuery { key.query }

    /// How the feed follows the server now, and how it learns of commits.
    var state = State.connecting
    var wakeUpInUse: WakeUp
    /// The error that stopped the feed, told to a storage that joins it later.
    private var stopError: PostgresStorageError?
    /// The storages taking the feed's reads, by the number each joined with.
    private var subscribers: [Int: Subscriber] = [:]
    /// Storages that joined since the last read was told, to be given the next (as a
    /// reload, or as the changes from the rows they show).
    private var joining: [Int: (any RowPlaces<String?>)?] = [:]
    /// Those of `joining` told the first rows of the read under way.
    private var toldFirstRows: Set<Int> = []
    /// The last read told: what a storage joining is given.
    private var current: (keys: any RowPlaces<String?>, snapshot: PostgresSnapshot?)?
    /// The error of the first failure to reach the server, while the feed connects again:
    /// told to a storage that joins meanwhile.
    private var unreachable: PostgresStorageError?

    /// Listens for the trigger's notifications, or polls; and compares runs with the table.
    var follower: Task<Void, Never>?
    var driftChecker: Task<Void, Never>?
    /// Counts the followers started and stopped: what a follower asks is done only while
    /// it is the current one.
    var followGeneration = 0

    /// A read of the keys is under way; whether it has begun (its delay is over: a commit
    /// told before then is in it); and whether another was asked for meanwhile.
    private var readingKeys = false
    private var readBegan = false
    private var readAgain = false
    /// The reads of the keys begun so far.
    private var readsBegun = 0
    /// When the last read of the keys began (its delay over).
    private var lastReadBegan: ContinuousClock.Instant?
    /// A read to try again after a failed one, and when.
    private var readAgainAfter: Duration?
    /// What `waitForLSN` waits for: the storage, its number for the wait, a place in the
    /// log, and the reads begun before the call.
    private var lsnWaits: [(subscriber: Int, wait: Int, lsn: PostgresLSN, readsBefore: Int)] = []
    /// The reads made again, one after another, for waits for a place in a replica's log
    /// (each waits twice as long as the one before, up to `pollInterval`).
    private var lsnRereads = 0

    init(key: Key) {
        self.key = key
        session = PostgresSession(address: key.address, query: key.query, environment: key.environment, largestUpdate: key.largestUpdate)
        queue = DispatchQueue(label: "PostgresFeed")
        wakeUpInUse = key.wakeUp
    }

    deinit {
        follower?.cancel()
        driftChecker?.cancel()
        let session = session
        Task { await session.close() }
    }

    /// Runs `body` on the feed's queue while the feed lives.
    func schedule(_ body: @escaping @Sendable (PostgresFeed) -> Void) {
        queue.async { [weak self] in
            guard let self else { return }
            body(self)
        }
    }

    // MARK: Storages

    /// Adds storage `number`. It is told the state, then the rows' places as they are (or,
    /// `fresh`, or when no storage follows the feed, as a read begun now gives them),
    /// compared with `shown`, the rows it shows, when given (else a reload), and every read
    /// after. The first storage starts the following.
    func join(_ subscriber: Subscriber, comparingWith shown: (any RowPlaces<String?>)?, number: Int, fresh: Bool) {
        if state == .stopped {
            // Its error first: a storage takes nothing from a feed after it stopped.
            if let stopError { subscriber.deliver(.error(stopError)) }
            return subscriber.deliver(.state(state, wakeUp: wakeUpInUse))
        }
        subscribers[number] = subscriber
        if let unreachable { subscriber.deliver(.error(unreachable)) }
        subscriber.deliver(.state(state, wakeUp: wakeUpInUse))
        // The last read of a feed no storage followed may be long gone by.
        if let current, !fresh, follower != nil {
            subscriber.deliver(.read(joiningRead(current.keys, shown: shown), snapshot: current.snapshot))
        } else {
            joining[number] = .some(shown)
        }
        if follower == nil {
            follow()
        } else if fresh {
            readKeys(after: .zero)
        }
    }

    /// Takes a storage away; with none left, stops following (the session stays, for the
    /// pages storages still read, and the log's position, for a storage joining later).
    func leave(_ number: Int) {
        subscribers[number] = nil
        joining[number] = nil
        toldFirstRows.remove(number)
        lsnWaits.removeAll { $0.subscriber == number }
        guard subscribers.isEmpty, state != .stopped else { return }
        stopFollowing()
        state = .connecting
    }

    /// A read of `keys` for a storage that joins: a reload, or the changes from `shown`.
    private func joiningRead(_ keys: any RowPlaces<String?>, shown: (any RowPlaces<String?>)?) -> KeyRead<Record, String?> {
        let update = shown.flatMap { shown in
            shown.keyList.flatMap { old in keys.keyList?.update(from: old, limit: key.largestUpdate, noSection: nil) }
        }
        return KeyRead(keys: keys, update: update, pages: [:])
    }

    /// Tells every storage `event`.
    private func tell(_ event: Event) {
        for subscriber in subscribers.values { subscriber.deliver(event) }
    }

    /// Sets how the feed follows the server and tells the storages. Stopped: for good (its
    /// storages are stopped; a storage made later makes another feed).
    func setState(_ state: State, wakeUp: WakeUp? = nil) {
        let wakeUp = wakeUp ?? wakeUpInUse
        guard state != self.state || wakeUp != wakeUpInUse else { return }
        (self.state, wakeUpInUse) = (state, wakeUp)
        if state == .live || state == .polling { unreachable = nil }
        tell(.state(state, wakeUp: wakeUp))
        if state == .stopped {
            stopFollowing()
            lsnWaits = []
            PostgresFeeds.shared.forget(key, ifItIs: self)
        }
    }

    /// Tells every storage an error; `stopping`: the error that stops the feed;
    /// `unreachable`: the first failure to reach the server (told to storages joining until
    /// it is reached).
    func report(_ error: PostgresStorageError, stopping: Bool = false, unreachable: Bool = false) {
        if stopping { stopError = error }
        if unreachable { self.unreachable = error }
        tell(.error(error))
    }

    /// Tells every storage that a drift check found the rows differing from the table.
    func driftFound() {
        tell(.driftRepaired)
        readKeys(after: .zero)
    }

    func stopFollowing() {
        follower?.cancel()
        follower = nil
        driftChecker?.cancel()
        driftChecker = nil
        followGeneration += 1
    }

    // MARK: Reads

    /// Calls the storage `subscriber` back with `.reflected([wait])` once a read shows
    /// every commit whose record in the log ends at or before `lsn` (see
    /// `PostgresQueryStorage.onceReflecting(lsn:_:)`).
    func waitForLSN(_ lsn: PostgresLSN, subscriber: Int, wait: Int) {
        guard subscribers[subscriber] != nil, state != .stopped else { return }
        lsnWaits.append((subscriber, wait, lsn, readsBegun))
        readKeys(after: .zero)
    }

    /// Tells the storages whose waits the read `read` (its number among the reads begun)
    /// now reflects; reads again soon while some wait for a replica.
    private func tellLSNWaitsReflected(afterRead read: Int, snapshot: PostgresSnapshot?) {
        guard let snapshot, !lsnWaits.isEmpty else { return }
        func reflected(_ wait: (subscriber: Int, wait: Int, lsn: PostgresLSN, readsBefore: Int)) -> Bool {
            snapshot.replayed.map { $0 >= wait.lsn } ?? (read > wait.readsBefore)
        }
        let done = Dictionary(grouping: lsnWaits.filter(reflected), by: \.subscriber)
        lsnWaits.removeAll(where: reflected)
        for (number, waits) in done { subscribers[number]?.deliver(.reflected(waits: waits.map(\.wait))) }
        guard !lsnWaits.isEmpty else { return lsnRereads = 0 }
        lsnRereads += 1
        readKeys(after: min(.milliseconds(10) * (1 << min(lsnRereads - 1, 16)), key.pollInterval))
    }

    /// Reads the keys for a commit told: at once after a quiet spell (no read begun within
    /// `coalescingDelay`), else after that delay, so that the commits of a burst after its
    /// first are read together.
    func readForCommit() {
        let delay = key.coalescingDelay
        let quiet = lastReadBegan.map { ContinuousClock.now - $0 >= delay } ?? true
        readKeys(after: quiet ? .zero : delay)
    }

    /// Reads the keys after `delay`, unless a read is under way: a notification told while
    /// that read waits out its delay is read by it; one told later is read once more after it.
    func readKeys(after delay: Duration) {
        guard !readingKeys else {
            if readBegan { readAgain = true }
            return
        }
        readingKeys = true
        readBegan = delay == .zero
        readsBegun += 1
        let read = readsBegun
        let session = session
        Task { [weak self] in
            if delay > .zero { try? await Task.sleep(for: delay) }
            // What is told from now on may be too late for this read's snapshot; the pages
            // held are taken now, as close to it as can be.
            guard let feed = self else { return }
            let held = await withCheckedContinuation { (continuation: CheckedContinuation<[(pages: Set<Int>, size: Int)], Never>) in
                feed.queue.async {
                    feed.readBegan = true
                    feed.lastReadBegan = .now
                    continuation.resume(returning: feed.subscribers.values.map { (pages: $0.heldPages.pages, size: $0.pageSize) })
                }
            }
            let result: Result<(KeyRead<Record, String?>, PostgresSnapshot?), PostgresStorageError>
            do throws(PostgresStorageError) {
                let keys = try await session.readKeys(held: held) { [weak feed] first in feed?.schedule { $0.tellFirstRows(first) } }
                result = .success((keys, await session.snapshot))
            } catch {
                result = .failure(error)
            }
            self?.schedule { feed in feed.show(result, read: read) }
        }
    }

    /// Tells the storages joining with no rows to compare with the first rows of the read
    /// under way.
    private func tellFirstRows(_ read: KeyRead<Record, String?>) {
        for (number, shown) in joining where shown == nil {
            guard let subscriber = subscribers[number] else { continue }
            toldFirstRows.insert(number)
            subscriber.deliver(.firstRows(read))
        }
    }

    /// Tells the storages a read (or its error), then asks for the read owed, if one is.
    private func show(_ result: Result<(KeyRead<Record, String?>, PostgresSnapshot?), PostgresStorageError>, read: Int) {
        readingKeys = false
        readBegan = false
        let toldFirstRows = toldFirstRows
        self.toldFirstRows = []
        switch result {
        case .failure(let error):
            if state != .stopped { tell(.error(error)) }
            // Tried again while following (a lost connection is the follower's to mend):
            // nothing else may ask for a read, as a look in the log does not while the
            // position of the runs is gone.
            if state == .live || state == .polling { readAgainAfter = key.pollInterval }
        case .success(let (keys, snapshot)):
            current = (keys.keys, snapshot)
            for (number, shown) in joining {
                guard let subscriber = subscribers[number] else { continue }
                var read = joiningRead(keys.keys, shown: shown)
                // Told the first rows of this snapshot: every key changes nothing.
                if toldFirstRows.contains(number) { read = KeyRead(keys: keys.keys, update: StorageUpdate(), pages: [:]) }
                if read.update != nil {
                    read = KeyRead(keys: read.keys, update: read.update, pages: [:], rowsRead: keys.rowsRead)
                        .withPages(subscriber.heldPages.pages, size: subscriber.pageSize)
                }
                subscriber.deliver(.read(read, snapshot: snapshot))
            }
            for (number, subscriber) in subscribers where joining[number] == nil {
                subscriber.deliver(.read(keys.withPages(subscriber.heldPages.pages, size: subscriber.pageSize), snapshot: snapshot))
            }
            joining = [:]
            tellLSNWaitsReflected(afterRead: read, snapshot: snapshot)
        }
        if readAgain {
            readAgain = false
            readKeys(after: key.coalescingDelay)
        } else if let delay = readAgainAfter {
            readKeys(after: delay)
        }
        readAgainAfter = nil
    }
}
