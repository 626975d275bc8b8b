#!/usr/bin/env bash
# The checks CI runs on the host besides the suite: the whole suite (but ThreadCheckTests,
# below) under AddressSanitizer
# and LeakSanitizer (libraries' own lasting allocations suppressed in sanitizers/lsan.supp;
# a report fails the run), the threaded suites under ThreadSanitizer (SQLite storage's
# refresher and GRDB observation, the paged storages' page and key reads, SQLite's and
# PostgreSQL's over SwiftNIO, the main-queue GLib source, the viewer's folder reader,
# thumbnail loader and live tables), then the fuzz targets (run-fuzzers.sh). Each build has
# its own folder (.build-asan, .build-tsan, .build-fuzz). Run install-dependencies.sh first: it installs
# the system packages.
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$helpers/.."
source "$helpers/environment.sh"
private_runtime_dir

# As run-tests.sh runs the suite; GL is not probed, so Mesa is not loaded (and unloaded,
# which leaves LeakSanitizer stacks it cannot name).
in_window_system() {
    dbus-run-session -- xvfb-run -a -s "-screen 0 1024x768x24" \
        env G_DEBUG=fatal-warnings GSK_RENDERER=cairo "$(without_gl)" "$@"
}

echo "== AddressSanitizer and LeakSanitizer: the whole suite"
swift build --build-tests --sanitize=address --build-path .build-asan -Xswiftc -warnings-as-errors
# But ThreadCheckTests, whose child programs stop on purpose: under AddressSanitizer, with
# its 30 cases run at once, Foundation's Process did not reap them (they stayed zombies and
# the run waited for ever, November 2026); the ordinary suite runs them on every GTK.
in_window_system ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
    LSAN_OPTIONS="suppressions=$PWD/meson-helpers/sanitizers/lsan.supp:print_suppressions=0" \
    swift test --skip-build --sanitize=address --build-path .build-asan --skip ThreadCheckTests

echo "== ThreadSanitizer: the threaded suites"
swift build --build-tests --sanitize=thread --build-path .build-tsan -Xswiftc -warnings-as-errors
in_window_system TSAN_OPTIONS=halt_on_error=1 \
    swift test --skip-build --sanitize=thread --build-path .build-tsan \
    --filter 'FetchedResultsStorageTests|PagedQueryStorageTests|PostgresStorageTests|DatabaseTests|DatabaseWindowTests|DirectoryTests|ViewModeTests|MainQueueTests'

echo "== Fuzzing"
"$helpers/run-fuzzers.sh"
