#!/usr/bin/env bash
# Installs what karc needs to build on a fresh Debian/Ubuntu machine.
# Idempotent: does nothing when everything is already present.
# With --test, also what the tests need: tmux, which drives the interactive shell,
# script (util-linux's bsdutils), which gives `swift test` a terminal, and
# chromium with chromedriver and Python's selenium, which drive the inspector's page headless.
set -euo pipefail

for_tests=0
if [ "${1:-}" = "--test" ]; then for_tests=1; fi

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# libedit-dev provides the headers and libedit.pc that the shell's CLibedit target links against.
if ! pkg-config --exists libedit 2>/dev/null; then need+=(libedit-dev); fi
if ((for_tests)) && ! command -v tmux >/dev/null 2>&1; then need+=(tmux); fi
if ((for_tests)) && ! command -v script >/dev/null 2>&1; then need+=(bsdutils); fi
if ((for_tests)) && ! command -v chromium >/dev/null 2>&1; then need+=(chromium); fi
if ((for_tests)) && ! command -v chromedriver >/dev/null 2>&1; then need+=(chromium-driver); fi
# Debian's python3 (the tests call /usr/bin/python3: a python3 earlier on PATH may be another one).
if ((for_tests)) && ! /usr/bin/python3 -c "import selenium" >/dev/null 2>&1; then need+=(python3-selenium); fi

if ((${#need[@]})); then
    echo "setup: installing ${need[*]} with apt-get" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "setup: swift is not on PATH; install Swift 6.x (https://swift.org/install) and retry" >&2
    exit 1
fi
pkg-config --exists libedit || { echo "setup: libedit still missing after install" >&2; exit 1; }
if ((for_tests)); then
    command -v tmux >/dev/null 2>&1 || { echo "setup: tmux still missing after install" >&2; exit 1; }
    command -v script >/dev/null 2>&1 || { echo "setup: script still missing after install" >&2; exit 1; }
    command -v chromium >/dev/null 2>&1 || { echo "setup: chromium still missing after install" >&2; exit 1; }
    command -v chromedriver >/dev/null 2>&1 || { echo "setup: chromedriver still missing after install" >&2; exit 1; }
    /usr/bin/python3 -c "import selenium" >/dev/null 2>&1 || { echo "setup: Python's selenium still missing after install" >&2; exit 1; }
fi
