#!/usr/bin/env python3
"""Documentation coverage of the library modules' public declarations, from
the symbol graphs `swift package dump-symbol-graph` writes (scripts/docs.sh
runs it first). Prints each module's share and every undocumented
declaration with its file and line; exits 1 when one is missing, so
`make docs` keeps every public declaration documented."""
import glob
import json
import subprocess
import sys

modules = sys.argv[1:] or ("KarcAsync Karc AsyncDispatcher Trellis Compose ComposeCombine TrellisCombine TrellisCompose KarcCommand KarcShellCluster KarcTestExport KarcOutput KarcSession KarcExplore KarcScriptTools KarcShell "
                           "KarcSessionTrellis KarcShellTrellis KarcEndpoint TrellisTesting").split()
bin_path = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True, check=True).stdout.strip()
graphs = bin_path.rsplit("/", 1)[0] + "/symbolgraph"
root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
missing = 0
for module in modules:
    seen, undocumented = set(), []
    for path in [f"{graphs}/{module}.symbols.json"] + glob.glob(f"{graphs}/{module}@*.symbols.json"):
        for symbol in json.load(open(path))["symbols"]:
            uri = symbol.get("location", {}).get("uri", "")
            if symbol.get("accessLevel") not in ("public", "open") or f"{root}/Sources" not in uri:
                continue  # declarations of other packages (inherited, synthesized) are theirs to document
            where = uri.split(root + "/", 1)[1] + ":" + str(symbol["location"]["position"]["line"] + 1)
            if where in seen:
                continue
            seen.add(where)
            if not symbol.get("docComment"):
                undocumented.append(f"  {where}: {'.'.join(symbol['pathComponents'])}")
    print(f"docs: {module}: {len(seen) - len(undocumented)}/{len(seen)} public declarations documented")
    if undocumented:
        print("\n".join(undocumented))
    missing += len(undocumented)
sys.exit(1 if missing else 0)
