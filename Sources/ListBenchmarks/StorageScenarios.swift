import CGtkTestShims
import Foundation
import ModelStorage

/// A model the size of a typical row model: an id and a title (24 bytes).
struct BenchmarkPost {
    let id: Int
    let title: String
}

/// A larger model (48 bytes), which Swift keeps boxed on the heap inside `Any`.
struct BenchmarkArticle {
    let id: Int
    let title: String
    let author: String
    let published: Double
}

/// Keeps a layout in step with a storage, timing only the translation of each update.
final class TimedLayoutFollower: StorageUpdating {
    var layout: FlatLayout
    private(set) var translationMilliseconds = 0.0
    private(set) var splices = 0
    private(set) var updates = 0

    init(storage: MemoryStorage) {
        layout = FlatLayout(storage: storage)
    }

    func storageDidPerformUpdate(_ update: StorageUpdate) {
        var changes = FlatChanges()
        translationMilliseconds += milliseconds { changes = layout.apply(update) }
        splices += changes.splices.count
        updates += 1
    }

    func storageNeedsReloading() {}
}

/// A storage of `count` posts in `sections` equal sections.
func makeStorage(count: Int, sections: Int) -> MemoryStorage {
    let storage = MemoryStorage()
    let perSection = count / sections
    storage.setItemsForAllSections((0..<sections).map { section in
        (0..<perSection).map { BenchmarkPost(id: section * perSection + $0, title: "") }
    })
    return storage
}

/// Scenario 7: the storage alone, without GTK.
enum StorageScenarios {
    static func run(sizes: [Int], only prefix: String) -> [Measurement] {
        var results: [Measurement] = []
        if "storage_add_items".hasPrefix(prefix) || prefix.isEmpty {
            results.append(addItems(count: sizes.max() ?? 1_000_000, name: "storage_add_items") { BenchmarkPost(id: $0, title: "") })
            results.append(addItems(count: sizes.max() ?? 1_000_000, name: "storage_add_items_48_bytes") {
                BenchmarkArticle(id: $0, title: "", author: "", published: 0)
            })
            // The same posts handed over as `Any`, as a list of mixed models is.
            results.append(addItems(count: sizes.max() ?? 1_000_000, name: "storage_add_items_as_any") { BenchmarkPost(id: $0, title: "") as Any })
        }
        for size in sizes where "translate".hasPrefix(prefix) || prefix.hasPrefix("translate") || prefix.isEmpty {
            results.append(translation(count: size, name: "translate_single_insert", repetitions: 1000) { storage, step in
                try? storage.insertItem(BenchmarkPost(id: -step, title: ""), to: IndexPath(item: storage.numberOfItems(inSection: 5) / 2, section: 5))
            })
            results.append(translation(count: size, name: "translate_batch_1000_adjacent", repetitions: 100) { storage, step in
                storage.performUpdates {
                    let start = storage.numberOfItems(inSection: 5) / 2
                    for offset in 0..<1000 {
                        try? storage.insertItem(BenchmarkPost(id: -offset, title: ""), to: IndexPath(item: start + offset, section: 5))
                    }
                }
            })
        }
        if "translate_scattered_moves".hasPrefix(prefix) || prefix.hasPrefix("translate") || prefix.isEmpty {
            // Moves to random places in one batch: how translation grows with the number of
            // rows an update scatters (a batch of more than `FlatLayout.detailedChangeLimit`
            // changes is a reload instead).
            for moves in [1_000, 4_000, 16_000] {
                var random = SeededRandom(seed: 11)
                let measurement = translation(count: 100_000, name: "translate_scattered_moves_\(moves)", repetitions: 1) { storage, _ in
                    storage.performUpdates {
                        for _ in 0..<moves {
                            let section = Int(random.nextUnit() * 10)
                            let count = storage.numberOfItems(inSection: section)
                            storage.moveItem(at: IndexPath(item: Int(random.nextUnit() * Double(count)), section: section),
                                             to: IndexPath(item: Int(random.nextUnit() * Double(count - 1)), section: section))
                        }
                    }
                }
                results.append(measurement)
            }
            // Moves inside one region: reversing a block of rows, one move at a time.
            for moves in [1_000, 3_000, 9_000] {
                results.append(translation(count: 100_000, name: "translate_reversed_block_\(moves)", repetitions: 1) { storage, _ in
                    storage.performUpdates {
                        for offset in 0..<moves {
                            storage.moveItem(at: IndexPath(item: 100 + moves - 1, section: 0), to: IndexPath(item: 100 + offset, section: 0))
                        }
                    }
                })
            }
        }
        return results
    }

    /// Adds `count` models made by `make` in 10 sections; reports the memory each one costs
    /// (heap bytes the storage keeps) beyond its size.
    private static func addItems<Model>(count: Int, name: String, _ make: (Int) -> Model) -> Measurement {
        let perSection = count / 10
        let sections = (0..<10).map { section in (0..<perSection).map { make(section * perSection + $0) } }
        let storage = MemoryStorage()
        // Bytes malloc handed out and kept (exact, unlike resident pages, which count blocks
        // freed and reused too).
        let before = cgtk_shims_heap_bytes_in_use()
        let wall = milliseconds {
            for (index, posts) in sections.enumerated() {
                storage.addItems(posts, toSection: index)
            }
        }
        let bytesPerItem = Double(Int(cgtk_shims_heap_bytes_in_use()) - Int(before)) / Double(count)
        withExtendedLifetime((storage, sections)) {}
        // Under a sanitizer, malloc is not glibc's and its figures mean nothing: say so
        // rather than print them.
        guard cgtk_shims_heap_is_counted() != 0 else {
            return Measurement(scenario: name, n: count, wallMilliseconds: wall, extra: [("heap_counted", 0)])
        }
        return Measurement(scenario: name, n: count, wallMilliseconds: wall, extra: [
            ("heap_counted", 1),
            ("bytes_per_item", bytesPerItem),
            ("model_size", Double(MemoryLayout<Model>.size)),
            ("overhead_bytes_per_item", bytesPerItem - Double(MemoryLayout<Model>.size)),
        ])
    }

    /// Runs `change` `repetitions` times on a storage of `count` items and reports the mean
    /// time the layout took to translate each update.
    private static func translation(count: Int, name: String, repetitions: Int, _ change: (MemoryStorage, Int) -> Void) -> Measurement {
        let storage = makeStorage(count: count, sections: 10)
        let follower = TimedLayoutFollower(storage: storage)
        storage.delegate = follower
        for step in 0..<repetitions { change(storage, step) }
        return Measurement(scenario: name, n: count, wallMilliseconds: follower.translationMilliseconds / Double(repetitions), extra: [
            ("signals", Double(follower.splices) / Double(follower.updates)),
        ])
    }
}
