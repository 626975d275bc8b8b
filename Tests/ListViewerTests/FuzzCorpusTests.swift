import Foundation
import TestSupport
import XCTest

/// The fuzz targets' seed corpora (and the crashes fuzzing found, kept there once fixed),
/// replayed by the targets on every run of the suite, on every GTK.
final class FuzzCorpusTests: XCTestCase {
    func testTheStorageCorpusReplays() throws {
        try replay("StorageFuzzer", corpus: "storage")
    }

    func testTheCatalogCorpusReplays() throws {
        try replay("CatalogFuzzer", corpus: "catalog")
    }

    func testTheDatabaseCorpusReplays() throws {
        try replay("DatabaseFuzzer", corpus: "database")
    }

    /// Runs the target on each seed: built as usual it replays them itself ("replayed N
    /// inputs"); in the fuzzing build (the AddressSanitizer run) it is a libFuzzer program,
    /// which runs each file it is given once ("Executed FILE").
    private func replay(_ target: String, corpus: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/\(corpus)").path
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + "/" + $0 }
        XCTAssertGreaterThanOrEqual(seeds.count, 5, "the \(corpus) corpus has its seeds")
        let result = try ChildProcess.run(ChildProcess.built(target), seeds)
        XCTAssertEqual(result.status, 0, "\(target) stopped on an input of the \(corpus) corpus: \(result.errors)")
        let executed = seeds.filter { result.errors.contains("Executed \($0) in ") }
        XCTAssertTrue(result.output.contains("replayed \(seeds.count) inputs") || executed.count == seeds.count,
                      "\(result.output)\n\(result.errors)")
    }
}
