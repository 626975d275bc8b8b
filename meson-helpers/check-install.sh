#!/usr/bin/env bash
# Installs a built meson build directory into a staging folder and checks the result as a
# packager would: files in the standard places, valid desktop entry and metainfo, and the
# installed binary running on its own (no build folder, no source tree) under Xvfb.
# Usage: check-install.sh MESON_BUILD_DIR
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$helpers/environment.sh"
build_dir=${1%/}
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
meson install -C "$build_dir" --destdir "$stage" >/dev/null
prefix="$(meson introspect "$build_dir" --buildoptions | python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')"
root="$stage$prefix"
for file in bin/list-viewer share/applications/$app_id.desktop share/metainfo/$app_id.metainfo.xml \
            share/icons/hicolor/scalable/apps/$app_id.svg share/list-viewer/sample-catalog.json \
            share/list-viewer/style.css share/list-viewer/AlbumRow.ui share/bash-completion/completions/list-viewer.bash \
            share/zsh/site-functions/_list-viewer share/fish/vendor_completions.d/list-viewer.fish \
            share/locale/fr/LC_MESSAGES/list-view-manager.mo share/locale/fr/LC_MESSAGES/list-viewer.mo; do
    [[ -e "$root/$file" ]] || { echo "missing after install: $file" >&2; exit 1; }
done
grep -q -- '--section-by' "$root/share/bash-completion/completions/list-viewer.bash" \
    || { echo "the bash completion does not offer --section-by" >&2; exit 1; }
desktop-file-validate "$root/share/applications/$app_id.desktop"
appstreamcli validate --no-net "$root/share/metainfo/$app_id.metainfo.xml" >/dev/null
# Run a copy of the install, started by name from PATH as a desktop launcher does, from a
# folder away from the build folder; the sources' Resources/ is out of reach (through
# LIST_VIEWER_SOURCE_RESOURCES=none), so only the installed files can be found.
cp -r "$root" "$stage/moved"
(cd "$stage" && unset LIST_VIEWER_RESOURCES && PATH="$stage/moved/bin:$PATH" LIST_VIEWER_SOURCE_RESOURCES=none \
    in_test_session G_DEBUG=fatal-warnings list-viewer --screenshot "$stage/installed.png")
[[ -s "$stage/installed.png" ]] || { echo "the installed list-viewer wrote no screenshot" >&2; exit 1; }
echo "installed app: OK ($(du -h "$stage/moved/bin/list-viewer" | cut -f1) binary)"
# The installed viewer finds its installed translations: run in French (a French locale
# built with localedef into the stage, as a machine with fr_FR.UTF-8 generated has it), its
# own message and the library's are French.
mkdir "$stage/locales"
localedef -i fr_FR -f UTF-8 "$stage/locales/fr_FR.UTF-8"
in_french() {
    (cd "$stage" && env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=fr_FR.UTF-8 LOCPATH="$stage/locales" \
        LIST_VIEWER_SOURCE_RESOURCES=none "$stage/moved/bin/list-viewer" "$@" 2>&1 || true)
}
expect_french() {
    [[ "$1" == "$2" ]] || { printf 'the installed list-viewer in French printed:\n%s\nand not:\n%s\n' "$1" "$2" >&2; exit 1; }
}
expect_french "$(in_french "$stage/nothing-here")" "list-viewer: $stage/nothing-here : aucun fichier ou dossier de ce nom"
expect_french "$(in_french "postgres://owner:secret@localhost/db")" \
    "list-viewer: impossible d’utiliser postgres://owner@localhost/db : un mot de passe sur la ligne de commande est vu par chaque utilisateur de cet ordinateur ; donnez-le dans PGPASSWORD ou ~/.pgpass"
echo "installed app in French: OK"
