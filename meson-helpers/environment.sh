# Sourced by the helper scripts: puts Swift on PATH, gives GLib a runtime directory, and
# reads the app id (written once, in Resources/app-id).
app_id="$(<"$(dirname "${BASH_SOURCE[0]}")/../Resources/app-id")"
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
if [[ -z "${XDG_RUNTIME_DIR:-}" ]]; then
    # One private folder per user, reused by every run.
    XDG_RUNTIME_DIR="${TMPDIR:-/tmp}/list-view-manager-runtime-$(id -u)"
    mkdir -p -m 700 "$XDG_RUNTIME_DIR"
    export XDG_RUNTIME_DIR
fi

# A runtime folder of this run's own, for the scripts that start test sessions: the
# accessibility bus keeps its socket there, and a run at the same time must not reach it.
# Removed when the script exits (cleanup_on_exit).
private_runtime_dir() {
    XDG_RUNTIME_DIR="$(mktemp -d "${TMPDIR:-/tmp}/list-view-manager-runtime.XXXXXX")"
    export XDG_RUNTIME_DIR
    cleanup_on_exit "$XDG_RUNTIME_DIR"
}

# Removes the given folders when the script exits (with any given before).
cleanup_folders=()
cleanup_on_exit() {
    cleanup_folders+=("$@")
    trap 'rm -rf "${cleanup_folders[@]}"' EXIT
}

# The environment setting that keeps GDK from loading OpenGL (and so Mesa, whose unloading
# leaves stacks sanitizers cannot name): GTK 4.16 moved it from GDK_DEBUG=gl-disable to
# GDK_DISABLE=gl, and 4.24 no longer knows the old one.
without_gl() {
    if pkg-config --atleast-version=4.16 gtk4; then echo GDK_DISABLE=gl; else echo GDK_DEBUG=gl-disable; fi
}
