#!/usr/bin/env bash
# Draws the charts of BENCHMARKS.md (SVG, with gnuplot) from the benchmark figures kept in
# Resources/benchmarks/: every gtk-VERSION.jsonl (the GTK scenarios on the project, the C
# baseline and the PyGObject baseline, one JSON line per run) gives
#   gtk-VERSION-bulk-load.svg    bulk_load: time until the first frame and memory added,
#                                against the number of items (log-log)
#   gtk-VERSION-full-reload.svg  full_reload: every item replaced in one update, time and
#                                the process's peak memory against the number of items
#   gtk-VERSION-scroll.svg       CPU per frame while scrolling 100,000 items, per scenario
# and diff.jsonl (the storage's diff scenarios) gives diff.svg: ListSnapshot.difference
# against CollectionDifference on the same arrays of UUIDs (log-log).
# Each point is the median of the runs of its scenario, implementation and size in the file;
# the SVGs hold no date, so drawing them again from the same figures changes nothing.
#   bash meson-helpers/make-charts.sh          # the charts, from the figures kept
#   bash meson-helpers/make-charts.sh --run    # first measures again, under Xvfb, with the
#       release builds of list-benchmarks and list-baseline-c (swift build -c release
#       --product list-benchmarks, and --product list-baseline-c), and replaces
#       gtk-VERSION.jsonl (VERSION: GTK's, from pkg-config) and diff.jsonl
# With --run: LIST_CHARTS_BIN, the folder of the two builds (default .build/release);
# LIST_CHARTS_SIZES, the item counts (default "1000 10000 100000 1000000"); LIST_CHARTS_RUNS,
# the runs of each point (default 3); LIST_CHARTS_TIMEOUT, the seconds a run may take before
# it is left out (default 120). gnuplot (gnuplot-nox) is installed through apt if missing.
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$helpers/.." && pwd)"
source "$helpers/environment.sh"
charts="$repo/Resources/benchmarks"
mkdir -p "$charts"

# ---- Measuring (--run) ----

# One run: the JSON line of IMPL (swift, c or python) running SCENARIO over N items, in a
# fresh process, appended to FILE; nothing when it fails or takes too long.
measure_one() {
    local file="$1" impl="$2" scenario="$3" n="$4" bin="$5" line command
    case "$impl" in
        swift) command=("$bin/list-benchmarks" --gtk-one "$scenario" "$n") ;;
        c) command=("$bin/list-baseline-c" "$scenario" "$n") ;;
        python) command=(/usr/bin/python3 "$repo/Sources/ListBenchmarks/baseline.py" "$scenario" "$n") ;;
    esac
    line="$(timeout "${LIST_CHARTS_TIMEOUT:-120}" "${command[@]}" 2>/dev/null | grep '^{' | tail -n 1 || true)"
    if [[ -z "$line" ]]; then
        echo "left out: $impl $scenario $n (failed, or over ${LIST_CHARTS_TIMEOUT:-120} s)" >&2
        return
    fi
    echo "$line" >> "$file"
    echo "$line"
}

measure() {
    local bin="${LIST_CHARTS_BIN:-$repo/.build/release}"
    [[ -x "$bin/list-benchmarks" && -x "$bin/list-baseline-c" ]] \
        || { echo "error: no release builds in $bin: run swift build -c release --product list-benchmarks, then --product list-baseline-c" >&2; exit 1; }
    local version
    version="$(pkg-config --modversion gtk4 | cut -d. -f1,2)"
    local work
    work="$(mktemp -d "${TMPDIR:-/tmp}/list-view-manager-charts.XXXXXX")"
    cleanup_on_exit "$work"
    local sizes=(${LIST_CHARTS_SIZES:-1000 10000 100000 1000000}) runs="${LIST_CHARTS_RUNS:-3}" run n scenario impl
    # The implementations in turn for each run, so that the machine's slow moments fall on all.
    for scenario in bulk_load full_reload; do
        for n in "${sizes[@]}"; do
            for ((run = 1; run <= runs; run++)); do
                for impl in swift c python; do measure_one "$work/gtk.jsonl" "$impl" "$scenario" "$n" "$bin"; done
            done
        done
    done
    # Scrolling over 100,000 items, as `list-benchmarks --gtk` does; scroll_rich is C drawing
    # the project's `scroll` rows, scroll_grid_sections the project's sectioned grid (whose
    # baseline is the plain grid of scroll_grid: no GTK view has sections).
    for ((run = 1; run <= runs; run++)); do
        for scenario in scroll scroll_labels scroll_grid; do
            for impl in swift c python; do measure_one "$work/gtk.jsonl" "$impl" "$scenario" 100000 "$bin"; done
        done
        measure_one "$work/gtk.jsonl" c scroll_rich 100000 "$bin"
        measure_one "$work/gtk.jsonl" swift scroll_grid_sections 100000 "$bin"
    done
    # The diff scenarios at their own sizes (5,000 and 100,000), each a median of repetitions.
    "$bin/list-benchmarks" --scenario diff_uuid | grep '^{' > "$work/diff.jsonl"
    cat "$work/diff.jsonl"
    mv "$work/gtk.jsonl" "$charts/gtk-$version.jsonl"
    mv "$work/diff.jsonl" "$charts/diff.jsonl"
}

