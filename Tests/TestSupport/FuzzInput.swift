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

/// What a fuzz target's executable does when built without libFuzzer: runs `body` on each
/// file named in `arguments` (each file in a folder named), so the seed corpora and the
/// crashes found replay in the ordinary test suite. Returns the number of inputs run.
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
