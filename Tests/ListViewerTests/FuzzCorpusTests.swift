import Foundation
import TestSupport
import XCTest

/// The fuzz targets' seed corpora (and the crashes fuzzing found, kept there once fixed),
/// replayed by the targets' ordinary builds on every run of the suite, on every GTK.
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

    private func replay(_ target: String, corpus: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/\(corpus)").path
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder)
        XCTAssertGreaterThanOrEqual(seeds.count, 5, "the \(corpus) corpus has its seeds")
        let result = try ChildProcess.run(ChildProcess.built(target), [folder])
        XCTAssertEqual(result.status, 0, "\(target) stopped on an input of the \(corpus) corpus: \(result.errors)")
        XCTAssertTrue(result.output.contains("replayed \(seeds.count) inputs"), result.output)
    }
}
