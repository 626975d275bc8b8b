import ModelStorage
import TestSupport

/// The storage fuzz target: the input's first byte picks the layout's options and whether
/// sections mix model types; the rest draws storage operations, valid and invalid (index
/// paths out of range or of another shape, absurd sections, counts that do not match),
/// single and batched. Each is checked as the seeded random runs are: an invalid operation
/// reports one anomaly, changes nothing and delivers nothing; a valid one leaves the storage
/// as the rows flattened directly say, and `FlatLayout`'s splices replay the rows before
/// into the rows after. A failed check stops the process, so libFuzzer keeps the input.
enum StorageFuzzer {
    static func run(_ input: [UInt8]) {
        let bytes = FuzzBytes(input)
        let choice = UInt64(bytes.byte())
        let run = RandomStorageRun(name: "fuzz input", generator: bytes, options: layoutOptions(forSeed: choice),
                                   mixesModelTypes: choice & 0x80 != 0)
        run.run(operations: 500) { !bytes.isExhausted }
        if let failure = run.failures.first { fatalError(failure) }
    }
}
