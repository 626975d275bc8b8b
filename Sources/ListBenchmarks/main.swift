import Foundation

// The benchmark suite: one JSON line per scenario and implementation.
// Usage: list-benchmarks [--small] [--sizes N,N,…] [--scenario PREFIX] [--gtk]
//   --small       the sizes the test suite uses (1,000 and 10,000)
//   --sizes       the storage sizes to run the translation scenarios at
//   --scenario    only the scenarios whose name starts with PREFIX (diff: the diff ones;
//                 paged: the paged SQLite storage's, postgres: the PostgreSQL storage's on a
//                 private server; both run only when asked for)
//   --gtk-one SCENARIO N  one GTK scenario on the project (scroll_paged and
//                 scroll_paged_memory: a table of N books scrolled from the paged SQLite
//                 storage, and from memory; postgres_latency and postgres_latency_undelayed:
//                 1,000 commits to a table of N books, each timed to the frame that shows it;
//                 sqlite_latency and sqlite_latency_undelayed: the same for the paged SQLite
//                 storage following its table's change log; section_index_paged: ten
//                 section index titles picked on a paged table of N books in 100 sections;
//                 type_ahead_paged and type_ahead_paged_by_rowid: a title typed a key at a
//                 time on a paged table of N books, ordered by title or by rowid, each key
//                 searched in SQL;
//                 thumbnails_prefetch_S and thumbnails_no_prefetch_S: the viewer's grid of a
//                 folder of N photos scrolled S pixels a frame, counting tiles shown without
//                 their thumbnails; the TreeStorage's (TreeScenarios): tree_expand, an item
//                 with N children expanded, timed to the first frame showing them, counting
//                 items-changed; tree_expand_all, N top items with N children each expanded
//                 with expandAll, timed to the first frame, and the heap and resident memory
//                 the expanded tree added; tree_flat, the same N + N² items in a flat
//                 MemoryStorage, its memory to compare; scroll_tree, N rows (N / 100 top items
//                 with 99 children each, expanded) scrolled as scroll scrolls, against the C
//                 baseline's scroll_tree, a GtkTreeListModel)
//   --gtk         also the GTK scenarios, on the project and the C baseline, each in a
//                 fresh process, with ratio lines (needs a display: run under xvfb-run)
//   --gtk-section-headers  the project's list shows section headers as GTK 4.12's own
//                 (`usesGTKSectionHeaders`) instead of rows
//   --no-pinned-header  the project's list without its pinned section header
//   --long-session N  opens and closes N windows with managers, and reports the growth of
//                 heap and resident memory per window (needs a display)
//   --pgbench SCALE CLIENTS SECONDS [RATE]  a PostgreSQL storage following pgbench_accounts
//                 while pgbench's TPC-B-like load runs, at RATE commits a second at most
//                 (PostgresLoadScenario)
//   --many-storages STORAGES SECONDS ROWS  storages following one table through PgBouncer,
//                 from a primary and a replica, under 100 commits a second (ManyStoragesScenario)
let arguments = CommandLine.arguments
func value(after flag: String) -> String? {
    arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let sizes = value(after: "--sizes").map { $0.split(separator: ",").compactMap { Int($0) } }
    ?? (arguments.contains("--small") ? [1_000, 10_000] : [10_000, 100_000, 1_000_000])
let prefix = value(after: "--scenario") ?? ""
GtkScenarios.gtkSectionHeaders = arguments.contains("--gtk-section-headers")
GtkScenarios.noPinnedHeader = arguments.contains("--no-pinned-header")

if let index = arguments.firstIndex(of: "--gtk-one"), arguments.count > index + 2, let count = Int(arguments[index + 2]) {
    // One GTK scenario on the project, in this fresh process (used by --gtk).
    let scenario = arguments[index + 1]
    let run = scenario.hasPrefix("scroll_paged") ? PagedScenarios.onBookTable(PagedScrollScenario.run)
        : scenario.hasPrefix("postgres_latency") ? PostgresLatencyScenario.run
        : scenario.hasPrefix("sqlite_latency") ? SQLiteLatencyScenario.run
        : scenario == "section_index_paged" ? PagedScenarios.onBookTable(SectionIndexScenario.run)
        : scenario.hasPrefix("type_ahead_paged") ? PagedScenarios.onBookTable(TypeAheadPagedScenario.run)
        : scenario.hasPrefix("thumbnails_") ? ThumbnailScenario.run
        : scenario.hasPrefix("tree_") || scenario == "scroll_tree" ? TreeScenarios.run : GtkScenarios.runOne
    if let measurement = MainActor.assumeIsolated({ run(scenario, count) }) {
        print(measurement.json)
    }
    exit(0)
}

if let index = arguments.firstIndex(of: "--pgbench"), arguments.count > index + 3,
   let scale = Int(arguments[index + 1]), let clients = Int(arguments[index + 2]), let seconds = Int(arguments[index + 3]) {
    let rate = arguments.count > index + 4 ? Int(arguments[index + 4]) : nil
    if let measurement = MainActor.assumeIsolated({ PostgresLoadScenario.run(scale: scale, clients: clients, seconds: seconds, rate: rate) }) {
        print(measurement.json)
    }
    exit(0)
}

if let index = arguments.firstIndex(of: "--many-storages"), arguments.count > index + 3,
   let storages = Int(arguments[index + 1]), let seconds = Int(arguments[index + 2]), let rows = Int(arguments[index + 3]) {
    if let measurement = MainActor.assumeIsolated({ ManyStoragesScenario.run(storages: storages, seconds: seconds, rows: rows) }) {
        print(measurement.json)
    }
    exit(0)
}

if let windows = value(after: "--long-session").flatMap(Int.init) {
    if let measurement = MainActor.assumeIsolated({ LongSession.run(windows: windows) }) {
        print(measurement.json)
    }
    exit(0)
}

// The storage scenarios measure resident memory exactly; the GTK ones (each in its own
// process) keep glibc's usual allocation, as the baselines do.
pinMallocMapThreshold()
for measurement in StorageScenarios.run(sizes: sizes, only: prefix) + StripScenarios.run(sizes: sizes, only: prefix)
    + PagedScenarios.run(sizes: sizes, only: prefix) + PostgresScenarios.run(sizes: sizes, only: prefix) {
    print(measurement.json)
}
// The diff scenarios (their own sizes: DifferenceKit's benchmark shapes), with
// `--scenario diff` or a prefix of one of their names.
if prefix.isEmpty || "diff".hasPrefix(prefix) || prefix.hasPrefix("diff") {
    for measurement in DiffScenarios.run(only: prefix) {
        print(measurement.json)
    }
}

if arguments.contains("--gtk") {
    GtkScenarios.compare(count: arguments.contains("--small") ? 10_000 : 1_000_000)
}
