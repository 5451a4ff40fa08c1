#!/usr/bin/env bash
# Draws docs/images/inspector.png, the picture README.md and docs/inspect.md
# show: `karc --inspect` on the README's session, its first two commands
# typed in the terminal (a pipe kept open), the rest through the page's
# command box, driven in headless chromium by Tests/Browser/inspector_flow.py
# (the same flow InspectorBrowserFlowTests checks). `make readme` runs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
karc="${1:-$root/.build/debug/karc}"
out="$root/docs/images/inspector.png"
scratch="$(mktemp -d)"
holder=""
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    [ -n "$holder" ] && kill "$holder" 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT
mkfifo "$scratch/in"
# Holds the pipe open: the session goes on after the terminal's two commands.
sleep 600 >"$scratch/in" &
holder=$!
XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state" XDG_CONFIG_HOME="$scratch/config" \
    "$karc" --inspect --keep-going --fresh --tick 3600s <"$scratch/in" >"$scratch/out" 2>"$scratch/err" &
pid=$!
printf 'counter.increment-by-three\narticles.add title="Hello, karc"\n' >"$scratch/in"
url=""
for _ in $(seq 1 100); do
    url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/?token=[0-9a-f]*' "$scratch/err" || true)"
    if [ -n "$url" ] && grep -q redirected "$scratch/out"; then break; fi
    sleep 0.1
done
[ -n "$url" ] || { echo "inspector-screenshot: karc printed no inspector URL" >&2; cat "$scratch/err" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
/usr/bin/python3 "$root/Tests/Browser/inspector_flow.py" "$url" "$out"
echo "wrote $out"
