#!/usr/bin/env bash
# Builds list-viewer. In release, for an install (the default): with the Swift runtime linked
# in, so the installed binary needs neither the toolchain's libraries at run time nor the
# build folder. In debug, as run-tests.sh asks for it: in the suite's own build folder with
# the suite's flags, where everything is built already and nothing is compiled again (the
# runtime stays the toolchain's: linking it in would compile modules again, in a way the
# suite's next build does not undo).
# Usage: build-app.sh PACKAGE_ROOT SCRATCH_DIR release|debug OUTPUT
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/environment.sh"
package_root=$1 scratch=$2 configuration=$3 output=$4
flags=(--package-path "$package_root" --scratch-path "$scratch" -c "$configuration")
if [[ $configuration == debug ]]; then
    flags+=("${suite_build_flags[@]}")
else
    flags+=(--static-swift-stdlib)
fi
swift build "${flags[@]}" --product list-viewer
cp "$(swift build "${flags[@]}" --show-bin-path)/list-viewer" "$output"
strip "$output"
