#!/usr/bin/env bash
# Runs the built tests (`swift test --skip-build`, arguments passed on) under
# a terminal, and ends the run soon after a test hangs.
#
# Swift Testing marks a test that passes its time limit with ✘ by name, but
# cannot stop it: the run then waits for it forever. So once a
# "Time limit was exceeded" line is printed, the others get TEST_HANG_GRACE
# seconds (90) to finish, then the run is stopped, saying which tests were
# still running; a run never takes more than TEST_RUN_LIMIT seconds (1200).
# `script` gives `swift test` a terminal, so what it prints (the ✘ line) is
# written at once, not held in a buffer and lost when it is stopped.
set -u
swift=${SWIFT:-swift}
grace=${TEST_HANG_GRACE:-90}
limit=${TEST_RUN_LIMIT:-1200}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

command="$swift test --skip-build"
for argument in "$@"; do command+=" $(printf '%q' "$argument")"; done
script -qefc "$command" /dev/null >"$log" 2>&1 &
runner=$!
tail -n +1 -f --pid="$runner" "$log" &
follower=$!

# Tests that said they started and not how they ended.
still_running() {
    tr -d '\r' <"$log" | sed -nE 's/^.*◇ Test ([^ ]+) started\.$/\1/p' | sort -u >"$log.started"
    tr -d '\r' <"$log" | sed -nE 's/^.*[✔✘] Test ([^ ]+) (with [0-9]+ test cases? )?(passed|failed).*$/\1/p' | sort -u >"$log.ended"
    comm -23 "$log.started" "$log.ended"
    rm -f "$log.started" "$log.ended"
}

stop() {
    kill -TERM "$runner" 2>/dev/null
    for _ in $(seq 30); do kill -0 "$runner" 2>/dev/null || break; sleep 1; done
    kill -KILL "$runner" 2>/dev/null
    # What `script` ran, if its hangup did not end it.
    pkill -KILL -f 'PackageTests\.xctest' 2>/dev/null
    wait "$runner" 2>/dev/null
    wait "$follower" 2>/dev/null
}

hung_at=""
while kill -0 "$runner" 2>/dev/null; do
    if [ -z "$hung_at" ] && grep -q 'Time limit was exceeded' "$log"; then hung_at=$SECONDS; fi
    if [ -n "$hung_at" ] && ((SECONDS - hung_at >= grace)); then
        stop
        echo "run-tests: a test passed its time limit and the run had not ended ${grace}s later; stopped. Still running:"
        still_running | sed 's/^/  /'
        exit 1
    fi
    if ((SECONDS >= limit)); then
        stop
        echo "run-tests: the run took more than ${limit}s; stopped. Still running:"
        still_running | sed 's/^/  /'
        exit 1
    fi
    sleep 2
done
wait "$runner"
status=$?
wait "$follower" 2>/dev/null
exit "$status"
