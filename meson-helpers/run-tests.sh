#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors, and runs the whole
# test suite: the desktop entry and metainfo checks, storage tests, GTK tests in real
# windows under Xvfb with a private D-Bus session (where any GLib warning or critical fails
# the run), and the Meson build and install of list-viewer, run from its staged install.
# LIST_VIEWER_SKIP_INSTALL_CHECK=1 skips the last (meson test sets it: it is that check).
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$helpers/.."

"$helpers/install-dependencies.sh"
source "$helpers/environment.sh"
private_runtime_dir

"$helpers/validate-data.sh"
if [[ "${LIST_VIEWER_SKIP_INSTALL_CHECK:-0}" != 1 ]]; then
    build_dir="$(mktemp -d "${TMPDIR:-/tmp}/list-viewer-meson.XXXXXX")"
    cleanup_on_exit "$build_dir"
    meson setup "$build_dir" meson-helpers --prefix=/usr >/dev/null
    meson compile -C "$build_dir"
    "$helpers/check-install.sh" "$build_dir"
fi

build_flags=(-Xswiftc -warnings-as-errors)
swift build --build-tests "${build_flags[@]}"
dbus-run-session -- xvfb-run -a -s "-screen 0 1024x768x24" \
    env G_DEBUG=fatal-warnings GSK_RENDERER=cairo \
    swift test --skip-build "${build_flags[@]}" "$@"
