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

# The flags of the suite's build (run-tests.sh), which the scripts building in its folder
# give too (the app's debug build, the documentation, the leak check), so that nothing is
# compiled again.
suite_build_flags=(-Xswiftc -warnings-as-errors)

# The AddressSanitizer build (run-sanitizers.sh), which is the fuzzing build too: with
# LIST_VIEW_MANAGER_FUZZER naming the toolchain's libFuzzer (without its main), Package.swift
# instruments the fuzzed modules for it and links it into the fuzz targets (run-fuzzers.sh).
address_build_flags=(--sanitize address --build-path .build-asan "${suite_build_flags[@]}")
fuzzing_build() {
    local swift_root
    swift_root="$(dirname "$(dirname "$(realpath "$(command -v swift)")")")"
    LIST_VIEW_MANAGER_FUZZER="$(ls "$swift_root"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a | tail -n 1)"
    export LIST_VIEW_MANAGER_FUZZER
}

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

# Runs a command as the tests' programs run: in a private D-Bus session and an X server of its
# own (Xvfb), GTK drawing with cairo. It is stopped, with all it started, after
# LIST_VIEW_MANAGER_TIME_LIMIT seconds (30 minutes unless set): a test that hangs fails its
# run, where it would hold CI until CI's own limit. The X server's authority file is made
# and removed here, not by xvfb-run: its own removal of its folder once failed after a
# passing suite (exit 5, "problem while cleaning up temporary directory"), which failed CI.
in_test_session() {
    local authority status=0
    authority="$(mktemp "${TMPDIR:-/tmp}/list-view-manager-xauth.XXXXXX")"
    timeout --kill-after=30 "${LIST_VIEW_MANAGER_TIME_LIMIT:-1800}" \
        dbus-run-session -- xvfb-run -a -f "$authority" -s "-screen 0 1024x768x24" \
        env GSK_RENDERER=cairo "$@" || status=$?
    rm -f "$authority" "$authority-c" "$authority-l"
    return "$status"
}

# The environment setting that keeps GDK from loading OpenGL (and so Mesa, whose unloading
# leaves stacks sanitizers cannot name): GTK 4.16 moved it from GDK_DEBUG=gl-disable to
# GDK_DISABLE=gl, and 4.24 no longer knows the old one.
without_gl() {
    if pkg-config --atleast-version=4.16 gtk4; then echo GDK_DISABLE=gl; else echo GDK_DEBUG=gl-disable; fi
}
