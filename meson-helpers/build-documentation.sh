#!/usr/bin/env bash
# Builds the DocC documentation of the libraries (ModelStorage, GtkKit, ListViewManager,
# SQLiteStorage, PostgresStorage) with the swift-docc-plugin, in the test build's folder
# (.build) and with its compiler flags, so that the modules run-tests.sh built are used as
# they are (only the plugin's own tools are compiled), with DocC's warnings as errors (a broken symbol link, a parameter left
# undocumented), as one combined archive so that the articles link across modules. Then
# fails when any public symbol of these modules has no doc comment: the symbol graphs the
# plugin extracted are read for public symbols without one (compiler-synthesized symbols
# and those inheriting a protocol's comment from another module are left to DocC). Prints
# where the archives are. Run install-dependencies.sh first: it installs the system
# packages.
set -euo pipefail
helpers="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$helpers/.."
source "$helpers/environment.sh"

modules=(ModelStorage GtkKit ListViewManager SQLiteStorage PostgresStorage)
scratch=.build
outputs="$scratch/plugins/Swift-DocC/outputs"
targets=()
for module in "${modules[@]}"; do targets+=(--target "$module"); done

# Archives and symbol graphs of earlier runs would hide a module that no longer builds.
rm -rf "$outputs" "$scratch"/*/extracted-symbols

echo "== DocC: ${modules[*]}"
swift package "${suite_build_flags[@]}" --scratch-path "$scratch" generate-documentation "${targets[@]}" \
    --enable-experimental-combined-documentation --warnings-as-errors

echo "== Doc comments of public symbols"
python3 - "$scratch" "${modules[@]}" <<'EOF'
import glob, json, sys

missing = []
scratch, modules = sys.argv[1], sys.argv[2:]
for module in modules:
    paths = glob.glob(f"{scratch}/*/extracted-symbols/*/{module}/*.symbols.json")
    if not paths:
        sys.exit(f"error: no symbol graph of {module} was made")
    for path in paths:
        with open(path) as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            comment = symbol.get("docComment")
            if (symbol["accessLevel"] not in ("public", "open")
                    or "::SYNTHESIZED::" in symbol["identifier"]["precise"]
                    or symbol["kind"]["identifier"] == "swift.extension"
                    or (comment and comment.get("lines"))):
                continue
            location = symbol.get("location", {})
            source = "Sources/" + location.get("uri", "?").split("/Sources/")[-1]
            line = location.get("position", {}).get("line", -1) + 1
            missing.append(f"{source}:{line}: {module}.{'.'.join(symbol['pathComponents'])}")
for entry in sorted(missing):
    print(f"error: public symbol without a doc comment: {entry}", file=sys.stderr)
if missing:
    sys.exit(f"{len(missing)} public symbols have no doc comment")
print(f"every public symbol of {', '.join(modules)} has a doc comment")
EOF

echo "== Documentation archives"
echo "  all modules, linked together: $PWD/$outputs/ListViewManager.doccarchive"
for module in "${modules[@]}"; do
    echo "  $module alone: $PWD/$outputs/intermediates/$module.doccarchive"
done
echo "To read them: python3 -m http.server --directory $outputs/ListViewManager.doccarchive 8000"
echo "  then open http://localhost:8000/documentation/listviewmanager"
