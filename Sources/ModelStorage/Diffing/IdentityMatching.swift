/// Pairs old and new items of equal identity: the common leading and trailing runs
/// position by position, the rest through a hash table of the new identities in which each
/// identity chains its occurrences, first to last, so that the k-th old occurrence of an
/// identity there pairs with its k-th new one. Each identity pairs min(old, new
/// occurrences) times.
///
/// `oldMatch` and `newMatch` must hold -1 everywhere; paired indexes are written into them.
/// Expected O(old + new): one hash per item outside the common runs.
@inlinable
func matchIdentities<Item: Identifiable>(
    old: UnsafeBufferPointer<Item>, new: UnsafeBufferPointer<Item>,
    oldMatch: UnsafeMutableBufferPointer<Int32>, newMatch: UnsafeMutableBufferPointer<Int32>
) {
    var start = 0
    let limit = min(old.count, new.count)
    while start < limit, old[start].id == new[start].id {
        oldMatch[start] = Int32(start)
        newMatch[start] = Int32(start)
        start += 1
    }
    var oldEnd = old.count
    var newEnd = new.count
    while oldEnd > start, newEnd > start, old[oldEnd - 1].id == new[newEnd - 1].id {
        oldEnd -= 1
        newEnd -= 1
        oldMatch[oldEnd] = Int32(newEnd)
        newMatch[newEnd] = Int32(oldEnd)
    }
    guard start < oldEnd, start < newEnd else { return }

    let table = IdentityTable(capacityFor: newEnd - start)
    defer { table.deallocate() }
    // The next new occurrence of the same identity, by offset from `start`; -1 for none.
    let next = UnsafeMutableBufferPointer<Int32>.allocate(capacity: newEnd - start)
    defer { next.deallocate() }

    // New items last to first, so that each chain runs first to last.
    var index = newEnd - 1
    while index >= start {
        let id = new[index].id
        let hash = id.hashValue
        var bucket = hash & table.mask
        while true {
            let key = table.buckets[bucket].key
            if key < 0 {
                table.buckets[bucket] = IdentityTable.Bucket(hash: hash, key: Int32(index), head: Int32(index))
                next[index - start] = -1
                break
            }
            if table.buckets[bucket].hash == hash, new[Int(key)].id == id {
                next[index - start] = table.buckets[bucket].head
                table.buckets[bucket].head = Int32(index)
                break
            }
            bucket = (bucket + 1) & table.mask
        }
        index -= 1
    }

    for index in start..<oldEnd {
        let id = old[index].id
        let hash = id.hashValue
        var bucket = hash & table.mask
        while true {
            let key = table.buckets[bucket].key
            if key < 0 { break }
            if table.buckets[bucket].hash == hash, new[Int(key)].id == id {
                let head = table.buckets[bucket].head
                if head >= 0 {
                    oldMatch[index] = head
                    newMatch[Int(head)] = Int32(index)
                    table.buckets[bucket].head = next[Int(head) - start]
                }
                break
            }
            bucket = (bucket + 1) & table.mask
        }
    }
}
