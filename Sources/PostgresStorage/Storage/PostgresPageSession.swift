import Foundation

/// Where a storage's page reads find its feed's session, and the lane (its number in the
/// feed) they read on; nil once the storage is closed. Read from any thread.
final class PostgresPageSession<Record: PostgresRecordDecodable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (PostgresSession<Record>, lane: Int)?

    var session: (PostgresSession<Record>, lane: Int)? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
