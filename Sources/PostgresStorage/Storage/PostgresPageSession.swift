import Foundation

/// Where a storage's page reads find its feed (whose session reads them), and the lane
/// (its number in the feed) they read on; nil once the storage is closed. A read holds the
/// feed until it ends, so a feed left (a new query) closes its connections only then.
/// Read from any thread.
final class PostgresPageSession<Record: PostgresRecordDecodable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (PostgresFeed<Record>, lane: Int)?

    var feed: (PostgresFeed<Record>, lane: Int)? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
