#!/usr/bin/env bash
# Validates the desktop entry and the AppStream metainfo in Resources/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/environment.sh"
resources="$(cd "$(dirname "${BASH_SOURCE[0]}")/../Resources" && pwd)"
desktop-file-validate "$resources/$app_id.desktop"
appstreamcli validate --no-net "$resources/$app_id.metainfo.xml"
