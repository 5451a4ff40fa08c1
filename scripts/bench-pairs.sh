#!/usr/bin/env bash
# Compares two release builds figure by figure, run in turn (old, new, old,
# new, ...), so a slow minute of the host weighs on both alike.
#
#   scripts/bench-pairs.sh [-n PAIRS] OLD_DIR NEW_DIR FIGURES
#
# OLD_DIR and NEW_DIR each hold a `karc-bench` and the `karc` built with it
# (copies of .build/release after `make bench`, say:
# `mkdir -p /tmp/old && cp .build/release/karc .build/release/karc-bench /tmp/old/`).
# FIGURES is what `KARC_BENCH_ONLY` takes (`cluster.send.store$,shell.script.json`).
# Each run is the median of KARC_BENCH_SAMPLES runs (3 unless set); PAIRS
# pairs (5 unless given). Prints each figure's new/old ratio pair by pair,
# and the median of those ratios: a ratio above 1 is a higher figure for
# the new build (better for a rate, worse for a cost or a time).
set -euo pipefail

pairs=5
if [[ "${1:-}" == "-n" ]]; then
    pairs="${2:?-n takes a number of pairs}"
    shift 2
fi
if [[ $# -ne 3 ]]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
old="$1" new="$2" figures="$3"
if ! [[ "$pairs" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-pairs: -n takes a whole number of pairs from 1, not '$pairs'" >&2
    exit 2
fi
for dir in "$old" "$new"; do
    for tool in karc-bench karc; do
        if [[ ! -x "$dir/$tool" ]]; then
            echo "bench-pairs: no executable $dir/$tool (a directory with a release karc-bench and its karc)" >&2
            exit 2
        fi
    done
done

results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for ((pair = 1; pair <= pairs; pair++)); do
    for side in old new; do
        dir="$old"
        [[ "$side" == new ]] && dir="$new"
        # Lines "bench: NAME VALUE UNIT ...": kept as "PAIR SIDE NAME VALUE". A name a run
        # prints more than once (`observers.breakdown`, a line per observer) is NAME#2, NAME#3…
        KARC_BENCH_ONLY="$figures" KARC_BENCH_SAMPLES="${KARC_BENCH_SAMPLES:-3}" "$dir/karc-bench" 2>&1 |
            awk -v pair="$pair" -v side="$side" '$1 == "bench:" && $3 ~ /^[0-9.]+$/ {
                seen[$2]++
                print pair, side, (seen[$2] > 1 ? $2 "#" seen[$2] : $2), $3
            }' >>"$results"
    done
    echo "bench-pairs: pair $pair of $pairs done" >&2
done

if [[ ! -s "$results" ]]; then
    echo "bench-pairs: no figure matched '$figures' (KARC_BENCH_ONLY's prefixes; docs/performance.md lists the names)" >&2
    exit 1
fi

awk '
    function median(list, n,    i, j, t) {
        for (i = 2; i <= n; i++) { t = list[i]; for (j = i - 1; j >= 1 && list[j] > t; j--) list[j + 1] = list[j]; list[j + 1] = t }
        return n % 2 ? list[(n + 1) / 2] : (list[n / 2] + list[n / 2 + 1]) / 2
    }
    { value[$3, $2, $1] = $4; if (!($3 in seen)) { seen[$3] = 1; order[++names] = $3 }; if ($1 > last) last = $1 }
    END {
        for (k = 1; k <= names; k++) {
            name = order[k]; n = 0; line = ""; no = 0; nn = 0
            delete ratios; delete olds; delete news
            for (p = 1; p <= last; p++) {
                if (!((name, "old", p) in value) || !((name, "new", p) in value)) continue
                o = value[name, "old", p]; w = value[name, "new", p]
                olds[++no] = o; news[++nn] = w
                if (o == 0) continue
                ratios[++n] = w / o
                line = line sprintf(" %.3f", w / o)
            }
            if (n == 0) { printf "%s: no pair to compare\n", name; continue }
            printf "%s: new/old%s; median %.3f (old median %s, new median %s)\n", name, line, median(ratios, n), median(olds, no), median(news, nn)
        }
    }
' "$results"