if [[ "${1:-}" == --run ]]; then
    if [[ -z "${LIST_CHARTS_UNDER_XVFB:-}" ]]; then
        # The GTK scenarios need a display: the rest of this script runs under Xvfb.
        exec dbus-run-session -- xvfb-run -a -s "-screen 0 1024x768x24" \
            env GSK_RENDERER=cairo LIST_CHARTS_UNDER_XVFB=1 bash "${BASH_SOURCE[0]}" "$@"
    fi
    measure
fi

# ---- Drawing ----

if ! command -v gnuplot >/dev/null; then
    if [[ $(id -u) -eq 0 ]]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gnuplot-nox
fi
data="$(mktemp -d "${TMPDIR:-/tmp}/list-view-manager-chart-data.XXXXXX")"
cleanup_on_exit "$data"

# The JSON lines as gnuplot's tables, in $data: for each scenario and implementation, a row
# per size (n, then the median, fastest and slowest of each figure's runs), and for the
# scrolling chart a row per bar (its place, median, fastest, slowest).
reshape() {
    python3 - "$@" <<'PYTHON'
import json, statistics, sys
source, out = sys.argv[1], sys.argv[2]
runs = {}
with open(source) as lines:
    for line in lines:
        line = line.strip()
        if line.startswith("{"):
            row = json.loads(line)
            if "error" not in row and "ratio" not in row:
                runs.setdefault((row["scenario"], row["impl"], row["n"]), []).append(row)

def figures(rows, key):
    values = [row[key] for row in rows if row.get(key) is not None]
    return (statistics.median(values), min(values), max(values)) if values else None

# Item-count charts: one table per scenario and implementation.
series = {}
for (scenario, impl, n), rows in runs.items():
    series.setdefault((scenario, impl), []).append((n, rows))
for (scenario, impl), points in series.items():
    with open(f"{out}/{scenario}-{impl}.dat", "w") as table:
        for n, rows in sorted(points):
            fields = [n]
            for key in ("wall_ms", "rss_added_mb", "peak_rss_mb"):
                fields += figures(rows, key) or (float("nan"),) * 3
            table.write(" ".join(f"{value:.6g}" for value in fields) + "\n")

# The scrolling chart: clusters of bars, each bar placed in its cluster.
clusters = [("scroll", [("swift", "scroll"), ("c", "scroll"), ("c_rich", "scroll_rich"), ("python", "scroll")]),
            ("scroll_labels", [("swift", "scroll_labels"), ("c", "scroll_labels"), ("python", "scroll_labels")]),
            ("scroll_grid", [("swift", "scroll_grid"), ("c", "scroll_grid"), ("python", "scroll_grid")]),
            ("scroll_grid_sections", [("swift", "scroll_grid_sections")])]
bars = {}
for index, (_, members) in enumerate(clusters):
    present = []
    for name, scenario in members:
        impl = "c" if name == "c_rich" else name
        rows = [row for (s, i, _), rs in runs.items() if s == scenario and i == impl for row in rs]
        if rows:
            present.append((name, figures(rows, "cpu_ms_per_frame")))
    width = 0.8 / 4
    for place, (name, (median, low, high)) in enumerate(present):
        x = index + (place - (len(present) - 1) / 2) * width
        bars.setdefault(name, []).append(f"{x:.4f} {median:.6g} {low:.6g} {high:.6g}")
for name in ("swift", "c", "c_rich", "python"):
    with open(f"{out}/scroll-{name}.dat", "w") as table:
        table.write("\n".join(bars.get(name, [])) + "\n")
# The fewest runs of any point, for the titles.
print(min(len(rows) for rows in runs.values()))
PYTHON
}

# Colours told apart by colour-blind readers (Okabe and Ito), on a white background.
style='
set terminal svg size 1000,440 noenhanced font "DejaVu Sans,13" background rgb "white"
set style line 1 lc rgb "#D55E00" lw 2 pt 7 ps 1.1
set style line 2 lc rgb "#0072B2" lw 2 pt 5 ps 1.1
set style line 3 lc rgb "#009E73" lw 2 pt 9 ps 1.3
set style line 4 lc rgb "#56B4E9" lw 2 pt 13 ps 1.3
set grid lc rgb "#dddddd" lw 1
set pointintervalbox 0
set border lc rgb "#444444"
set key top left Left reverse opaque box lc rgb "#cccccc"
'
loglog='
set logscale xy
set xrange [700:1.5e6]
set xtics ("1,000" 1e3, "10,000" 1e4, "100,000" 1e5, "1,000,000" 1e6)
set format y "%g"
set xlabel "items in the list"
'

