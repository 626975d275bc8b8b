#!/usr/bin/env bash
# Builds and tests the work tree as it is now (uncommitted changes too) on another Debian in
# a chroot: runs run-tests.sh there and exits with its status.
# Usage: run-tests-debian.sh RELEASE [--prepare | --script SCRIPT ARGS | RUN-TESTS ARGS]
#   RELEASE: 13 (trixie, GTK 4.18) or unstable (sid, GTK 4.24 in late 2026; Debian testing
#   has the same GTK but no libxml2.so.2, which the toolchain's swift-build links).
# The chroot is made once with debootstrap from the host's own Debian archive and cached,
# with its .build, between runs. The host's Swift toolchain and local package mirrors
# (git url.<dir>.insteadOf) are bind-mounted read-only. Arguments go to run-tests.sh;
# `--script SCRIPT ARGS` runs another of the project's scripts there instead (check-leaks.sh);
# `--prepare` only makes the chroot and installs its packages (little CPU: CI does it while
# the host builds).
# LIST_VIEW_MANAGER_CHROOT: where the chroot lives (default /var/cache/list-view-manager/debian-RELEASE).
# LIST_VIEW_MANAGER_MIRROR: the Debian archive to use (default: the host's apt source).
set -euo pipefail
release="${1:-}"
case "$release" in
    13) suite=trixie ;;
    unstable) suite=sid ;;
    *) echo "usage: $0 13|unstable [--prepare | --script SCRIPT ARGS | RUN-TESTS ARGS]" >&2; exit 2 ;;
esac
shift
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
die() { echo "error: $*" >&2; exit 1; }

# Mounting and chrooting need root: through sudo (keeping PATH, to find swift) when possible.
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || die "this needs root (or sudo) to make and enter a chroot"
    exec sudo env "PATH=$PATH" "HOME=$HOME" \
        "LIST_VIEW_MANAGER_CHROOT=${LIST_VIEW_MANAGER_CHROOT:-}" \
        "LIST_VIEW_MANAGER_MIRROR=${LIST_VIEW_MANAGER_MIRROR:-}" bash "${BASH_SOURCE[0]}" "$release" "$@"
fi

root="${LIST_VIEW_MANAGER_CHROOT:-/var/cache/list-view-manager/debian-$release}"
mkdir -p "$(dirname "$root")"
root="$(realpath -m "$root")"
shopt -s nullglob
# One run at a time per chroot: runs share its .build, and each one unmounts what is left.
exec 9>"$root.lock"
flock -n 9 || die "another run is using $root"

# The toolchain's root: swift resolves to TOOLCHAIN/usr/bin/swift-driver or the like.
swift_binary="$(command -v swift)" || die "no swift on PATH"
toolchain="$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_binary")")")")"
[[ $toolchain != / && -x $toolchain/usr/bin/swift ]] ||
    die "$swift_binary is not in a toolchain folder (DIR/usr/bin/swift) that can be mounted"

