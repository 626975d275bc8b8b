#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages this project needs to build, run and test, and
# checks for a Swift 6 toolchain. Safe to run any number of times: it only asks apt for
# what is missing, and runs `apt-get update` only then. Works as root or through sudo.
# With --check it installs nothing: it names what is missing and fails if anything is.
set -euo pipefail
check_only=0
[[ "${1:-}" == --check ]] && check_only=1

packages=(
    libgtk-4-dev      # GTK 4 headers and libraries (the CGtk module, through pkg-config)
    pkg-config        # how SwiftPM finds GTK
    xvfb xauth        # xvfb-run: a real X display for the UI tests, with no screen
    dbus              # dbus-run-session: a private session bus, so GTK does not warn
    at-spi2-core      # the accessibility bus GTK talks to
    fonts-dejavu-core # fonts for rows to render with
    adwaita-icon-theme # the icons rows show
    meson ninja-build # building and installing the viewer as a GNOME app
    desktop-file-utils appstream # validating its desktop entry and metainfo
    python3-gi gir1.2-gtk-4.0 # the PyGObject baseline of the benchmark suite
    xdotool           # real key presses and clicks in the UI tests
    python3-pyatspi   # the accessibility test reads the viewer as a screen reader does
    libsqlite3-dev    # the system SQLite that GRDB links (the SQLiteStorage library only)
    sqlite3           # the sqlite3 command, a second process writing in the SQLite storage tests
    postgresql        # PostgreSQL's server and psql: the PostgreSQL storage tests start private servers
    pgbouncer         # the PostgreSQL storage tests follow tables through a private PgBouncer (transaction pooling)
    gettext           # msgfmt and xgettext: the translations, built by meson and checked by the tests
    locales           # localedef and the locales' sources: the translation test builds a French locale
)

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if ((${#missing[@]} > 0)); then
    if ((check_only)); then
        echo "error: missing packages: ${missing[*]}; install them with: bash meson-helpers/install-dependencies.sh" >&2
        exit 1
    fi
    echo "Installing: ${missing[*]}"
    if [[ $(id -u) -eq 0 ]]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Swift is not in Debian 12's archive; newer Debian and Ubuntu releases package it as swiftlang.
swift_binary="$(command -v swift || true)"
if [[ -z "$swift_binary" && -x /opt/swift/usr/bin/swift ]]; then
    swift_binary=/opt/swift/usr/bin/swift
fi
if [[ -n "$swift_binary" ]]; then
    major="$("$swift_binary" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\).*/\1/p' | head -n 1)"
    if [[ -z "$major" || "$major" -lt 6 ]]; then
        echo "error: $swift_binary is Swift ${major:-of unknown version}; this package needs Swift 6 or newer (https://www.swift.org/install/linux/)." >&2
        exit 1
    fi
else
    if ((check_only)); then
        echo "error: no Swift toolchain found; install it with: bash meson-helpers/install-dependencies.sh" >&2
        exit 1
    fi
    if apt-cache show swiftlang >/dev/null 2>&1; then
        if [[ $(id -u) -eq 0 ]]; then sudo=(); else sudo=(sudo); fi
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y swiftlang
    else
        echo "error: no Swift toolchain found. Install Swift 6 from https://www.swift.org/install/linux/ and put its usr/bin on PATH." >&2
        exit 1
    fi
fi
