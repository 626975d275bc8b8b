#!/usr/bin/env bash
# Builds list-viewer in release with the Swift runtime linked in, so the installed binary
# needs neither the toolchain's libraries at run time nor the build folder.
# Usage: build-release.sh PACKAGE_ROOT SCRATCH_DIR OUTPUT
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/environment.sh"
package_root=$1 scratch=$2 output=$3
swift build --package-path "$package_root" --scratch-path "$scratch" -c release --static-swift-stdlib --product list-viewer
cp "$(swift build --package-path "$package_root" --scratch-path "$scratch" -c release --static-swift-stdlib --show-bin-path)/list-viewer" "$output"
strip "$output"
