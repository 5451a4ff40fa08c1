#!/bin/sh
# Copies the checked transcript scripts/demo/readme.karc into README.md, as
# `karc --echo` prints it: each command after "> ", then its #= lines. The
# block is the one after the marker line; `make readme` runs this after
# `karc check --update` has refreshed the transcript. Given a file (what
# `karc export-diagram scripts/demo/readme.karc --commands 3` wrote), puts it
# after the diagram's marker line too, in place of the block there.
set -eu
cd "$(dirname "$0")/.."
marker='<!-- transcript: scripts/demo/readme.karc (make readme) -->'
grep -qxF "$marker" README.md || { echo "README.md has no line: $marker" >&2; exit 1; }
block=$(awk '/^#=/ { sub(/^#= ?/, ""); print; next } /^#/ || /^[ \t]*$/ { next } { print "> " $0 }' scripts/demo/readme.karc)
export block marker
awk '
  $0 == ENVIRON["marker"] { print; print "```"; print ENVIRON["block"]; print "```"; skipping = 1; fences = 0; next }
  skipping && /^```/ { if (++fences == 2) skipping = 0; next }
  skipping { next }
  { print }
' README.md > README.md.new
mv README.md.new README.md
[ $# -ge 1 ] || exit 0
diagram_marker='<!-- diagram: karc export-diagram scripts/demo/readme.karc --commands 3 (make readme) -->'
grep -qxF "$diagram_marker" README.md || { echo "README.md has no line: $diagram_marker" >&2; exit 1; }
diagram=$(grep -v '^<!--' "$1")
export diagram diagram_marker
awk '
  $0 == ENVIRON["diagram_marker"] { print; print ENVIRON["diagram"]; skipping = 1; fences = 0; next }
  skipping && /^```/ { if (++fences == 2) skipping = 0; next }
  skipping { next }
  { print }
' README.md > README.md.new
mv README.md.new README.md
