import Foundation

/// A place in a PostgreSQL server's write-ahead log (`pg_lsn`): how far a commit's record
/// ends, or how far a replica has replayed the primary's log. A program that wrote on the
/// primary takes `SELECT pg_current_wal_insert_lsn()::text` after its `COMMIT`, and waits with
/// `PostgresQueryStorage.onceReflecting(lsn:_:)` until a storage reading a replica shows it.
public struct PostgresLSN: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The byte offset in the log.
    public let offset: UInt64

    /// The place at byte `offset`.
    public init(offset: UInt64) {
        self.offset = offset
    }

    /// The place PostgreSQL writes as text: two hexadecimal numbers, the high and low 32
    /// bits, such as `16/B374D848`; nil for any other text.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...8).contains($0.count) }),
              let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16) else { return nil }
        offset = high << 32 | low
    }

    /// As PostgreSQL writes it: `16/B374D848`.
    public var description: String {
        String(offset >> 32, radix: 16, uppercase: true) + "/" + String(offset & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    public static func < (lhs: PostgresLSN, rhs: PostgresLSN) -> Bool { lhs.offset < rhs.offset }
}
