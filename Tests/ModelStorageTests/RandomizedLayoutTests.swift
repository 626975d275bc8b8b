import Foundation
import ModelStorage
import TestSupport
import Testing

@Suite("Random storage operations replayed through the flat layout")
struct RandomizedLayoutTests {
    /// Seeds 0..<200 in groups run in parallel; `STORAGE_SEED=n` reruns one seed.
    static let seedGroups: [Range<UInt64>] = {
        if let seed = ProcessInfo.processInfo.environment["STORAGE_SEED"].flatMap(UInt64.init) {
            return [seed..<(seed + 1)]
        }
        return stride(from: 0, to: 200, by: 25).map { UInt64($0)..<UInt64($0 + 25) }
    }()

    @Test("500 operations per seed keep splices, in-place updates and layout exact", arguments: seedGroups)
    func randomOperations(seeds: Range<UInt64>) {
        for seed in seeds {
            let run = RandomStorageRun(seed: seed)
            run.run(operations: 500)
            #expect(run.failures.isEmpty, "\(run.failures.first ?? "") (rerun with STORAGE_SEED=\(seed))")
            if !run.failures.isEmpty { return }
        }
    }
}
