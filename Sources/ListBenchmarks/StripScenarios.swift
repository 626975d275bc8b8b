import Foundation
import ModelStorage

/// The sectioned grid's layout alone, without GTK: `StripLayout` over `count` items in 100
/// sections with headers and footers.
///
/// - `strip_reflow`: the view's width changes the columns, 4 → 5 → 6 → … → 12 and back, and
///   the layout re-flows (the main-thread work of a resize, less GTK's rebinding of the
///   strips on screen). Mean per re-flow.
/// - `strip_insert_section_50`: one item inserted into the middle of section 50; the splices
///   emitted and the strip rows they re-lay out. Mean per insert.
enum StripScenarios {
    static func run(sizes: [Int], only prefix: String) -> [Measurement] {
        guard "strip".hasPrefix(prefix) || prefix.hasPrefix("strip") || prefix.isEmpty else { return [] }
        return sizes.flatMap { [reflow(count: $0), insert(count: $0)] }
    }

    private static func storage(count: Int) -> MemoryStorage {
        let storage = makeStorage(count: count, sections: 100)
        storage.setSectionHeaderModels((0..<100).map { "Section \($0)" })
        storage.setSectionFooterModels((0..<100).map { "End of \($0)" })
        return storage
    }

    private static func reflow(count: Int) -> Measurement {
        let storage = storage(count: count)
        var layout = StripLayout(storage: storage, columns: 4)
        let widths = Array(5...12) + Array((4...11).reversed())
        var rows = 0
        let wall = milliseconds {
            for columns in widths { rows += layout.reflow(columns: columns, storage: storage).splices.first?.added ?? 0 }
        }
        return Measurement(scenario: "strip_reflow", n: count, wallMilliseconds: wall / Double(widths.count), extra: [
            ("strip_rows_mean", Double(rows) / Double(widths.count)),
        ])
    }

    private static func insert(count: Int) -> Measurement {
        let storage = storage(count: count)
        var layout = StripLayout(storage: storage, columns: 6)
        let follower = StripFollower()
        storage.delegate = follower
        let repetitions = 1000
        var splices = 0, relaid = 0
        var wall = 0.0
        for step in 0..<repetitions {
            try? storage.insertItem(BenchmarkPost(id: -step, title: ""), to: IndexPath(item: storage.numberOfItems(inSection: 50) / 2, section: 50))
            guard let update = follower.updates.popLast() else { continue }
            wall += milliseconds {
                let changes = layout.apply(update)
                splices += changes.splices.count
                relaid += changes.splices.reduce(0) { $0 + $1.removed }
            }
        }
        return Measurement(scenario: "strip_insert_section_50", n: count, wallMilliseconds: wall / Double(repetitions), extra: [
            ("signals", Double(splices) / Double(repetitions)),
            ("strips_relaid", Double(relaid) / Double(repetitions)),
        ])
    }
}

/// Keeps what a storage delivers, for the layout to apply under the clock.
private final class StripFollower: StorageUpdating {
    var updates: [StorageUpdate] = []
    func storageDidPerformUpdate(_ update: StorageUpdate) { updates.append(update) }
    func storageNeedsReloading() {}
}
