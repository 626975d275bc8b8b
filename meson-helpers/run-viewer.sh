#!/usr/bin/env bash
# Installs what is missing and runs the sample viewer: with no argument it shows the
# bundled catalog; give it a folder or a catalog .json file to show that instead.
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$helpers/install-dependencies.sh"
source "$helpers/environment.sh"
# No cd: relative paths in the arguments are the caller's.
exec swift run --package-path "$helpers/.." list-viewer "$@"
