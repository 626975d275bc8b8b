#!/usr/bin/env bash
# Builds everything with warnings as errors and runs the whole test suite: the desktop entry
# and metainfo checks, storage tests, GTK tests in real windows under Xvfb with a private
# D-Bus session (where any GLib warning or critical fails the run), and the Meson build and
# install of list-viewer, run from its staged install. The Meson build is the suite's debug
# build (viewer_build=debug, in .build), so it compiles nothing again; Meson's
# default, for an install, is a release build.
# When the suite fails, its failures are repeated at the end of the output.
#
# Installing system packages is a step of its own (install-dependencies.sh, which the
# README's first command and CI run). Run by hand on a machine that lacks some, this script
# runs that step first; under `meson test` (LIST_VIEWER_UNDER_MESON=1) it installs nothing,
# and leaves the data and install checks to meson's own tests.
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$helpers/.."

under_meson="${LIST_VIEWER_UNDER_MESON:-0}"
if ! "$helpers/install-dependencies.sh" --check 2>/dev/null; then
    if [[ "$under_meson" == 1 ]]; then
        "$helpers/install-dependencies.sh" --check
    fi
    "$helpers/install-dependencies.sh"
fi
source "$helpers/environment.sh"
private_runtime_dir

swift build --build-tests "${suite_build_flags[@]}"
if [[ "$under_meson" != 1 ]]; then
    "$helpers/validate-data.sh"
    build_dir="$(mktemp -d "${TMPDIR:-/tmp}/list-viewer-meson.XXXXXX")"
    cleanup_on_exit "$build_dir"
    meson setup "$build_dir" meson-helpers --prefix=/usr -Dviewer_build=debug -Dviewer_build_path="$PWD/.build" >/dev/null
    meson compile -C "$build_dir"
    "$helpers/check-install.sh" "$build_dir"
fi
log="$(mktemp "${TMPDIR:-/tmp}/list-view-manager-tests.XXXXXX")"
cleanup_on_exit "$log"
status=0
in_test_session G_DEBUG=fatal-warnings \
    swift test --skip-build "${suite_build_flags[@]}" "$@" 2>&1 | tee "$log" || status=$?
if ((status != 0)); then
    # A long run's failures scroll far out of sight: they are repeated last, with what the
    # tests were doing when a process ended.
    if ((status == 124 || status == 137)); then
        echo "== The suite ran past its time limit (LIST_VIEW_MANAGER_TIME_LIMIT) and was stopped" >&2
    fi
    echo "== The suite failed ($status). Its failures, warnings and criticals:" >&2
    grep -E "error:|failed|Fatal|-WARNING|-CRITICAL|Exited with|signal code|✘" "$log" |
        grep -vE "passed|' started|◇|^MESA" | head -n 80 >&2 || true
    echo "== The last test cases started:" >&2
    grep -E "Test Case '.*' started|◇ Test .* started" "$log" | tail -n 3 >&2 || true
    exit "$status"
fi
