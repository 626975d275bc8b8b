#!/usr/bin/env bash
# Installs what is missing, builds everything with warnings as errors, and runs the whole
# test suite: storage tests, and GTK tests in a real window under Xvfb with a private
# D-Bus session, where any GLib warning or critical fails the run.
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$helpers/.."

"$helpers/install-dependencies.sh"
source "$helpers/environment.sh"

build_flags=(-Xswiftc -warnings-as-errors)
swift build --build-tests "${build_flags[@]}"
dbus-run-session -- xvfb-run -a -s "-screen 0 1024x768x24" \
    env G_DEBUG=fatal-warnings GSK_RENDERER=cairo \
    swift test --skip-build "${build_flags[@]}" "$@"
