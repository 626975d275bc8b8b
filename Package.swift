// swift-tools-version: 6.0
import PackageDescription

/// The fuzzing build (run-sanitizers.sh sets LIST_VIEW_MANAGER_FUZZER to the path of the
/// toolchain's libFuzzer without its `main`, beside `--sanitize address`): the fuzzed modules
/// get libFuzzer's coverage instrumentation (what `-sanitize=fuzzer` gives) and the fuzz
/// targets link libFuzzer, whose driver their `main` runs; so the AddressSanitizer build of
/// the suite is the fuzzing build too, and nothing is built twice.
let libFuzzer = Context.environment["LIST_VIEW_MANAGER_FUZZER"].flatMap { $0.isEmpty ? nil : $0 }
let fuzzed: [SwiftSetting] = libFuzzer == nil ? [] : [
    .unsafeFlags(["-sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table"]),
]
/// libFuzzer's driver, asked for by name (the fuzz targets' reference to it is weak).
let fuzzTargetLinking: [LinkerSetting] = libFuzzer.map {
    [.unsafeFlags(["-Xlinker", "--undefined=LLVMFuzzerRunDriver", $0]), .linkedLibrary("stdc++")]
} ?? []

let package = Package(
    name: "ListViewManager",
    products: [
        .library(name: "ModelStorage", targets: ["ModelStorage"]),
        .library(name: "GtkKit", targets: ["GtkKit"]),
        .library(name: "ListViewManager", targets: ["ListViewManager"]),
        .library(name: "SQLiteStorage", targets: ["SQLiteStorage"]),
        .library(name: "PostgresStorage", targets: ["PostgresStorage"]),
        .executable(name: "list-viewer", targets: ["ListViewer"]),
        // The benchmark suite and its C baseline are tools of this repository, not products:
        // built here by name (`swift build --product list-benchmarks`), never by an app that
        // depends on the package, so that the private servers and recorders they share with
        // the tests (targets under Tests/) ship with nothing.
    ],
    dependencies: [
        // Only SQLiteStorage and the sample viewer use GRDB: apps that link neither never build it.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Only PostgresStorage uses PostgresNIO (and SwiftNIO under it).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Only the sample viewer's command line uses ArgumentParser.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Only meson-helpers/build-documentation.sh uses the DocC plugin; no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // GTK 4 as Swift sees it: the system headers through pkg-config.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        // The library's C: what Swift cannot import from GTK (macros, GType casts, variadic
        // calls), the GListModel and item types the bridge hands GTK, the main-queue GLib
        // source, and the newer-GTK calls, checked at build and run time.
        .target(
            name: "CGtkShims",
            dependencies: ["CGtk"]
        ),
        // C that only the tests and benchmarks use (GLib type macros, glibc's heap
        // figures): kept out of what apps link.
        .target(name: "CGtkTestShims", dependencies: ["CGtk"]),
        // gettext as the C library has it (<libintl.h>), for translated texts.
        .systemLibrary(name: "CGettext"),
        // Text made safe to show: control characters as visible symbols, for GTK's C strings
        // and terminals; pure Swift, the one piece that the storages and the toolkit share.
        .target(name: "VisibleText", swiftSettings: fuzzed),
        // Sectioned storages and the flattened layout, and translated texts; pure Swift, no GTK.
        .target(name: "ModelStorage", dependencies: ["CGettext"], swiftSettings: fuzzed),
        // A live storage of an SQL query's rows, kept up to date as the database changes
        // (GRDB over the system SQLite); no GTK.
        .target(name: "SQLiteStorage", dependencies: ["ModelStorage", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: fuzzed),
        // A live storage of a PostgreSQL query's rows, following the server through LISTEN
        // and NOTIFY (PostgresNIO); no GTK.
        .target(name: "PostgresStorage", dependencies: ["ModelStorage", "VisibleText", .product(name: "PostgresNIO", package: "postgres-nio"),
                                                       .product(name: "Logging", package: "swift-log")]),
        // A GTK 4 widget toolkit: the application, windows, containers, widgets and controls,
        // typed signals, object references and the GLib main loop under Swift concurrency.
        // Knows nothing of lists: ListViewManager builds on it (and re-exports it).
        .target(name: "GtkKit", dependencies: ["CGtk", "CGtkShims", "VisibleText"]),
        // The GTK adapter: GtkListView driven by a storage, typed rows and events.
        .target(name: "ListViewManager", dependencies: ["CGtk", "CGtkShims", "GtkKit", "ModelStorage", "VisibleText"]),
        // The sample viewer: its models, data sources, rows and window; and its executable.
        .target(name: "ListViewerKit", dependencies: ["ListViewManager", "SQLiteStorage", "PostgresStorage", "VisibleText", "CGtk", .product(name: "GRDB", package: "GRDB.swift"),
                                                      .product(name: "ArgumentParser", package: "swift-argument-parser")], swiftSettings: fuzzed),
        .executableTarget(name: "ListViewer", dependencies: ["ListViewerKit"]),
        // The benchmarks' C baseline: a plain GListStore + GtkSignalListItemFactory program.
        .executableTarget(name: "list-baseline-c", dependencies: ["CGtk"], path: "Sources/CBaseline"),
        // The benchmark suite (run in release): one JSON line per scenario.
        .executableTarget(name: "list-benchmarks", dependencies: ["ModelStorage", "ListViewManager", "ListViewerKit", "SQLiteStorage", "PostgresStorage", "PostgresTestSupport",
                                                                  "TestSupport", "CGtk", "CGtkShims", "CGtkTestShims",
                                                                  .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                                                                  .product(name: "Logging", package: "swift-log")],
                          path: "Sources/ListBenchmarks", exclude: ["baseline.py"]),
        // The GTK tests' harness (a window with a manager), real input, the items-changed
        // recorder and the main-loop pump, for the manager's and the viewer's tests.
        .target(name: "GtkTestSupport", dependencies: ["CGtk", "CGtkTestShims", "ListViewManager", "TestSupport"], path: "Tests/GtkTestSupport"),
        // A private PostgreSQL server (initdb, pg_ctl) for the tests and benchmarks that need one.
        .target(name: "PostgresTestSupport", dependencies: ["PostgresStorage", "TestSupport"], path: "Tests/PostgresTestSupport"),
        // Seeded random storage operations shared by the storage and GTK tests, and the fuzz
        // targets' inputs and `main`.
        .target(name: "TestSupport", dependencies: ["ModelStorage", "CFuzzing"], path: "Tests/TestSupport"),
        // libFuzzer's driver as the fuzz targets call it (weak: linked in the fuzzing build only).
        .target(name: "CFuzzing", path: "Tests/Fuzz/CFuzzing"),
        // The README's quick start, a whole app on the public API alone (ReadmeQuickStartTests runs it).
        .executableTarget(name: "QuickStart", dependencies: ["ListViewManager"], path: "Tests/QuickStart"),
        // Changes a storage attached on the main thread from another thread (ThreadCheckTests runs it).
        .executableTarget(name: "OffThreadChange", dependencies: ["ModelStorage"], path: "Tests/OffThreadChange"),
        // Fuzz targets: each replays the inputs it is given; in the fuzzing build (above), each
        // is a libFuzzer program (run-fuzzers.sh).
        .executableTarget(name: "StorageFuzzer", dependencies: ["ModelStorage", "TestSupport"], path: "Tests/Fuzz/StorageFuzzer",
                          swiftSettings: fuzzed, linkerSettings: fuzzTargetLinking),
        .executableTarget(name: "CatalogFuzzer", dependencies: ["ListViewerKit", "TestSupport"], path: "Tests/Fuzz/CatalogFuzzer",
                          swiftSettings: fuzzed, linkerSettings: fuzzTargetLinking),
        .executableTarget(name: "DatabaseFuzzer", dependencies: ["ListViewerKit", "ModelStorage", "SQLiteStorage", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
                          path: "Tests/Fuzz/DatabaseFuzzer", swiftSettings: fuzzed, linkerSettings: fuzzTargetLinking),
        .testTarget(name: "ModelStorageTests", dependencies: ["ModelStorage", "TestSupport"]),
        .testTarget(name: "SQLiteStorageTests", dependencies: ["SQLiteStorage", "ModelStorage", "TestSupport"]),
        .testTarget(name: "PostgresStorageTests", dependencies: ["PostgresStorage", "ModelStorage", "PostgresTestSupport", "TestSupport", .product(name: "PostgresNIO", package: "postgres-nio")]),
        .testTarget(name: "CGtkShimsTests", dependencies: ["CGtk", "CGtkShims", "CGtkTestShims"]),
        .testTarget(name: "ListViewerTests", dependencies: ["ListViewerKit", "ListViewManager", "SQLiteStorage", "PostgresStorage", "PostgresTestSupport", "CGtk", "CGtkTestShims", "TestSupport", "GtkTestSupport", .product(name: "GRDB", package: "GRDB.swift")], exclude: ["ScreenReader"]),
        // Every Swift block of the README and the DocC articles, type-checked against the built
        // modules (it depends on each module the documentation imports, so that they are built).
        .testTarget(name: "DocumentationTests", dependencies: ["ListViewManager", "SQLiteStorage", "PostgresStorage", "TestSupport",
                                                            .product(name: "GRDB", package: "GRDB.swift")], exclude: ["Context"]),
        .testTarget(name: "ListViewManagerTests", dependencies: ["ListViewManager", "CGtk", "CGtkTestShims", "TestSupport", "GtkTestSupport", "SQLiteStorage",
                                                              .product(name: "GRDB", package: "GRDB.swift")], resources: [.process("Templates")]),
    ],
    swiftLanguageModes: [.v6]
)
