import CFuzzing
import Foundation

/// A fuzzer's input as a random number generator: each number is the next eight bytes, so
/// the same input draws the same operations and a fuzzer that changes a byte changes one
/// choice. Once the input runs out, numbers come from a generator seeded by the input's
/// length: never a constant, on which drawing a number in a range would loop for ever.
public final class FuzzBytes: RandomNumberGenerator {
    private let bytes: [UInt8]
    private var offset: Int
    private lazy var rest = SeededGenerator(seed: UInt64(bytes.count))

    /// The input `bytes`, read from `offset` on.
    public init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Whether every byte has been drawn.
    public var isExhausted: Bool { offset >= bytes.count }

    /// The next byte (0 once the input runs out).
    public func byte() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    /// The next `count` bytes, fewer when the input runs out.
    public func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = max(offset, end) }
        return offset < end ? Array(bytes[offset..<end]) : []
    }

    public func next() -> UInt64 {
        isExhausted ? rest.next() : (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) }
    }
}

/// A fuzz target's `main`. In the fuzzing build (libFuzzer linked in: run-fuzzers.sh),
/// libFuzzer's driver runs `body` on its inputs as the arguments say (fuzzing a corpus folder,
/// or each file given once). Otherwise `body` replays the inputs in the files and folders
/// given, so the seed corpora and the crashes found replay in the ordinary test suite.
public func runFuzzTarget(_ body: @escaping ([UInt8]) -> Void) -> Never {
    guard fuzz_driver_linked() else {
        replayFuzzInputs(Array(CommandLine.arguments.dropFirst()), body)
        exit(0)
    }
    fuzzedBody = body
    var count = CommandLine.argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&count, &arguments) { data, size in
        fuzzedBody?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    })
}

/// The body libFuzzer's driver runs (a C function pointer carries no context), set once
/// before the driver starts, on the thread that runs it.
nonisolated(unsafe) private var fuzzedBody: (([UInt8]) -> Void)?

/// Runs `body` on each file named in `arguments` (each file in a folder named), skipping
/// libFuzzer's options (`-runs=0`). Returns the number of inputs run.
@discardableResult
public func replayFuzzInputs(_ arguments: [String], _ body: ([UInt8]) -> Void) -> Int {
    var count = 0
    for argument in arguments where !argument.hasPrefix("-") {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
            FileHandle.standardError.write(Data("\(argument): no such file or folder\n".utf8))
            exit(2)
        }
        let files = isFolder.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []).sorted().map { argument + "/" + $0 }
            : [argument]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            body(Array(data))
            count += 1
        }
    }
    print("replayed \(count) inputs")
    return count
}
