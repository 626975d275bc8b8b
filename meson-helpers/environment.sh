# Sourced by the helper scripts: puts Swift on PATH and gives GLib a runtime directory.
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
if [[ -z "${XDG_RUNTIME_DIR:-}" ]]; then
    # One private folder per user, reused by every run.
    XDG_RUNTIME_DIR="${TMPDIR:-/tmp}/list-view-manager-runtime-$(id -u)"
    mkdir -p -m 700 "$XDG_RUNTIME_DIR"
    export XDG_RUNTIME_DIR
fi
