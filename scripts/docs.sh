#!/bin/sh
# The DocC documentation of every library module, warnings treated as errors
# (a stale symbol link or an undocumented parameter fails), and every public
# declaration documented (scripts/doc-coverage.py): `make docs`.
#
# Symbol graphs come from `swift package dump-symbol-graph` (no plugin
# dependency), the catalogs from Sources/<Module>/<Module>.docc (the design
# chapters are articles there, in the modules they describe); the articles
# in docs/ that a catalog lists (porting, shell) are copied into it, so they
# have one source. docs/architecture.md is not copied: it links to the
# chapters by their paths in the repository. Archives land in .build/docs/.
set -e
cd "$(dirname "$0")/.."
modules="KarcAsync Karc AsyncDispatcher Trellis Compose ComposeCombine TrellisCombine TrellisCompose KarcCommand KarcLanguage KarcRendering KarcShellCluster KarcTrace KarcHistory KarcTestExport KarcOutput KarcHost KarcFronts KarcSession KarcInspector KarcExplore KarcScriptTools KarcShell KarcSessionTrellis KarcShellTrellis KarcEndpoint TrellisTesting"
graphs=$(swift package dump-symbol-graph --minimum-access-level public 2>&1 | sed -n 's/^Files written to //p')
[ -d "$graphs" ] || { echo "scripts/docs.sh: swift package dump-symbol-graph wrote no symbol graphs" >&2; exit 1; }
work=.build/docs-work
rm -rf "$work" .build/docs
mkdir -p "$work" .build/docs
for module in $modules; do
    mkdir -p "$work/$module/graphs"
    cp "$graphs/$module.symbols.json" "$work/$module/graphs/"
    for extension in "$graphs/$module"@*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "$work/$module/graphs/"
    done
    cp -R "Sources/$module/$module.docc" "$work/$module/"
    case $module in
        Karc) cp docs/porting.md "$work/$module/$module.docc/Porting.md" ;;
        KarcShell) cp docs/shell.md "$work/$module/$module.docc/Shell.md" ;;
    esac
    echo "docs: $module"
    docc convert "$work/$module/$module.docc" \
        --additional-symbol-graph-dir "$work/$module/graphs" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.karc.$module" \
        --output-path ".build/docs/$module.doccarchive" \
        --warnings-as-errors
done
# Every public declaration has a doc comment (DocC warns only about the parameters of documented ones).
./scripts/doc-coverage.py
echo "docs: .build/docs/*.doccarchive (docc preview, or any static host with --transform-for-static-hosting)"
