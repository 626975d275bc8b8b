#!/usr/bin/env bash
# Validates the desktop entry and the AppStream metainfo in Resources/.
set -euo pipefail
resources="$(cd "$(dirname "${BASH_SOURCE[0]}")/../Resources" && pwd)"
desktop-file-validate "$resources/io.github.listviewmanager.ListViewer.desktop"
appstreamcli validate --no-net "$resources/io.github.listviewmanager.ListViewer.metainfo.xml"
