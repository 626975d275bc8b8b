import Foundation

/// The rows looked at first by a paged storage's search, from where it starts: the rows a
/// key typed most often finds (the focused row again, or one a little further), answered
/// by looking up these rows alone.
private let nearRows = 1_000

extension PagedStorage: SearchingStorage {
    /// Reads which rows of the query match a search, off the storage's thread: those of
    /// `among` (their keys), or every row when nil; hands their keys (in any order) or the
    /// error met to `done`, on any thread.
    package typealias MatchReader = @Sendable (_ text: String, _ anywhere: Bool, _ among: [Int64]?,
                                               _ done: @escaping @Sendable (Result<[Int64], Error>) -> Void) -> Void

    public var searchesItems: Bool { readMatches != nil }

    /// Asks the database which rows match: first among the thousand rows from `start`,
    /// then, when none of them does, among every row, whose keys are then looked for in
    /// the storage's order (one pass over the keys kept, off the storage's thread, stopping
    /// at the first). A search that fails hands nil, and its error to the storage's error
    /// handler.
    public func searchItem(matching text: String, anywhere: Bool, from start: IndexPath?, forward: Bool,
                           found: @escaping (IndexPath?) -> Void) {
        let places = rows.places, count = places.rowCount
        guard let readMatches, count > 0, !text.isEmpty else { return found(nil) }
        let first = start.flatMap(places.position(of:)) ?? (forward ? 0 : count - 1)
        let near = (0..<min(count, nearRows)).map { forward ? (first + $0) % count : (first - $0 + count) % count }
        let nearKeys = near.compactMap(places.key(at:))
        let (box, schedule, found) = (WeakBox(self), schedule, HandedBack(found))
        let deliver: @Sendable (Result<(position: Int, key: Int64)?, Error>) -> Void = { result in
            schedule {
                guard let storage = box.object else { return }
                switch result {
                case .failure(let error):
                    found.value(nil)
                    storage.readFailed(error)
                case .success(let match):
                    found.value(match.flatMap { storage.indexPath(ofKey: $0.key, lastAt: $0.position) })
                }
            }
        }
        readMatches(text, anywhere, nearKeys) { result in
            switch result {
            case .failure(let error): deliver(.failure(error))
            case .success(let matched) where !matched.isEmpty:
                let matched = Set(matched)
                deliver(.success(near.first { places.key(at: $0).map(matched.contains) == true }.map { ($0, places.key(at: $0)!) }))
            case .success where near.count == count:
                deliver(.success(nil))
            case .success:
                // Every row, asked for where the storage lives (the reader reads its query there).
                schedule {
                    readMatches(text, anywhere, nil) { result in
                        deliver(result.map { matched in
                            let keys = KeyMembership(matched)
                            return places.firstPosition(from: first, forward: forward, where: keys.contains).map { ($0, places.key(at: $0)!) }
                        })
                    }
                }
            }
        }
    }

    /// The index path of the row whose key is `key`, found at `position` when the search
    /// began (looked for among every key when the rows changed since).
    private func indexPath(ofKey key: Int64, lastAt position: Int) -> IndexPath? {
        let places = rows.places
        guard let now = places.key(at: position) == key ? position : places.position(ofKey: key) else { return nil }
        return places.indexPath(of: now)
    }
}

/// The keys of a search's matches, asked about once for each row passed: a bit each over
/// their span when they are dense enough (a few bytes a match), else a hash set.
private struct KeyMembership: Sendable {
    private let lowest: Int64
    private let bits: [UInt64]?
    private let set: Set<Int64>

    init(_ keys: [Int64]) {
        guard let lowest = keys.min(), let highest = keys.max(), highest &- lowest >= 0,
              UInt64(highest &- lowest) < UInt64(max(keys.count, 4_096)) * 64 else {
            (self.lowest, bits, set) = (0, nil, Set(keys))
            return
        }
        var bits = [UInt64](repeating: 0, count: Int(highest - lowest) / 64 + 1)
        for key in keys {
            let bit = Int(key - lowest)
            bits[bit / 64] |= 1 << UInt64(bit % 64)
        }
        (self.lowest, self.bits, set) = (lowest, bits, [])
    }

    func contains(_ key: Int64) -> Bool {
        guard let bits else { return set.contains(key) }
        guard key >= lowest, key &- lowest >= 0 else { return false }
        let bit = key - lowest
        guard bit / 64 < Int64(bits.count) else { return false }
        return bits[Int(bit / 64)] & (1 << UInt64(bit % 64)) != 0
    }
}
