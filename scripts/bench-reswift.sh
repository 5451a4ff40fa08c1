#!/usr/bin/env bash
# Observed store sends against ReSwift's dispatch (docs/performance.md,
# "Watching a live app"): ReSwift's sources, unchanged, are built in a scratch
# package outside the repository with a loop of one store, an Equatable state
# and one subscriber; then its median of five 1M-dispatch runs and karc-bench's
# `cluster.send.store` run in turn, RUNS times, and each pair's ratio is printed.
#
#   scripts/bench-reswift.sh PATH-TO-RESWIFT-6.1.1-CHECKOUT [RUNS]
#
# Needs the release karc-bench (`make bench` builds it); KARC_BENCH names
# another one (a copy of an older build, to pair two builds against ReSwift).
set -euo pipefail
reswift=${1:?usage: scripts/bench-reswift.sh PATH-TO-RESWIFT-CHECKOUT [RUNS]}
runs=${2:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
bench="${KARC_BENCH:-$repo/.build/release/karc-bench}"
[ -x "$bench" ] || { echo "error: $bench is missing: run make bench first" >&2; exit 1; }
[ -d "$reswift/ReSwift/CoreTypes" ] || { echo "error: $reswift is not a ReSwift checkout (no ReSwift/CoreTypes)" >&2; exit 1; }
scratch=$(mktemp -d /tmp/reswift-bench.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/Sources/reswift-bench"
cp -R "$reswift/ReSwift" "$scratch/ReSwift"
cat > "$scratch/Package.swift" <<'SWIFT'
// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "reswift-bench",
    targets: [
        .target(name: "ReSwift", path: "ReSwift", exclude: ["Info.plist", "ReSwift.h"]),
        .executableTarget(name: "reswift-bench", dependencies: ["ReSwift"], path: "Sources/reswift-bench"),
    ]
)
SWIFT
cat > "$scratch/Sources/reswift-bench/main.swift" <<'SWIFT'
import Foundation
import ReSwift

struct AppState: Equatable { var count = 0 }
struct Add: Action { var n = 1 }

func reducer(action: Action, state: AppState?) -> AppState {
    var state = state ?? AppState()
    if let add = action as? Add { state.count += add.n }
    return state
}

final class Subscriber: StoreSubscriber {
    var seen = 0
    func newState(state: AppState) { seen = state.count }
}

// The median of five runs of N dispatches after a warm-up, as karc-bench measures.
let n = 1_000_000
var rates: [Double] = []
for run in 0...5 {
    let store = Store<AppState>(reducer: reducer, state: nil)
    let subscriber = Subscriber()
    store.subscribe(subscriber)
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<n { store.dispatch(Add()) }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    precondition(subscriber.seen == n)
    if run > 0 { rates.append(Double(n) / elapsed) }
}
print(rates.sorted()[rates.count / 2])
SWIFT
swift build -c release --package-path "$scratch" > /dev/null
for _ in $(seq "$runs"); do
    theirs=$("$scratch/.build/release/reswift-bench")
    ours=$(KARC_BENCH_ONLY='cluster.send.store$' "$bench" | awk '/^bench: cluster.send.store /{print $3}')
    awk -v o="$ours" -v t="$theirs" 'BEGIN { printf "cluster.send.store %d sends/s, ReSwift %d dispatches/s: %.2fx\n", o, t, o / t }'
done
