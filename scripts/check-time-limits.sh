#!/bin/sh
# Every test has a time limit, so a hang fails by name within a minute
# instead of holding the whole run (make test runs this). A file with tests
# must set `.timeLimit` on its suites (or tests), and no `@Suite` may lack one.
set -e
cd "$(dirname "$0")/.."
status=0
for file in $(grep -rl '@Test' Tests --include='*.swift' | sort); do
    if ! grep -q '\.timeLimit(' "$file"; then
        echo "$file: tests without a time limit: add @Suite(.timeLimit(.minutes(1)))" >&2
        status=1
    fi
    grep -n '@Suite' "$file" | grep -v 'timeLimit' | while IFS=: read -r line _; do
        echo "$file:$line: a suite without a time limit: add .timeLimit(.minutes(1))" >&2
        exit 1
    done || status=1
done
exit $status
