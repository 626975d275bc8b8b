#!/usr/bin/env bash
# Leak check with valgrind's memcheck (--leak-check=full) over:
# - the viewer on the sample catalog, on a folder and on a database, each to a --screenshot;
# - the long session: 12 windows opened and closed one after another, each with a list, grid
#   or column view manager (list-benchmarks --long-session);
# - the GTK tests that drop managers, windows and storages (LifetimeTests,
#   ManagerLifetimeTests).
# Prints, for each run, the bytes definitely lost in all and through the project's own code
# (a stack frame in Sources/), and fails when the project's code loses any. The lasting
# allocations of GTK, fontconfig, GLib and Mesa are suppressed (sanitizers/valgrind.supp).
# valgrind 3.22 or later reads Swift 6.3's debug information; Debian 13's and unstable's do (CI
# runs it on unstable, whose suite build it reuses):
#   bash meson-helpers/run-tests-debian.sh unstable --script meson-helpers/check-leaks.sh
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$helpers/.."
source "$helpers/environment.sh"
if ! command -v valgrind >/dev/null; then
    if [[ $(id -u) -eq 0 ]]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends valgrind
fi

# The suite's flags (run-tests.sh), so that its build is used as it is.
swift build --build-tests "${suite_build_flags[@]}"
binaries="$(swift build --show-bin-path)"
work="$(mktemp -d "${TMPDIR:-/tmp}/list-view-manager-leaks.XXXXXX")"
cleanup_on_exit "$work"
private_runtime_dir

# A folder of pictures and text, and a database of 500 rows in 5 sections.
mkdir -p "$work/folder/notes"
cp Resources/*.png Resources/*.svg "$work/folder/"
for n in $(seq 1 40); do echo "note $n" > "$work/folder/notes/note-$n.txt"; done
sqlite3 "$work/fruit.sqlite" "CREATE TABLE fruit (name TEXT, colour TEXT, weight REAL);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
    INSERT INTO fruit SELECT 'fruit ' || i, 'colour ' || (i % 5), i * 1.5 FROM n;"

failed=0
memcheck() {
    local name="$1"; shift
    local log="$work/$name.log"
    in_test_session "$(without_gl)" \
        valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=none \
        --num-callers=40 --fullpath-after="$PWD/" --suppressions="$helpers/sanitizers/valgrind.supp" \
        --log-file="$log" "$@" >/dev/null 2>&1 || { echo "$name: the program failed under valgrind"; tail -30 "$log"; failed=1; return; }
    # Each "definitely lost" record, and whether a frame of its stack is the project's.
    awk -v name="$name" '
        /definitely lost in loss record/ { record = 1; project = 0; bytes = $2; gsub(",", "", bytes); next }
        record && /\(Sources\// { project = 1 }
        record && /^==[0-9]+== *$/ { if (project) own += bytes; record = 0 }
        /definitely lost:/ { total = $4; gsub(",", "", total) }
        /suppressed:/ { suppressed = $3; gsub(",", "", suppressed) }
        END { printf "%s: definitely lost %d bytes, %d of them through project code (%d bytes of libraries suppressed)\n",
                     name, total, own, suppressed; exit own > 0 }
    ' "$log" || { failed=1; grep -A40 "definitely lost in loss record" "$log" | head -120; }
}

memcheck viewer-sample "$binaries/list-viewer" --screenshot "$work/sample.png"
memcheck viewer-folder "$binaries/list-viewer" "$work/folder" --screenshot "$work/folder.png"
memcheck viewer-database "$binaries/list-viewer" "$work/fruit.sqlite" --section-by colour --screenshot "$work/database.png"
memcheck long-session "$binaries/list-benchmarks" --long-session 12
memcheck lifetime-tests "$binaries/ListViewManagerPackageTests.xctest" \
    ListViewManagerTests.LifetimeTests ListViewManagerTests.ManagerLifetimeTests
exit $failed