# Everything mounted under the chroot (or a half-made one), deepest first.
mounts_under_root() {
    awk -v r="$root" '$5 == r || index($5, r "/") == 1 || index($5, r ".tmp/") == 1 { print $5 }' \
        /proc/self/mountinfo | sort -r
}
unmount_all() {
    # Processes left in the chroot (a bus, an X server) keep its mounts busy.
    local link pid
    for link in /proc/[0-9]*/root; do
        pid="${link#/proc/}" pid="${pid%/root}"
        if [[ $(readlink "$link" 2>/dev/null) == "$root" ]]; then kill -9 "$pid" 2>/dev/null || true; fi
    done
    local target
    while read -r target; do
        umount "$target" 2>/dev/null || umount -l "$target"
    done < <(mounts_under_root)
}
# Stage times, printed at exit: `stage NAME` starts one and ends the one before.
timings=() stage_name="" stage_start=0
stage() {
    [[ -z $stage_name ]] || timings+=("$stage_name $((SECONDS - stage_start))s")
    stage_name="$1" stage_start=$SECONDS
}
finish() {
    local status=$?
    stage ""
    unmount_all || true
    ((${#timings[@]} == 0)) || echo "== Debian $release stage times: ${timings[*]}" >&2
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
unmount_all # what a run that was killed left behind

# The URL of the host's apt source for its own Debian suite, from one-line and deb822 files.
host_archive() {
    local suite lists=() sources=(/etc/apt/sources.list.d/*.sources)
    suite="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
    [[ -f /etc/apt/sources.list ]] && lists=(/etc/apt/sources.list)
    lists+=(/etc/apt/sources.list.d/*.list)
    [[ -n $suite ]] || return 0
    {
        awk -v s="$suite" '{ sub(/#.*/, ""); sub(/\[[^]]*\]/, "") } $1 == "deb" && $3 == s { print $2 }' \
            /dev/null "${lists[@]}"
        awk -v s="$suite" 'BEGIN { RS = "" } {
            types = ""; uris = ""; suites = ""; enabled = "yes"; n = split($0, lines, "\n")
            for (i = 1; i <= n; i++) {
                if (lines[i] ~ /^[ \t]*#/ || !match(lines[i], /^[A-Za-z-]+:/)) continue
                key = tolower(substr(lines[i], 1, RLENGTH - 1)); value = substr(lines[i], RLENGTH + 1)
                if (key == "types") types = value; else if (key == "uris") uris = value
                else if (key == "suites") suites = value; else if (key == "enabled") enabled = value
            }
            if (enabled ~ /no/ || (" " types " ") !~ /[ \t]deb[ \t]/) next
            split(uris, u, /[ \t]+/); m = split(suites, ss, /[ \t]+/)
            for (j = 1; j <= m; j++) if (ss[j] == s) { print (u[1] != "" ? u[1] : u[2]); break }
        }' /dev/null "${sources[@]}"
    } | sed -n 1p
}

create_chroot() {
    local mirror="${LIST_VIEW_MANAGER_MIRROR:-$(host_archive)}"
    [[ -n $mirror ]] || die "no Debian archive found in the host's apt sources; set LIST_VIEW_MANAGER_MIRROR"
    if ! command -v debootstrap >/dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        # Waiting for the host's package lock: CI makes both chroots at once.
        local apt=(apt-get -o DPkg::Lock::Timeout=600)
        "${apt[@]}" install -y debootstrap || { "${apt[@]}" update && "${apt[@]}" install -y debootstrap; } ||
            die "debootstrap is missing and apt-get could not install it"
    fi
    # Never delete a folder this script did not make: only its own half-made .tmp.
    [[ ! -e $root ]] || die "$root exists but is not a finished chroot (no .complete); remove it or choose another"
    rm -rf --one-file-system "$root.tmp"
    echo "== Making a Debian $release ($suite) chroot in $root from $mirror" >&2
    debootstrap --variant=minbase "$suite" "$root.tmp" "$mirror" || die "debootstrap failed"
    # Services that packages install must not start inside the chroot.
    printf '#!/bin/sh\nexit 101\n' >"$root.tmp/usr/sbin/policy-rc.d"
    chmod +x "$root.tmp/usr/sbin/policy-rc.d"
    touch "$root.tmp/.complete"
    mv "$root.tmp" "$root"
}
if [[ ! -f $root/.complete ]]; then stage debootstrap; create_chroot; fi

# How the host reaches its archive: DNS, and apt settings that no package owns (proxies, checks).
rm -f "$root/etc/resolv.conf"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
for file in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
    if [[ -f $file ]] && ! dpkg -S "$file" >/dev/null 2>&1; then cp "$file" "$root$file"; fi
done

bind() { # bind SOURCE [ro]: mounts SOURCE at the same path inside the chroot
    mkdir -p "$root$1"
    mount --bind "$1" "$root$1" || die "cannot bind-mount $1 into $root"
    [[ ${2:-} != ro ]] || mount -o remount,bind,ro "$root$1" || die "cannot make $root$1 read-only"
}
for dir in /proc /sys /dev /dev/pts /dev/shm; do bind "$dir"; done
bind "$toolchain" ro
# Swift packages come from local mirrors through git's url.<dir>.insteadOf: the same inside.
rm -f "$root/etc/gitconfig"
while read -r key value; do
    base="${key#url.}" base="${base%.insteadof}"
    if [[ $base == /* && -d $base ]] && ! mountpoint -q "$root$base"; then bind "$base" ro; fi
    git config --file "$root/etc/gitconfig" --add "url.$base.insteadOf" "$value"
done < <({ git config --system --get-regexp '^url\..*\.insteadof$' || true
           git config --global --get-regexp '^url\..*\.insteadof$' || true; } | sort -u)

in_chroot() {
    chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive TOOLCHAIN_BIN="$toolchain/usr/bin" \
        PATH="$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "$@" 9>&-
}
# What the Swift toolchain needs to run, compile and link (libxml2 and libcurl for SwiftPM).
toolchain_needs=(libc6-dev binutils gcc libcurl4t64 libxml2 libedit2
    libncurses6 libsqlite3-0 libuuid1 zlib1g git pkg-config ca-certificates)
# clang compiles C++ (BoringSSL, under postgres-nio) with the headers of the newest GCC whose
# folder it finds in /usr/lib/gcc/<triple>: a runtime package (libgcc-s1) can make that folder
# for a newer GCC than the gcc package's, so that GCC's C++ headers are asked for by version,
# once the rest is installed: whatever GCC the release moves to next.
newest_gcc() {
    in_chroot bash -c 'ls /usr/lib/gcc/*-linux-gnu/ 2>/dev/null | grep -E "^[0-9]+$" | sort -n | tail -n 1'
}
install_missing() { # install_missing PACKAGE...: those not installed yet, if any
    local missing
    missing="$(in_chroot bash -c 'for p; do dpkg-query -W -f="\${Status}" "$p" 2>/dev/null |
        grep -q "install ok installed" || echo "$p"; done' _ "$@")"
    [[ -z $missing ]] && return
    in_chroot apt-get update
    # shellcheck disable=SC2086 # one package a word
    in_chroot apt-get install -y --no-install-recommends $missing
}
install_toolchain_needs() {
    local gcc=""
    in_chroot dpkg --configure -a # finishes what an interrupted run left half installed
    install_missing "${toolchain_needs[@]}"
    # Installing one GCC's headers may bring a newer GCC's folder: until the newest has its own.
    while [[ $(newest_gcc) != "$gcc" ]]; do
        gcc="$(newest_gcc)"
        [[ -n $gcc ]] || die "no GCC folder in the chroot's /usr/lib/gcc after installing gcc"
        install_missing "libstdc++-$gcc-dev" "libgcc-$gcc-dev"
    done
}
stage toolchain-packages
install_toolchain_needs

# The tree as git sees it (uncommitted and untracked, not ignored, files); files copied by an
# earlier run and gone since are removed, and the chroot's .build stays.
copy_tree() {
    local dest="$root/src/list-view-manager" list="$root/src/list-view-manager.files"
    mkdir -p "$dest"
    git -c safe.directory="$repo" -C "$repo" ls-files -z -co --exclude-standard >"$list.all"
    (cd "$repo" && while IFS= read -r -d '' f; do
        if [[ -e $f || -L $f ]]; then printf '%s\0' "$f"; fi
    done) <"$list.all" >"$list.new"
    [[ -f $list ]] || : >"$list"
    (cd "$dest" && while IFS= read -r -d '' f; do
        rm -f -- "$f"; rmdir -p --ignore-fail-on-non-empty -- "$(dirname -- "$f")" 2>/dev/null || true
    done) < <(comm -z -23 <(sort -z "$list") <(sort -z "$list.new"))
    tar -C "$repo" --null -T "$list.new" -cf - | tar -C "$dest" -xf -
    mv "$list.new" "$list"; rm -f "$list.all"
}
stage copy
copy_tree

# In the background, so that a signal reaches the trap at once (which ends what runs inside);
# without the lock, so that what a killed run leaves behind does not hold it.
run() {
    in_chroot bash -lc 'export PATH="$TOOLCHAIN_BIN:$PATH"; cd /src/list-view-manager && "$@"' bash "$@" 9>&- &
    wait $!
}
stage project-packages
run bash meson-helpers/install-dependencies.sh
[[ ${1:-} != --prepare ]] || exit 0
echo "== Debian $release ($suite): GTK $(run pkg-config --modversion gtk4), $(run swift --version 2>/dev/null | sed -n 1p)" >&2
stage build-and-test
if [[ ${1:-} == --script ]]; then
    # Another of the project's scripts in the chroot (check-leaks.sh, for one).
    shift
    run bash "$@"
else
    run bash meson-helpers/run-tests.sh "$@"
fi
