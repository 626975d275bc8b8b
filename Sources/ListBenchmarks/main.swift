import Foundation

// The benchmark suite: one JSON line per scenario and implementation.
// Usage: list-benchmarks [--small] [--sizes N,N,…] [--scenario PREFIX] [--gtk]
//   --small       the sizes the test suite uses (1,000 and 10,000)
//   --sizes       the storage sizes to run the translation scenarios at
//   --scenario    only the scenarios whose name starts with PREFIX
//   --gtk         also the GTK scenarios (needs a display: run under xvfb-run)
pinMallocMapThreshold()
let arguments = CommandLine.arguments
func value(after flag: String) -> String? {
    arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let sizes = value(after: "--sizes").map { $0.split(separator: ",").compactMap { Int($0) } }
    ?? (arguments.contains("--small") ? [1_000, 10_000] : [10_000, 100_000, 1_000_000])
let prefix = value(after: "--scenario") ?? ""

for measurement in StorageScenarios.run(sizes: sizes, only: prefix) {
    print(measurement.json)
}

if arguments.contains("--gtk") {
    let gtkResults = MainActor.assumeIsolated { GtkScenarios.run(count: arguments.contains("--small") ? 10_000 : 100_000) }
    for measurement in gtkResults {
        print(measurement.json)
    }
}
