/// An open-addressing hash table (linear probing, at most half full) from an identity to
/// the chain of new items that have it. Keys are not stored: a bucket names the new item
/// whose identity it holds, and keeps that identity's hash to skip most comparisons.
@usableFromInline
struct IdentityTable {
    @usableFromInline
    struct Bucket {
        /// The identity's full hash.
        @usableFromInline var hash: Int
        /// A new item with this identity, or -1 for an empty bucket.
        @usableFromInline var key: Int32
        /// The first new item of this identity not yet paired, or -1.
        @usableFromInline var head: Int32

        @inlinable
        init(hash: Int, key: Int32, head: Int32) {
            self.hash = hash
            self.key = key
            self.head = head
        }
    }

    @usableFromInline let buckets: UnsafeMutableBufferPointer<Bucket>
    @usableFromInline let mask: Int

    @inlinable
    init(capacityFor count: Int) {
        var capacity = 16
        while capacity < count * 2 { capacity &<<= 1 }
        buckets = .allocate(capacity: capacity)
        buckets.initialize(repeating: Bucket(hash: 0, key: -1, head: -1))
        mask = capacity - 1
    }

    @inlinable
    func deallocate() {
        buckets.deallocate()
    }
}
