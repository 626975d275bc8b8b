import Foundation

/// The rows looked at first by a paged storage's search, from where it starts: the rows a
/// key typed most often finds (the focused row again, or one a little further), answered
/// by looking up these rows alone.
private let nearRows = 1_000

/// Which rows a paged storage asks its database about, in a search.
package enum MatchScope: Sendable {
    /// Those of these keys (rows near where the search starts).
    case among([Int64])
    /// The first of every row in the query's order (one at most).
    case first
    /// Every row (in any order).
    case every
}

extension PagedStorage: SearchingStorage {
    /// Reads which rows of the query in `scope` match a search, off the storage's thread;
    /// hands their keys or the error met to `done`, on any thread. Called where the storage
    /// lives.
    package typealias MatchReader = @Sendable (_ text: String, _ anywhere: Bool, _ scope: MatchScope,
                                               _ done: @escaping @Sendable (Result<[Int64], Error>) -> Void) -> Void

    public var searchesItems: Bool { makeMatchReader != nil }

    /// Asks the database, in up to three steps, each only when the one before did not
    /// answer: which of the thousand rows from `start` match (the focused row, or one a
    /// little further: most keys end here); going forward, which match comes first in the
    /// query's order (none: no row matches; at or after `start`: it is the one, as when the
    /// list is ordered by what is searched, whose index finds it at once); then every
    /// match, looked for in the storage's order (one pass over the keys kept, off the
    /// storage's thread, stopping at the first). Every step reads the query shown when the
    /// search began. A search begun before every key is read (`isLoaded`) waits for them; a
    /// search begun after it drops the steps left of the one before. A search that fails
    /// hands nil, and its error to the storage's error handler.
    public func searchItem(matching text: String, anywhere: Bool, from start: IndexPath?, forward: Bool,
                           found: @escaping (IndexPath?) -> Void) {
        searchCount += 1
        guard let makeMatchReader, !text.isEmpty else { return found(nil) }
        guard isLoaded else {
            // Rows further down have no key yet: asked again once every key is read.
            let search = searchCount
            searchesWaitingForKeys.append { [weak self] in
                guard let self, searchCount == search else { return }
                searchItem(matching: text, anywhere: anywhere, from: start, forward: forward, found: found)
            }
            return
        }
        let places = rows.places, count = places.rowCount
        guard count > 0 else { return found(nil) }
        let readMatches = makeMatchReader()
        let first = start.flatMap(places.position(of:)) ?? (forward ? 0 : count - 1)
        let near = (0..<min(count, nearRows)).map { forward ? (first + $0) % count : (first - $0 + count) % count }
        let (box, schedule, found, search) = (WeakBox(self), schedule, HandedBack(found), searchCount)
        let deliver: @Sendable (Result<Int?, Error>) -> Void = { result in
            schedule {
                guard let storage = box.object else { return }
                switch result {
                case .failure(let error):
                    found.value(nil)
                    storage.readFailed(error)
                case .success(let position):
                    found.value(position.flatMap { storage.indexPath(ofKey: places.key(at: $0)!, lastAt: $0) })
                }
            }
        }
        /// Asks about `scope` where the storage lives (unless a newer search began), then
        /// hands the keys found to `then` (or the error to `deliver`).
        let ask: @Sendable (MatchScope, @escaping @Sendable ([Int64]) -> Void) -> Void = { scope, then in
            schedule {
                guard box.object?.searchCount == search else { return }
                readMatches(text, anywhere, scope) { result in
                    switch result {
                    case .failure(let error): deliver(.failure(error))
                    case .success(let keys): then(keys)
                    }
                }
            }
        }
        /// Every match, then the first of them from `first` in the storage's order.
        let every: @Sendable () -> Void = {
            ask(.every) { matched in
                let keys = KeyMembership(matched)
                deliver(.success(places.firstPosition(from: first, forward: forward, where: keys.contains)))
            }
        }
        ask(.among(near.compactMap(places.key(at:)))) { matched in
            if !matched.isEmpty {
                let matched = Set(matched)
                return deliver(.success(near.first { places.key(at: $0).map(matched.contains) == true }))
            }
            guard near.count < count else { return deliver(.success(nil)) }
            guard forward else { return every() }
            ask(.first) { firstMatch in
                guard let firstMatch = firstMatch.first else { return deliver(.success(nil)) }
                if let position = places.position(ofKey: firstMatch), position >= first { return deliver(.success(position)) }
                every()
            }
        }
    }

    /// Runs the searches that waited for every key to be read.
    package func runSearchesWaitingForKeys() {
        let waiting = searchesWaitingForKeys
        searchesWaitingForKeys = []
        for search in waiting { search() }
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