# A two-panel item-count chart of SCENARIO from FILE's tables: time, then the memory
# column MEMORY (5: added, 8: the process's peak) under MEMORY_LABEL.
count_chart() {
    local output="$1" title="$2" time_label="$3" memory_column="$4" memory_title="$5" memory_label="$6" scenario="$7"
    gnuplot <<GNUPLOT
$style
$loglog
set output "$output"
set multiplot layout 1,2 title "$title" font ",14"
set title "Time"
set ylabel "$time_label"
plot "$data/$scenario-swift.dat" using 1:2 with linespoints ls 1 title "Swift (this project)", \
     "$data/$scenario-c.dat" using 1:2 with linespoints ls 2 title "C (GListStore)", \
     "$data/$scenario-python.dat" using 1:2 with linespoints ls 3 title "Python (PyGObject)"
set title "$memory_title"
set ylabel "$memory_label"
plot "$data/$scenario-swift.dat" using 1:$memory_column with linespoints ls 1 title "Swift (this project)", \
     "$data/$scenario-c.dat" using 1:$memory_column with linespoints ls 2 title "C (GListStore)", \
     "$data/$scenario-python.dat" using 1:$memory_column with linespoints ls 3 title "Python (PyGObject)"
unset multiplot
GNUPLOT
}

shopt -s nullglob
for figures in "$charts"/gtk-*.jsonl; do
    stem="${figures%.jsonl}"
    version="${stem##*/gtk-}"
    rm -f "$data"/*.dat
    runs="$(reshape "$figures" "$data")"
    count_chart "$stem-bulk-load.svg" \
        "Bulk load: N items put into a shown list, until its first frame (GTK $version, median of $runs runs)" \
        "wall time (ms)" 5 "Memory the items and rows added" "resident memory added (MB)" bulk_load
    count_chart "$stem-full-reload.svg" \
        "Full reload: all N items replaced by new ones in one update, until 2 frames (GTK $version, median of $runs runs)" \
        "wall time (ms)" 8 "Peak memory of the process (GTK's own ~100 MB included)" "peak resident memory of the process (MB)" full_reload
    gnuplot <<GNUPLOT
$style
set output "$stem-scroll.svg"
set title "CPU per frame while scrolling 100,000 items: 300 frames (GTK $version, median of $runs runs; whiskers: fastest and slowest)"
set ylabel "CPU time per frame (ms)"
set yrange [0:*]
set xrange [-0.55:3.55]
set grid noxtics ytics
set key outside top center horizontal maxrows 2 width 2
set boxwidth 0.19
set style fill solid 0.9 border rgb "#333333"
set xtics scale 0 ("scroll\n(project: 3 row kinds and headers;\nbaselines: label rows)" 0, "scroll_labels\n(label rows everywhere)" 1, \
    "scroll_grid\n(icon tiles in a GtkGridView)" 2, "scroll_grid_sections\n(project's sectioned grid,\n100 sections; baselines: scroll_grid)" 3)
set bmargin 5
plot "$data/scroll-swift.dat" using 1:2 with boxes ls 1 fc rgb "#D55E00" title "Swift (this project)", \
     "$data/scroll-c.dat" using 1:2 with boxes ls 2 fc rgb "#0072B2" title "C (GListStore)", \
     "$data/scroll-c_rich.dat" using 1:2 with boxes ls 4 fc rgb "#56B4E9" title "C drawing the project's rows (scroll_rich)", \
     "$data/scroll-python.dat" using 1:2 with boxes ls 3 fc rgb "#009E73" title "Python (PyGObject)", \
     for [name in "swift c c_rich python"] "$data/scroll-".name.".dat" using 1:2:3:4 with yerrorbars lc rgb "#333333" pt 0 lw 1.2 notitle, \
     for [name in "swift c c_rich python"] "$data/scroll-".name.".dat" using 1:4:(sprintf("%.1f", \$2)) with labels offset 0,0.7 font ",11" notitle
GNUPLOT
done

if [[ -f "$charts/diff.jsonl" ]]; then
    rm -f "$data"/*.dat
    reshape "$charts/diff.jsonl" "$data" >/dev/null
    gnuplot <<GNUPLOT
$style
$loglog
set terminal svg size 800,460 noenhanced font "DejaVu Sans,13" background rgb "white"
set output "$charts/diff.svg"
set xrange [3000:170000]
set xtics ("5,000" 5e3, "10,000" 1e4, "100,000" 1e5)
set title "Diff of two lists of N UUIDs, DifferenceKit's benchmark shapes (median of repetitions):\n1,000 / 10,000 deleted, as many inserted, 175 / 1,912 moved; the suite has no C or Python diff"
set ylabel "time per diff (ms)"
set xlabel "items in each list"
set key top left
set yrange [0.1:1e5]
plot "$data/diff_uuid-swift.dat" using 1:2 with linespoints ls 1 title "Swift (this project): ListSnapshot.difference(from:)", \
     "$data/diff_uuid-collectiondifference.dat" using 1:2 with linespoints ls 2 lc rgb "#7F7F7F" title "Swift's CollectionDifference + inferringMoves()"
GNUPLOT
fi
echo "charts in $charts:" $(cd "$charts" && ls *.svg)
