#!/usr/bin/env bash
# Runs the fuzz targets of the fuzzing build (the AddressSanitizer build of
# run-sanitizers.sh, with libFuzzer's coverage and main: built here if it is not yet):
# replays each seed corpus (Tests/Fuzz/Corpus/TARGET), then fuzzes each target for
# FUZZ_SECONDS (60 by default). A crash stops the run; libFuzzer writes the input that
# caused it to crash-* in the work folder it names, which belongs in the corpus once the
# cause is fixed (the ordinary suite replays the corpus too: FuzzCorpusTests). New inputs
# found are left in the work folder, not added to the corpus. Each target's longest input
# (-max_len) is sized from its corpus: the largest seed plus a quarter, rounded up to a
# power of two, so no seed is cut short.
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$helpers/.."
source "$helpers/environment.sh"
fuzzing_build

seconds="${FUZZ_SECONDS:-60}"
work="$(mktemp -d "${TMPDIR:-/tmp}/list-view-manager-fuzz.XXXXXX")"
echo "fuzz work folder: $work"
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"

root="$PWD"
for target in storage catalog database; do
    product="${target^}Fuzzer"
    swift build "${address_build_flags[@]}" --product "$product"
    binary="$root/.build-asan/debug/$product"
    corpus="$root/Tests/Fuzz/Corpus/$target"
    mkdir -p "$work/$target"
    largest="$(find "$corpus" -type f -printf '%s\n' | sort -n | tail -1)"
    max_len=1024
    while (( max_len < largest + largest / 4 )); do max_len=$(( max_len * 2 )); done
    echo "== $product: replaying $(ls "$corpus" | wc -l) seeds, then fuzzing for $seconds s (inputs up to $max_len bytes)"
    (cd "$work" && "$binary" -runs=0 "$corpus" > "$work/$target-replay.log" 2>&1) || {
        tail -40 "$work/$target-replay.log"; echo "error: a seed of $product fails (above)" >&2; exit 1; }
    (cd "$work" && "$binary" -max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb=4096 -print_final_stats=1 \
        "$work/$target" "$corpus" > "$work/$target.log" 2>&1) || {
        tail -60 "$work/$target.log"; echo "error: $product found a crash (above)" >&2; exit 1; }
    grep -E '^stat::(number_of_executed_units|new_units_added)|^Done' "$work/$target.log"
done
