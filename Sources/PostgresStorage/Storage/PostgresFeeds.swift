import Foundation

/// The feeds of the process, by what makes storages share one (`PostgresFeed.Key`), held
/// weakly: a feed lives while a storage holds it.
final class PostgresFeeds: @unchecked Sendable {
    static let shared = PostgresFeeds()

    private let lock = NSLock()
    private var feeds: [AnyHashable: Weak] = [:]
    private var subscribers = 0

    private struct Weak {
        weak var feed: AnyObject?
    }

    /// The feed of `key`, made if there is none (or it stopped).
    func feed<Record>(for key: PostgresFeed<Record>.Key) -> PostgresFeed<Record> {
        lock.withLock {
            if let feed = feeds[key]?.feed as? PostgresFeed<Record> { return feed }
            let feed = PostgresFeed<Record>(key: key)
            feeds[key] = Weak(feed: feed)
            // Keys of feeds gone are dropped as feeds are made.
            if feeds.count > 64 { feeds = feeds.filter { $0.value.feed != nil } }
            return feed
        }
    }

    /// A number for a storage joining a feed, never given before in the process: what an
    /// earlier feed, or an earlier join, still tells the storage is told apart by it.
    func nextSubscriberNumber() -> Int {
        lock.withLock {
            subscribers += 1
            return subscribers
        }
    }

    /// Forgets `feed` (stopped for good): the next storage of its key makes another.
    func forget<Record>(_ key: PostgresFeed<Record>.Key, ifItIs feed: PostgresFeed<Record>) {
        lock.withLock {
            if feeds[key]?.feed === feed { feeds[key] = nil }
        }
    }
}
