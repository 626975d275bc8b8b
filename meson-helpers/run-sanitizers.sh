#!/usr/bin/env bash
# The sanitizer checks, on one system (CI runs them on Debian 13, GTK 4.18):
#   address: the whole suite under AddressSanitizer and LeakSanitizer (libraries' own
#     lasting allocations suppressed in sanitizers/lsan.supp; a report fails the run), then
#     the fuzz targets from the same build (run-fuzzers.sh): it is the fuzzing build too;
#   thread: the threaded suites under ThreadSanitizer (SQLite storage's refresher and GRDB
#     observation, the paged storages' page and key reads, SQLite's and PostgreSQL's over
#     SwiftNIO, the main-queue GLib source, the viewer's folder reader, thumbnail loader and
#     live tables; reports of what it cannot see the order of suppressed in sanitizers/tsan.supp).
# Usage: run-sanitizers.sh [address | thread] (both when not given). Each build has its own
# folder (.build-asan, .build-tsan). Run install-dependencies.sh first: it installs the
# system packages.
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$helpers/.."
source "$helpers/environment.sh"
private_runtime_dir
if (($# > 0)); then checks=("$@"); else checks=(address thread); fi

# As run-tests.sh runs the suite; GL is not probed, so Mesa is not loaded (and unloaded,
# which leaves LeakSanitizer stacks it cannot name). The Swift runtime's backtracer is off:
# the sanitizers report with their own stacks, and under AddressSanitizer the backtracer of
# a stopped test program failed (a heap-buffer-overflow in its memory reader) and hung.
in_window_system() {
    in_test_session G_DEBUG=fatal-warnings "$(without_gl)" SWIFT_BACKTRACE=enable=no "$@"
}

for check in "${checks[@]}"; do
    case $check in
    address)
        echo "== AddressSanitizer and LeakSanitizer: the whole suite"
        fuzzing_build
        swift build --build-tests "${address_build_flags[@]}"
        leak_checked=()
        if pkg-config --atleast-version=4.18 gtk4; then
            # GTK 4.18's X11 backend leaks the GdkX11Drop it makes for each drag that enters
            # one of the process's own windows (a drag and drop in the list, a tile's in a
            # grid): LeakSanitizer's stacks end in GLib, built without frame pointers, so no
            # suppression can tell it from another leak. Those tests run under
            # AddressSanitizer alone; the rest under LeakSanitizer too.
            drag_and_drop='DragAndDropTests|testDraggingATile'
            echo "== (GTK $(pkg-config --modversion gtk4): the drag-and-drop tests without LeakSanitizer)"
            in_window_system ASAN_OPTIONS=detect_leaks=0 \
                swift test --skip-build "${address_build_flags[@]}" --filter "$drag_and_drop"
            leak_checked=(--skip "$drag_and_drop")
        fi
        in_window_system ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
            LSAN_OPTIONS="suppressions=$PWD/meson-helpers/sanitizers/lsan.supp:print_suppressions=0" \
            swift test --skip-build "${address_build_flags[@]}" "${leak_checked[@]}"
        echo "== Fuzzing"
        "$helpers/run-fuzzers.sh"
        ;;
    thread)
        echo "== ThreadSanitizer: the threaded suites"
        thread_build_flags=(--sanitize thread --build-path .build-tsan "${suite_build_flags[@]}")
        swift build --build-tests "${thread_build_flags[@]}"
        in_window_system TSAN_OPTIONS="halt_on_error=1 suppressions=$helpers/sanitizers/tsan.supp" \
            swift test --skip-build "${thread_build_flags[@]}" \
            --filter 'FetchedResultsStorageTests|PagedQueryStorageTests|PostgresStorageTests|DatabaseTests|DatabaseWindowTests|DirectoryTests|ViewModeTests|MainQueueTests'
        ;;
    *) echo "usage: $0 [address | thread]" >&2; exit 2 ;;
    esac
done
