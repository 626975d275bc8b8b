import Foundation
import TestSupport
import XCTest

/// A small run of the benchmark suite's GTK scenarios (the real `list-benchmarks` binary,
/// in fresh processes under the tests' display): the counts the performance rests on.
/// Times are never asserted here; they are measured and recorded in BENCHMARKS.md.
final class BenchmarkCountTests: XCTestCase {
    /// The JSON lines `list-benchmarks` prints when run with `arguments`.
    private func benchmarks(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try ChildProcess.run(ChildProcess.built("list-benchmarks"), arguments)
        XCTAssertEqual(result.status, 0, "list-benchmarks \(arguments.joined(separator: " ")): \(result.errors)")
        return try result.output.split(separator: "\n").filter { $0.hasPrefix("{") }.map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// The figures of one GTK scenario, run on `count` items.
    private func run(_ scenario: String, count: Int = 10_000) throws -> [String: Double] {
        let object = try XCTUnwrap(try benchmarks(["--gtk-one", scenario, "\(count)"]).last)
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    func testABatchOfAdjacentInsertsIsOneSignalAndBindsOnlyRealisedRows() throws {
        let result = try run("batch")
        XCTAssertEqual(result["signals"], 1)
        XCTAssertLessThanOrEqual(result["binds"] ?? .infinity, (result["realised_rows"] ?? 0) + 10)
    }

    func testAContentUpdateUpdatesOneRowAndEmitsNothing() throws {
        let result = try run("content_update")
        XCTAssertEqual(result["signals"], 0)
        XCTAssertEqual(result["binds"], 1)
    }

    func testABulkLoadAsksOnlyForWhatGTKShows() throws {
        let result = try run("bulk_load")
        XCTAssertEqual(result["signals"], 1)
        XCTAssertLessThanOrEqual(result["get_item"] ?? .infinity, 2 * (result["realised_rows"] ?? 0) + 10)
    }

    func testSeparateInsertsBindOnlyTheRowsThatChanged() throws {
        let result = try run("separate")
        XCTAssertEqual(result["signals"], 1000)
        XCTAssertLessThanOrEqual(result["binds"] ?? .infinity, (result["realised_rows"] ?? 0) + 10)
    }

    /// The storage scenarios at 100,000 items: heap bytes the storage keeps per model,
    /// beyond the model's own size (exact: malloc's own count, not resident pages).
    func testTheStorageKeepsEachModelInItsOwnSizeAndLittleMore() throws {
        var scenarios: Set<String> = []
        var overheads: [String: Double] = [:]
        var heapCounted = true
        for object in try benchmarks(["--sizes", "100000", "--scenario", "storage_add"]) {
            let scenario = object["scenario"] as? String ?? ""
            scenarios.insert(scenario)
            overheads[scenario] = (object["overhead_bytes_per_item"] as? NSNumber)?.doubleValue
            heapCounted = heapCounted && (object["heap_counted"] as? NSNumber)?.intValue == 1
        }
        XCTAssertEqual(scenarios, ["storage_add_items", "storage_add_items_48_bytes", "storage_add_items_as_any"])
        try XCTSkipUnless(heapCounted, "a sanitizer's allocator replaced glibc's malloc, whose figures this test reads")
        XCTAssertEqual(Set(overheads.keys), scenarios)
        for (scenario, overhead) in overheads {
            XCTAssertLessThanOrEqual(overhead, 16, "\(scenario): bytes per item beyond the model's size")
            XCTAssertGreaterThanOrEqual(overhead, 0, "\(scenario): the models themselves are counted")
        }
    }

    /// Windows opened and closed one after another, each with its own list, grid or column
    /// view manager of 1,000 items: what a window leaves behind would grow the heap (malloc's
    /// own count, exact) by tens of kilobytes a window (a leaked manager: 1.2 MB). GTK's own
    /// caches still fill early on (GTK 4.18: 1.5 KB a window over the first 60 windows, 68
    /// bytes over 400; BENCHMARKS.md, Reliability), hence the bound of 8 KB.
    func testALongSessionOfWindowsKeepsTheHeapFlat() throws {
        let result = try XCTUnwrap(try benchmarks(["--long-session", "60"]).last)
        XCTAssertEqual((result["windows"] as? NSNumber)?.intValue, 60)
        try XCTSkipUnless((result["heap_counted"] as? NSNumber)?.intValue == 1,
                          "a sanitizer's allocator replaced glibc's malloc, whose figures this test reads")
        let growth = try XCTUnwrap((result["heap_growth_bytes_per_window"] as? NSNumber)?.doubleValue)
        XCTAssertLessThan(growth, 8192, "heap bytes kept per window closed")
    }
}
